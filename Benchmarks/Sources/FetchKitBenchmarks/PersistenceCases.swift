import Foundation
import GRDB
import Persistence

/// A scratch directory for the persistence cases, removed when the run ends.
final class Scratch {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("fetchkit-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    func removeDatabase(_ name: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path(name) + suffix) }
    }
    deinit { try? FileManager.default.removeItem(at: url) }
}

let insertCount = 50_000
let fetchCount = 200_000
let smallPersistRepeats = 1_000

/// Raw C and GRDB sides of "insert 50,000 rows in one transaction".
func rawInsertSide(_ scratch: Scratch) -> Side {
    Side(name: "raw C") {
        scratch.removeDatabase("raw-insert.sqlite")
        let db = try RawSQLite(path: scratch.path("raw-insert.sqlite"))
        try db.execute(RawSQLite.createItems)
        return try time { try db.insertItems(count: insertCount) }
    }
}

func grdbInsertSide(_ scratch: Scratch) -> Side {
    Side(name: "GRDB") {
        scratch.removeDatabase("grdb-insert.sqlite")
        let queue = try openGRDB(path: scratch.path("grdb-insert.sqlite"))
        let items = (1...insertCount).map { GRDBItem(BenchItem(id: $0)) }
        return try time {
            try queue.write { db in
                for item in items { try item.insert(db) }
            }
        }
    }
}

/// Raw C and GRDB sides of "fetch 200,000 rows into structs", on one shared file. A side over
/// raw C's connection fetches the rows with `fetch` (raw C's own loop by default).
func rawFetchSide(
    path: String, name: String = "raw C", fetch: @escaping (RawSQLite) throws -> [BenchItem] = { try $0.fetchItems() }
) -> Side {
    Side(name: name) {
        let db = try RawSQLite(path: path)
        var count = 0
        let duration = try time { count = try fetch(db).count }
        guard count == fetchCount else { throw RawSQLite.Failure(description: "\(name) read \(count) rows") }
        return duration
    }
}

func grdbFetchSide(path: String) -> Side {
    Side(name: "GRDB") {
        let queue = try openGRDB(path: path)
        var count = 0
        let duration = try time { count = try queue.read { try GRDBItem.fetchAll($0).count } }
        guard count == fetchCount else { throw RawSQLite.Failure(description: "GRDB fetch read \(count) rows") }
        return duration
    }
}

/// Creates the shared 200,000-row file the fetch sides read.
func makeFetchDatabase(_ scratch: Scratch) throws -> String {
    let path = scratch.path("fetch.sqlite")
    let db = try RawSQLite(path: path)
    try db.execute(RawSQLite.createItems)
    try db.insertItems(count: fetchCount)
    try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path
}

/// Raw C and GRDB sides of "one small persist" (update one row and commit), repeated.
func rawSmallPersistSide(path: String) -> Side {
    Side(name: "raw C") {
        let db = try RawSQLite(path: path)
        let statement = try db.prepare("UPDATE items SET i1 = ? WHERE i0 = ?")
        defer { sqlite3_finalize_statement(statement) }
        return try time {
            for n in 0..<smallPersistRepeats { try db.smallUpdate(statement: statement, id: 1 + n % 100, value: n) }
        }
    }
}

func grdbSmallPersistSide(path: String) -> Side {
    Side(name: "GRDB") {
        let queue = try openGRDB(path: path)
        return try time {
            for n in 0..<smallPersistRepeats {
                try queue.write { db in
                    try db.execute(sql: "UPDATE items SET i1 = ? WHERE i0 = ?", arguments: [n, 1 + n % 100])
                }
            }
        }
    }
}

/// FetchKit's side of the insert case: one `persist` inserting every row.
func oursInsertSide(_ scratch: Scratch) -> Side {
    let items = (1...insertCount).map { BenchItem(id: $0) }
    return Side(name: "FetchKit persist") {
        scratch.removeDatabase("ours-insert.sqlite")
        let store = try ObjectStore(
            at: URL(fileURLWithPath: scratch.path("ours-insert.sqlite")), entities: [BenchItem.self])
        defer { store.close() }
        return try time {
            try store.context.persistAndWait { transaction in
                for item in items { try transaction.insert(item) }
            }
        }
    }
}

/// FetchKit's side of the fetch case: one read fetching every row into `BenchItem`s.
func oursFetchSide(path: String) -> Side {
    Side(name: "FetchKit fetch") {
        let store = try ObjectStore(at: URL(fileURLWithPath: path), entities: [BenchItem.self])
        defer { store.close() }
        var count = 0
        let duration = try time { count = try store.context.readAndWait { try $0.fetch(Query<BenchItem>()) }.count }
        guard count == fetchCount else { throw RawSQLite.Failure(description: "FetchKit fetch read \(count) rows") }
        return duration
    }
}

/// FetchKit's side of the small-persist case: `persist` updating one row, repeated.
func oursSmallPersistSide(path: String) -> Side {
    Side(name: "FetchKit persist") {
        let store = try ObjectStore(at: URL(fileURLWithPath: path), entities: [BenchItem.self])
        defer { store.close() }
        return try time {
            for n in 0..<smallPersistRepeats {
                try store.context.persistAndWait { transaction in
                    var item = BenchItem(id: 1 + n % 100)
                    item.i1 = n
                    try transaction.update(item)
                }
            }
        }
    }
}
