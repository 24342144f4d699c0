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
            .query(Query<ScaleTitle>(sortedBy: [ScaleTitle.title.ascending(caseInsensitive: true)]))
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
                try tx.fetch(Query<ScaleTitle>(sortedBy: [ScaleTitle.title.ascending(caseInsensitive: true)])).count
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
                try tx.fetch(Query<ScaleTitle>(where: ScaleTitle.title.matches("w42 w17"))).count
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

/// FetchKit's side of the reads-beside-writes case: while another context holds a write
/// transaction open for two seconds (inserting rows), a read on a second context fetches one row
/// by identity; the read is timed.
func oursReadBesideWriteSide(_ scale: @escaping () throws -> ScaleStore) -> Side {
    Side(name: "FetchKit read during a 2 s write") {
        let scale = try scale()
        // No observer: each write adds more rows than an observer follows one by one, and its full
        // refresh of a million rows would compete for the two cores with the read being timed.
        scale.token?.cancel()
        scale.token = nil
        let writer = scale.store.makeContext(label: "bench.writer")
        let reader = scale.store.makeContext(label: "bench.reader")
        _ = try reader.readAndWait { tx in try tx.fetch(ScaleTitle.self, id: 1) }  // open its connection
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let base = scaleRows + 10_000_000 + scale.next * 1_000_000
        scale.next += 1
        writer.persist(
            { tx in
                started.signal()
                let end = Date(timeIntervalSinceNow: 2)
                var n = 0
                while Date() < end {
                    try tx.insert(ScaleTitle(id: base + n, title: "written while reading \(n)", score: 0))
                    n += 1
                }
            }, completion: { _ in finished.signal() })
        started.wait()
        var found: ScaleTitle?
        let duration = try time { found = try reader.readAndWait { tx in try tx.fetch(ScaleTitle.self, id: 42) } }
        finished.wait()
        guard found != nil else { throw RawSQLite.Failure(description: "the read beside the write found nothing") }
        return duration
    }
}

/// The same read with no write running, for comparison.
func oursReadAloneSide(_ scale: @escaping () throws -> ScaleStore) -> Side {
    Side(name: "the same read with no write") {
        let scale = try scale()
        let reader = scale.store.makeContext(label: "bench.reader.alone")
        _ = try reader.readAndWait { tx in try tx.fetch(ScaleTitle.self, id: 1) }
        var found: ScaleTitle?
        let duration = try time { found = try reader.readAndWait { tx in try tx.fetch(ScaleTitle.self, id: 42) } }
        guard found != nil else { throw RawSQLite.Failure(description: "the read found nothing") }
        return duration
    }
}

/// An observed 100,000-row table under a stream of commits: 200 one-row commits, one every
/// 5 ms, then the time until the observer delivers the results of the last one.
final class CommitStream: @unchecked Sendable {
    // `expected` and `reached` are guarded by `lock`; the rest is used from the benchmark's thread.
    let store: ObjectStore
    private let lock = NSLock()
    private var expected = 0.0
    private let reached = DispatchSemaphore(value: 0)
    private var token: ObservationToken?
    private var counter = 0
    static let rows = 100_000

    init(_ scratch: Scratch) throws {
        scratch.removeDatabase("stream.sqlite")
        store = try ObjectStore(at: URL(fileURLWithPath: scratch.path("stream.sqlite")), entities: [ScaleTitle.self])
        try store.context.persistAndWait { tx in for n in 0..<Self.rows { try tx.insert(ScaleTitle.make(n)) } }
        let started = DispatchSemaphore(value: 0)
        token = store.observe(
            .query(Query<ScaleTitle>(sortedBy: [Field<ScaleTitle, Double>("score").ascending()]))
        ) { [self] change in
            if change.isInitial { started.signal() }
            let first = change.results.first?.score
            let done = lock.withLock { first == expected }
            if done { reached.signal() }
        }
        started.wait()
    }

    /// Runs one stream of 200 commits and returns the time until the last one was delivered (or,
    /// with `waiting` false, until the last commit returned).
    func run(waiting: Bool = true) throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        var last = 0.0
        for index in 0..<200 {
            counter += 1
            last = -Double(counter)
            let row = ScaleTitle(id: (counter &* 7_919) % Self.rows, title: "streamed \(counter)", score: last)
            if index == 199 { lock.withLock { expected = waiting ? last : .nan } }
            try store.context.persistAndWait { tx in try tx.update(row) }
            let due = start + .milliseconds(5 * (index + 1))
            let now = clock.now
            if now < due { Thread.sleep(forTimeInterval: (due - now).seconds) }
        }
        if waiting { reached.wait() }
        return clock.now - start
    }
}

func oursCommitStreamSide(_ stream: @escaping () throws -> CommitStream) -> Side {
    Side(name: "FetchKit observation") { try stream().run() }
}

/// The same stream timed to its last commit only: the pace the observer has to keep.
func commitPaceSide(_ stream: @escaping () throws -> CommitStream) -> Side {
    Side(name: "the commits alone") { try stream().run(waiting: false) }
}
