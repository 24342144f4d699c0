import Dispatch
import Foundation
import Persistence

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLiteBench
#endif

/// One title of the scale cases: the words make a two-word match select about a hundred rows.
struct ScaleTitle: StoredEntity {
    static let entityName = "titles"
    var id: Int
    var title: String
    var score: Double

    static let title = Field<ScaleTitle, String>("title")
    static let indexes = [EntityIndex(title, caseInsensitive: true)]
    static let fullTextIndex: FullTextIndex<ScaleTitle>? = FullTextIndex(title)

    static let words = (0..<1_000).map { "w\($0)" }

    /// Row `n`'s title: three words chosen by two fixed strides.
    static func make(_ n: Int) -> ScaleTitle {
        let a = words[n % 1_000]
        let b = words[(n / 1_000) % 100]
        let c = words[(n * 7) % 997]
        return ScaleTitle(id: n, title: "\(a) \(b) \(c) title \(n)", score: Double(n % 9_973))
    }
}

let scaleRows = 1_000_000

/// A store of `scaleRows` titles, made once per run (about ten seconds).
final class ScaleStore: @unchecked Sendable {
    // Used from the benchmark's thread only, except `delivered`, a semaphore.
    let store: ObjectStore
    let path: String
    var token: ObservationToken?
    let delivered = DispatchSemaphore(value: 0)
    var next = 0

    init(_ scratch: Scratch) throws {
        path = scratch.path("scale.sqlite")
        scratch.removeDatabase("scale.sqlite")
        store = try ObjectStore(at: URL(fileURLWithPath: path), entities: [ScaleTitle.self])
        try store.context.persistAndWait { tx in
            for n in 0..<scaleRows { try tx.insert(ScaleTitle.make(n)) }
        }
    }

    /// Starts observing the whole table sorted by title (case-insensitive) and waits for the
    /// first delivery.
    func observe() {
        let delivered = delivered
        token = store.observe(
            Query<ScaleTitle>(sortedBy: [ScaleTitle.title.ascending(caseInsensitive: true)]),
            on: DispatchQueue(label: "bench.observe")
        ) { _ in delivered.signal() }
        delivered.wait()
    }
}

/// FetchKit's side of the observed-commit case: one committed update of one row, timed until
/// the observer's delivery arrives.
func oursObservedCommitSide(_ scale: @escaping () throws -> ScaleStore) -> Side {
    Side(name: "FetchKit observation") {
        let scale = try scale()
        if scale.token == nil { scale.observe() }
        scale.next += 1
        let n = (scale.next * 104_729) % scaleRows
        var changed = ScaleTitle.make(n)
        changed.title = "moved \(scale.next) " + changed.title
        let duration = try time {
            try scale.store.context.persistAndWait { tx in try tx.update(changed) }
            scale.delivered.wait()
        }
        return duration
    }
}

/// The work each commit cost before incremental observation: fetching the whole sorted query.
func fullRefetchSide(_ scale: @escaping () throws -> ScaleStore) -> Side {
    Side(name: "re-fetch of the whole sorted query") {
        let scale = try scale()
        var count = 0
        let duration = try time {
            count = try scale.store.context.readAndWait { tx in
                try tx.fetch(ScaleTitle.self, sortedBy: [ScaleTitle.title.ascending(caseInsensitive: true)]).count
            }
        }
        guard count == scaleRows else { throw RawSQLite.Failure(description: "re-fetch read \(count) rows") }
        return duration
    }
}

/// FetchKit's side of the full-text case: a two-word match over the million titles.
func oursFullTextSide(_ scale: @escaping () throws -> ScaleStore) -> Side {
    Side(name: "FetchKit full-text match") {
        let scale = try scale()
        var count = 0
        let duration = try time {
            count = try scale.store.context.readAndWait { tx in
                try tx.fetch(ScaleTitle.self, where: ScaleTitle.title.matches("w42 w17")).count
            }
        }
        guard count > 0 else { throw RawSQLite.Failure(description: "the full-text match found nothing") }
        return duration
    }
}

/// Raw C's side of the full-text case: the same FTS5 query, rows read into structs.
func rawFullTextSide(_ scale: @escaping () throws -> ScaleStore) -> Side {
    Side(name: "raw C") {
        let db = try RawSQLite(path: try scale().path)
        let statement = try db.prepare(
            "SELECT id, title, score FROM titles WHERE rowid IN (SELECT rowid FROM fk_fts_titles WHERE title MATCH ?)")
        defer { sqlite3_finalize(statement) }
        var rows: [ScaleTitle] = []
        let duration = time {
            sqlite3_bind_text(statement, 1, "w42 w17", -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            while sqlite3_step(statement) == SQLITE_ROW {
                rows.append(
                    ScaleTitle(
                        id: Int(sqlite3_column_int64(statement, 0)),
                        title: String(cString: sqlite3_column_text(statement, 1)),
                        score: sqlite3_column_double(statement, 2)))
            }
        }
        guard !rows.isEmpty else { throw RawSQLite.Failure(description: "raw full-text match found nothing") }
        return duration
    }
}
