import Dispatch
import Foundation
import GRDB
import Persistence

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLiteBench
#endif

/// The rows of the size sweep: an integer identity, a title, a score and a group, with indexes
/// on the score and the group (the same table for every side).
struct SweepRow: StoredEntity {
    static let entityName = "sweep"
    var id: Int
    var title: String
    var score: Double
    var grp: Int

    static let score = Field<SweepRow, Double>("score")
    static let grp = Field<SweepRow, Int>("grp")
    static let indexes = [EntityIndex(score), EntityIndex(grp)]

    static func make(_ n: Int, of count: Int) -> SweepRow {
        SweepRow(
            id: n, title: "w\(n % 1_000) w\((n / 1_000) % 100) title \(n)", score: Double(n &* 104_729 % count),
            grp: n % 20)
    }
}

/// GRDB's record of the same table.
struct GRDBSweepRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "sweep"
    var id: Int
    var title: String
    var score: Double
    var grp: Int
}

/// The same rows with a full-text index, for the match row.
struct SweepText: StoredEntity {
    static let entityName = "sweeptext"
    var id: Int
    var title: String
    static let title = Field<SweepText, String>("title")
    static let fullTextIndex: FullTextIndex<SweepText>? = FullTextIndex(title)
}

let sweepCreate =
    "CREATE TABLE IF NOT EXISTS sweep (id INTEGER NOT NULL PRIMARY KEY, title TEXT NOT NULL, score NOT NULL, "
    + "grp INTEGER NOT NULL); CREATE INDEX IF NOT EXISTS fk_index_sweep_score ON sweep (score); "
    + "CREATE INDEX IF NOT EXISTS fk_index_sweep_grp ON sweep (grp)"

/// One line of the sweep table.
struct SweepLine {
    var operation: String
    var size: Int
    var unit: Int  // rows or operations the times are divided by
    var unitName: String
    var ours: Duration
    var raw: Duration?
    var grdb: Duration?
}

/// Runs every operation at every size and prints the sweep table. Each measurement is the
/// median of `rounds` runs, the sides alternating.
func runSweep(sizes: [Int], rounds: Int) throws {
    let scratch = try Scratch()
    var lines: [SweepLine] = []
    for size in sizes {
        FileHandle.standardError.write(Data("sweep: \(size) rows…\n".utf8))
        let rows = (0..<size).map { SweepRow.make($0, of: size) }
        // Insert: a fresh file per round and side.
        var samples: [[Duration]] = [[], [], []]
        for round in 0..<rounds {
            for side in [0, 1, 2].map({ ($0 + round) % 3 }) {
                let name = "insert-\(side)-\(round).sqlite"
                let path = scratch.path(name)
                switch side {
                case 0:
                    let store = try ObjectStore(at: URL(fileURLWithPath: path), entities: [SweepRow.self])
                    samples[0].append(
                        try time { try store.context.persistAndWait { tx in for row in rows { try tx.insert(row) } } })
                    store.close()
                case 1:
                    let db = try RawSQLite(path: path)
                    try db.execute(sweepCreate)
                    samples[1].append(try time { try rawInsert(db, rows) })
                default:
                    if size > 100_000 { continue }  // GRDB at 1,000,000 rows takes minutes; the trend is clear
                    let queue = try openGRDBSweep(path: path)
                    let records = rows.map { GRDBSweepRow(id: $0.id, title: $0.title, score: $0.score, grp: $0.grp) }
                    samples[2].append(
                        try time { try queue.write { db in for record in records { try record.insert(db) } } })
                }
                scratch.removeDatabase(name)
            }
        }
        lines.append(line("insert in one transaction", size, size, "row", samples))

        // The reads share one file written by raw C.
        let path = scratch.path("read-\(size).sqlite")
        do {
            let db = try RawSQLite(path: path)
            try db.execute(sweepCreate)
            try rawInsert(db, rows)
        }
        let store = try ObjectStore(at: URL(fileURLWithPath: path), entities: [SweepRow.self, SweepText.self])
        let raw = try RawSQLite(path: path)
        let grdb = try openGRDBSweep(path: path)
        let lookups = 1_000
        let pages = 100
        samples = [[], [], []]
        for round in 0..<rounds {
            for side in [0, 1, 2].map({ ($0 + round) % 3 }) {
                switch side {
                case 0:
                    samples[0].append(
                        try time { _ = try store.context.readAndWait { try $0.fetch(Query<SweepRow>()) } })
                case 1:
                    let statement = try raw.prepare("SELECT id, title, score, grp FROM sweep")
                    defer { sqlite3_finalize(statement) }
                    samples[1].append(time { _ = rawRows(statement, []) })
                default: samples[2].append(try time { _ = try grdb.read { try GRDBSweepRow.fetchAll($0) } })
                }
            }
        }
        lines.append(line("fetch all", size, size, "row", samples))

        samples = [[], [], []]
        for round in 0..<rounds {
            for side in [0, 1, 2].map({ ($0 + round) % 3 }) {
                let targets = (0..<lookups).map { Double(($0 &* 7_919) % size) }
                switch side {
                case 0:
                    samples[0].append(
                        try time {
                            try store.context.readAndWait { tx in
                                for target in targets {
                                    _ = try tx.fetch(Query<SweepRow>(where: SweepRow.score == target))
                                }
                            }
                        })
                case 1:
                    let statement = try raw.prepare("SELECT id, title, score, grp FROM sweep WHERE score = ?")
                    defer { sqlite3_finalize(statement) }
                    samples[1].append(
                        time {
                            for target in targets { _ = rawRows(statement, [target]) }
                        })
                default:
                    samples[2].append(
                        try time {
                            try grdb.read { db in
                                for target in targets {
                                    _ = try GRDBSweepRow.filter(Column("score") == target).fetchAll(db)
                                }
                            }
                        })
                }
            }
        }
        lines.append(line("point query by an indexed field (x\(lookups))", size, lookups, "query", samples))

        samples = [[], [], []]
        for round in 0..<rounds {
            for side in [0, 1, 2].map({ ($0 + round) % 3 }) {
                switch side {
                case 0:
                    samples[0].append(
                        try time {
                            try store.context.readAndWait { tx in
                                for page in 0..<pages {
                                    _ = try tx.fetch(
                                        Query<SweepRow>(
                                            where: SweepRow.grp == page % 20,
                                            sortedBy: [SweepRow.score.descending()],
                                            limit: 50))
                                }
                            }
                        })
                case 1:
                    let statement = try raw.prepare(
                        "SELECT id, title, score, grp FROM sweep WHERE grp = ? ORDER BY score DESC, rowid LIMIT 50")
                    defer { sqlite3_finalize(statement) }
                    samples[1].append(
                        time {
                            for page in 0..<pages { _ = rawRows(statement, [Double(page % 20)]) }
                        })
                default:
                    samples[2].append(
                        try time {
                            try grdb.read { db in
                                for page in 0..<pages {
                                    _ = try GRDBSweepRow.filter(Column("grp") == page % 20).order(Column("score").desc)
                                        .limit(50)
                                        .fetchAll(db)
                                }
                            }
                        })
                }
            }
        }
        lines.append(line("filtered, sorted page of 50 (x\(pages))", size, pages, "page", samples))

        // Full-text: the same titles in a table with a full-text index.
        try store.context.persistAndWait { tx in
            for row in rows { try tx.insert(SweepText(id: row.id, title: row.title)) }
        }
        samples = [[], [], []]
        for round in 0..<rounds {
            for side in [0, 1].map({ ($0 + round) % 2 }) {
                if side == 0 {
                    samples[0].append(
                        try time {
                            _ = try store.context.readAndWait { tx in
                                try tx.fetch(Query<SweepText>(where: SweepText.title.matches("w42 w7")))
                            }
                        })
                } else {
                    let statement = try raw.prepare(
                        "SELECT id, title, 0, 0 FROM sweeptext WHERE rowid IN "
                            + "(SELECT rowid FROM fk_fts_sweeptext WHERE title MATCH 'w42 w7')")
                    defer { sqlite3_finalize(statement) }
                    samples[1].append(time { _ = rawRows(statement, []) })
                }
            }
        }
        lines.append(line("two-word full-text match", size, 1, "match", samples))

        // Observation: a one-row commit until the observer of the whole sorted table hears it.
        let delivered = DispatchSemaphore(value: 0)
        let token = store.observe(
            .query(Query<SweepRow>(sortedBy: [SweepRow.score.ascending()]))
        ) {
            _ in delivered.signal()
        }
        delivered.wait()
        samples = [[], [], []]
        for round in 0..<(rounds * 5) {
            var row = rows[(round &* 104_729) % size]
            row.score = -Double(round + 1)
            samples[0].append(
                try time {
                    try store.context.persistAndWait { tx in try tx.update(row) }
                    delivered.wait()
                })
        }
        token.cancel()
        // GRDB's ValueObservation of the same sorted query (it re-fetches the query after a commit).
        let grdbDelivered = DispatchSemaphore(value: 0)
        let observation = ValueObservation.tracking { db in try GRDBSweepRow.order(Column("score")).fetchAll(db) }
        let cancellable = observation.start(
            in: grdb, scheduling: .async(onQueue: DispatchQueue(label: "sweep.grdb")),
            onError: { _ in grdbDelivered.signal() }, onChange: { _ in grdbDelivered.signal() })
        grdbDelivered.wait()
        for round in 0..<(size >= 1_000_000 ? rounds : rounds * 5) {
            var row = rows[(round &* 7_919 + 13) % size]
            row.score = -Double(1_000 + round)
            let record = GRDBSweepRow(id: row.id, title: row.title, score: row.score, grp: row.grp)
            samples[2].append(
                try time {
                    try grdb.write { db in try record.update(db) }
                    grdbDelivered.wait()
                })
        }
        cancellable.cancel()
        lines.append(line("observed one-row commit to delivery", size, 1, "commit", samples))
        store.close()
        scratch.removeDatabase("read-\(size).sqlite")
    }
    printSweep(lines)
}

private func line(
    _ operation: String, _ size: Int, _ unit: Int, _ unitName: String, _ samples: [[Duration]]
) -> SweepLine {
    SweepLine(
        operation: operation, size: size, unit: unit, unitName: unitName, ours: median(samples[0]),
        raw: samples[1].isEmpty ? nil : median(samples[1]), grdb: samples[2].isEmpty ? nil : median(samples[2]))
}

private func perUnit(_ duration: Duration, _ unit: Int) -> String {
    let seconds = duration.seconds / Double(unit)
    if seconds >= 1e-3 { return String(format: "%.2f ms", seconds * 1e3) }
    if seconds >= 1e-6 { return String(format: "%.2f µs", seconds * 1e6) }
    return String(format: "%.0f ns", seconds * 1e9)
}

func printSweep(_ lines: [SweepLine]) {
    print("")
    print("| operation | rows | FetchKit | per unit | raw C | per unit | FetchKit / raw C | GRDB | per unit |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for line in lines.sorted(by: { ($0.operation, $0.size) < ($1.operation, $1.size) }) {
        let raw = line.raw.map { ($0.short, perUnit($0, line.unit)) } ?? ("—", "—")
        let ratio = line.raw.map { String(format: "%.2fx", line.ours.seconds / $0.seconds) } ?? "—"
        let grdb = line.grdb.map { ($0.short, perUnit($0, line.unit)) } ?? ("—", "—")
        print(
            "| \(line.operation) | \(line.size) | \(line.ours.short) | \(perUnit(line.ours, line.unit))/\(line.unitName) | "
                + "\(raw.0) | \(raw.1) | \(ratio) | \(grdb.0) | \(grdb.1) |")
    }
}

private func rawInsert(_ db: RawSQLite, _ rows: [SweepRow]) throws {
    try db.execute("BEGIN IMMEDIATE")
    let statement = try db.prepare("INSERT INTO sweep (id, title, score, grp) VALUES (?, ?, ?, ?)")
    defer { sqlite3_finalize(statement) }
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    for row in rows {
        sqlite3_bind_int64(statement, 1, Int64(row.id))
        sqlite3_bind_text(statement, 2, row.title, -1, transient)
        sqlite3_bind_double(statement, 3, row.score)
        sqlite3_bind_int64(statement, 4, Int64(row.grp))
        guard sqlite3_step(statement) == SQLITE_DONE else {
            throw RawSQLite.Failure(description: String(cString: sqlite3_errmsg(db.handle)))
        }
        sqlite3_reset(statement)
    }
    try db.execute("COMMIT")
}

/// Runs a prepared query (reset first) with double arguments and reads every row into `SweepRow`s.
private func rawRows(_ statement: OpaquePointer, _ arguments: [Double]) -> [SweepRow] {
    sqlite3_reset(statement)
    for (index, argument) in arguments.enumerated() { sqlite3_bind_double(statement, Int32(index + 1), argument) }
    var rows: [SweepRow] = []
    while sqlite3_step(statement) == SQLITE_ROW {
        rows.append(
            SweepRow(
                id: Int(sqlite3_column_int64(statement, 0)), title: String(cString: sqlite3_column_text(statement, 1)),
                score: sqlite3_column_double(statement, 2), grp: Int(sqlite3_column_int64(statement, 3))))
    }
    return rows
}

private func openGRDBSweep(path: String) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous=NORMAL; PRAGMA cache_size=-65536") }
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    try queue.writeWithoutTransaction { db in
        _ = try String.fetchOne(db, sql: "PRAGMA journal_mode=WAL")
        try db.execute(sql: sweepCreate)
    }
    return queue
}
