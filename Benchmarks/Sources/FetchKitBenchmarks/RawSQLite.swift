import Foundation
import Persistence

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLiteBench
#endif

/// The raw SQLite C API side of the persistence cases: the fastest honest way to do the same
/// work, with a prepared statement and the same journal settings as the other sides
/// (WAL, synchronous=NORMAL).
final class RawSQLite {
    let handle: OpaquePointer

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(path: String) throws {
        var db: OpaquePointer?
        // Opened as FetchKit's store opens its connections: no per-call mutex (each connection
        // is confined to one thread), so neither side pays for locking the other does not do.
        guard
            sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
                == SQLITE_OK, let db
        else {
            throw Failure(description: "cannot open \(path)")
        }
        handle = db
        // The pragmas FetchKit's store sets, page cache included (its default 64 MiB).
        try execute(
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; PRAGMA cache_size=-65536")
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw Failure(description: String(cString: sqlite3_errmsg(handle)))
        }
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
            let statement
        else { throw Failure(description: String(cString: sqlite3_errmsg(handle))) }
        return statement
    }

    /// GRDB's performance-suite table: ten integer columns (the first is the row's identity).
    static let createItems =
        "CREATE TABLE IF NOT EXISTS items (i0 INTEGER NOT NULL PRIMARY KEY, i1 INTEGER NOT NULL, "
        + "i2 INTEGER NOT NULL, i3 INTEGER NOT NULL, i4 INTEGER NOT NULL, i5 INTEGER NOT NULL, i6 INTEGER NOT NULL, "
        + "i7 INTEGER NOT NULL, i8 INTEGER NOT NULL, i9 INTEGER NOT NULL)"

    /// Inserts `count` rows of GRDB's 10-integer workload in one transaction.
    func insertItems(count: Int, startID: Int = 1) throws {
        try execute("BEGIN IMMEDIATE")
        let statement = try prepare(
            "INSERT INTO items (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        defer { sqlite3_finalize(statement) }
        for n in 0..<count {
            let id = startID + n
            for column in 0..<10 { sqlite3_bind_int64(statement, Int32(column + 1), Int64(id &+ column)) }
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw Failure(description: String(cString: sqlite3_errmsg(handle)))
            }
            sqlite3_reset(statement)
        }
        try execute("COMMIT")
    }

    /// Fetches every row into `BenchItem` structs.
    func fetchItems() throws -> [BenchItem] {
        let statement = try prepare("SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM items")
        defer { sqlite3_finalize(statement) }
        var items: [BenchItem] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            items.append(
                BenchItem(
                    i0: Int(sqlite3_column_int64(statement, 0)), i1: Int(sqlite3_column_int64(statement, 1)),
                    i2: Int(sqlite3_column_int64(statement, 2)), i3: Int(sqlite3_column_int64(statement, 3)),
                    i4: Int(sqlite3_column_int64(statement, 4)), i5: Int(sqlite3_column_int64(statement, 5)),
                    i6: Int(sqlite3_column_int64(statement, 6)), i7: Int(sqlite3_column_int64(statement, 7)),
                    i8: Int(sqlite3_column_int64(statement, 8)), i9: Int(sqlite3_column_int64(statement, 9))))
        }
        return items
    }

    /// One small write: update one row's column inside its own transaction and commit.
    func smallUpdate(statement: OpaquePointer, id: Int, value: Int) throws {
        try execute("BEGIN IMMEDIATE")
        sqlite3_bind_int64(statement, 1, Int64(value))
        sqlite3_bind_int64(statement, 2, Int64(id))
        guard sqlite3_step(statement) == SQLITE_DONE else {
            throw Failure(description: String(cString: sqlite3_errmsg(handle)))
        }
        sqlite3_reset(statement)
        try execute("COMMIT")
    }
}

/// GRDB's performance-suite row: ten integer columns; `i0` is the identity. The same struct
/// is FetchKit's stored entity, so every side reads into the same value type.
struct BenchItem: StoredEntity, Equatable {
    static let entityName = "items"
    static let idField = Field<BenchItem, Int>("i0")
    var id: Int { i0 }
    var i0: Int
    var i1: Int
    var i2: Int
    var i3: Int
    var i4: Int
    var i5: Int
    var i6: Int
    var i7: Int
    var i8: Int
    var i9: Int

    init(i0: Int, i1: Int, i2: Int, i3: Int, i4: Int, i5: Int, i6: Int, i7: Int, i8: Int, i9: Int) {
        (self.i0, self.i1, self.i2, self.i3, self.i4) = (i0, i1, i2, i3, i4)
        (self.i5, self.i6, self.i7, self.i8, self.i9) = (i5, i6, i7, i8, i9)
    }

    init(id: Int) {
        self.init(
            i0: id, i1: id &+ 1, i2: id &+ 2, i3: id &+ 3, i4: id &+ 4, i5: id &+ 5, i6: id &+ 6, i7: id &+ 7,
            i8: id &+ 8, i9: id &+ 9)
    }
}
/// Finalizes a statement prepared by ``RawSQLite/prepare(_:)``.
func sqlite3_finalize_statement(_ statement: OpaquePointer) {
    sqlite3_finalize(statement)
}
