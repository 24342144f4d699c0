import FetchKit
import FetchKitTesting
import Foundation
import Persistence
import Sync

// Issue 50's graph push: 10,000 authors and 100,000 books (10 each) created on an offline device,
// pushed through a `SyncGroup` (authors before their books), against the same requests by hand
// (the authors, then the books, 4 at a time, each POST with an Idempotency-Key).

struct GraphAuthor: StoredEntity {
    var id: String
    var name: String
    var updated: String
}

struct GraphBook: StoredEntity {
    var id: String
    var title: String
    var authorID: String
    var updated: String
    static let author = ToOne<GraphBook, GraphAuthor>(Field("authorID"), onDelete: .cascade)
    static let relations: [any Relation<GraphBook>] = [author]
}

let graphAuthors = 10_000
let graphBooksPerAuthor = 10

/// The server of the graph push: creates answered with the record's id, empty change lists.
func makeGraphServer() throws -> StubServer {
    let server = StubServer()
    for collection in ["authors", "books"] {
        server.route("GET", "/\(collection)") { _ in .json(#"{"items":[],"hasMore":false}"#) }
        server.route("POST", "/\(collection)") { request in
            .json(#"{"id":"\#(SyncBenchServer.createdID(request.body))","updated":"2026-11-26 10:00:00.000Z"}"#)
        }
    }
    try server.start()
    return server
}

/// A collection of the graph server.
func graphCollection<E: StoredEntity>(
    _ name: String, _ type: E.Type, base: URL, body: @escaping @Sendable (E) -> [String: String]
)
    -> RemoteCollection<E>
{
    RemoteCollection<E>(
        name,
        changes: .token(
            request: { _ in SyncBenchEndpoint(baseURL: base, path: "/\(name)") },
            page: Extraction.decode(GraphPage.self).map { _ in
                ChangePage(records: [], hasMore: false, cursor: .token("0"))
            }),
        writes: RecordWrites(
            create: { record in
                SyncBenchEndpoint(baseURL: base, path: "/\(name)", method: .post, body: .json(body(record)))
            }))
}

struct GraphPage: Decodable, Sendable {
    var hasMore: Bool
}

func syncGraphCases(_ scratch: Scratch) throws -> [BenchmarkCase] {
    let server = lazily { try makeGraphServer() }
    let client = FetchClient()
    var round = 0
    return [
        BenchmarkCase(
            name:
                "Sync: 10,000 authors and 100,000 books pushed from an offline device, against the same requests by hand",
            ours: Side(name: "SyncGroup.sync()") {
                let base = try server().baseURL
                round += 1
                scratch.removeDatabase("graph-\(round).sqlite")
                let store = try ObjectStore(
                    at: URL(fileURLWithPath: scratch.path("graph-\(round).sqlite")),
                    entities: [GraphAuthor.self, GraphBook.self] + SyncSchema.entities)
                defer { store.close() }
                let authors = try SyncedCollection(
                    graphCollection("authors", GraphAuthor.self, base: base) { ["id": $0.id, "name": $0.name] },
                    store: store, client: client)
                let books = try SyncedCollection(
                    graphCollection("books", GraphBook.self, base: base) {
                        ["id": $0.id, "title": $0.title, "authorID": $0.authorID]
                    }, store: store, client: client)
                let library = try SyncGroup(authors, books)
                try store.context.persistAndWait { tx in
                    for a in 0..<graphAuthors {
                        try authors.save(GraphAuthor(id: "a\(a)", name: "Author \(a)", updated: ""), in: tx)
                        for b in 0..<graphBooksPerAuthor {
                            try books.save(
                                GraphBook(id: "b\(a)-\(b)", title: "Book \(b) of \(a)", authorID: "a\(a)", updated: ""),
                                in: tx)
                        }
                    }
                }
                let elapsed = try blocking { try await time { _ = try await library.sync() } }
                let left = try store.context.readAndWait { tx in try tx.count(Query<PendingWrite>()) }
                guard left == 0 else { throw RawSQLite.Failure(description: "\(left) writes left") }
                return elapsed
            },
            reference: Side(name: "by hand (the authors, then the books, 4 at a time, keyed)") {
                let base = try server().baseURL
                return try blocking {
                    try await time {
                        func post(
                            _ path: String, _ count: Int, _ body: @escaping @Sendable (Int) -> [String: String]
                        )
                            async throws
                        {
                            try await withThrowingTaskGroup(of: Void.self) { group in
                                for lane in 0..<4 {
                                    group.addTask {
                                        for index in stride(from: lane, to: count, by: 4) {
                                            _ = try await client.fetch(
                                                SyncBenchEndpoint(
                                                    baseURL: base, path: path, method: .post, body: .json(body(index)),
                                                    headers: ["Idempotency-Key": UUID().uuidString],
                                                    cachePolicy: .bypass),
                                                extracting: .data)
                                        }
                                    }
                                }
                                try await group.waitForAll()
                            }
                        }
                        try await post("/authors", graphAuthors) { ["id": "a\($0)", "name": "Author \($0)"] }
                        try await post("/books", graphAuthors * graphBooksPerAuthor) { index in
                            let a = index / graphBooksPerAuthor
                            return ["id": "b\(a)-\(index % graphBooksPerAuthor)", "title": "Book", "authorID": "a\(a)"]
                        }
                        for path in ["/authors", "/books"] {
                            _ = try await client.fetch(SyncBenchEndpoint(baseURL: base, path: path), extracting: .data)
                        }
                    }
                }
            },
            target: 1.2, iterations: 1, warmups: 0)
    ]
}

// Issue 50: a local write reaching an observer of its collection (1,000 rows), through a synced
// collection (the row and its outbox entry in one transaction) against the same write straight
// to the store with the same observer; from the start of the persist to the delivery, 200 writes.

/// An outbox entry as an app would write it by hand beside its row: the floor of any outbox kept
/// in the same transaction as the write (a second row written, the record encoded once).
struct HandOutboxEntry: StoredEntity {
    var id: Int64
    var recordID: String
    var payload: Data
}

/// The same entry with the columns the outbox's index holds, in the outbox's layout: the table in
/// sending order (the entry's id is its rowid) and one index by collection, record, state and next
/// attempt. Its key is a plain column, as the outbox's is.
struct LaidOutEntry: StoredEntity {
    var id: Int64
    var recordID: String
    var payload: Data
    var key: String
    var collection = "notes"
    var state = "pending"
    var nextAttempt: Date? = nil
    static let indexes = [
        EntityIndex(
            Field<Self, String>("collection"), Field<Self, String>("recordID"), Field<Self, String>("state"),
            Field<Self, Date?>("nextAttempt"))
    ]
}

/// A store of 1,000 notes observed whole, and the writes timed to their delivery.
final class ObservedNotes: @unchecked Sendable {
    /// How each write is made.
    enum Writes {
        /// Straight to the store: an upsert.
        case plain
        /// Through a synced collection: `save`.
        case synced
        /// An upsert and a hand-written outbox entry, in one transaction.
        case handOutbox
        /// The same, the entry in the outbox's layout (``LaidOutEntry``).
        case laidOut
    }

    // `delivered` is a semaphore; the rest is used from the benchmark's thread only.
    let store: ObjectStore
    let mirror: SyncedCollection<SyncedNote>?
    let mode: Writes
    private var token: ObservationToken?
    private let delivered = DispatchSemaphore(value: 0)
    private var written = 0

    init(path: String, mode: Writes, base: URL) throws {
        self.mode = mode
        store = try ObjectStore(
            at: URL(fileURLWithPath: path),
            entities: [
                SyncedNote.self, HandOutboxEntry.self, LaidOutEntry.self,
            ]
                + SyncSchema.entities)
        try store.context.persistAndWait { tx in
            for index in 0..<1_000 {
                try tx.upsert(SyncedNote(id: "n\(index)", title: "Note \(index)", body: "b", updated: "u"))
            }
        }
        if case .synced = mode {
            mirror = try SyncedCollection(
                SyncBenchServer.collection(base: base, pageSize: 1_000), store: store, client: FetchClient())
        } else {
            mirror = nil
        }
        token = store.observe(.query(Query<SyncedNote>())) {
            [delivered] _ in
            delivered.signal()
        }
        delivered.wait()
    }

    /// 200 writes of one row each, each timed from the start of its persist to its delivery.
    func writes() throws -> Duration {
        let clock = ContinuousClock()
        var total = Duration.zero
        for _ in 0..<200 {
            written += 1
            let note = SyncedNote(id: "n\(written % 1_000)", title: "Edit \(written)", body: "b", updated: "u")
            let start = clock.now
            switch (mode, mirror) {
            case (.synced, let mirror?):
                try store.context.persistAndWait { tx in try mirror.save(note, as: .update, in: tx) }
            case (.laidOut, _):
                try writeLaidOut(note)
            case (.handOutbox, _):
                let entry = HandOutboxEntry(
                    id: Int64(written), recordID: note.id, payload: try JSONEncoder().encode(note))
                try store.context.persistAndWait { tx in
                    try tx.upsert(note)
                    try tx.insert(entry)
                }
            default:
                try store.context.persistAndWait { tx in try tx.upsert(note) }
            }
            delivered.wait()
            total += clock.now - start
        }
        return total
    }

    /// The note's upsert and its entry in the outbox's layout, in one persist.
    private func writeLaidOut(_ note: SyncedNote) throws {
        // A key that spreads over its index as a random one does, made without a system call.
        let key = String(UInt64(written) &* 0x9E37_79B9_7F4A_7C15, radix: 16)
        let entry = LaidOutEntry(
            id: Int64(written), recordID: note.id, payload: try JSONEncoder().encode(note), key: key)
        try store.context.persistAndWait { tx in
            try tx.upsert(note)
            try tx.insert(entry)
        }
    }
}

func syncObservedWriteCases(_ scratch: Scratch) throws -> [BenchmarkCase] {
    let base = URL(string: "http://127.0.0.1:9")!  // never contacted: nothing syncs here
    scratch.removeDatabase("observed-synced.sqlite")
    scratch.removeDatabase("observed-plain.sqlite")
    scratch.removeDatabase("observed-hand-outbox.sqlite")
    scratch.removeDatabase("observed-outbox-layout.sqlite")
    let synced = lazily { try ObservedNotes(path: scratch.path("observed-synced.sqlite"), mode: .synced, base: base) }
    let plain = lazily { try ObservedNotes(path: scratch.path("observed-plain.sqlite"), mode: .plain, base: base) }
    let hand = lazily {
        try ObservedNotes(path: scratch.path("observed-hand-outbox.sqlite"), mode: .handOutbox, base: base)
    }
    let layout = lazily {
        try ObservedNotes(path: scratch.path("observed-outbox-layout.sqlite"), mode: .laidOut, base: base)
    }
    return [
        BenchmarkCase(
            name:
                "Sync: 200 local writes each reaching an observer of their 1,000-row collection, against the same without sync",
            ours: Side(name: "SyncedCollection.save, persist to delivery") { try synced().writes() },
            reference: Side(name: "ObjectTransaction.upsert, persist to delivery") { try plain().writes() },
            target: 1.3, iterations: 7),
        // The floor under the row above: any outbox kept in the write's own transaction writes a
        // second row; this case says how far the synced save is from that floor, and the floor's
        // own cost is the next case's.
        BenchmarkCase(
            name:
                "Sync: 200 observed local writes through SyncedCollection.save, against a write with a hand-written outbox entry",
            ours: Side(name: "SyncedCollection.save, persist to delivery") { try synced().writes() },
            reference: Side(name: "upsert + an outbox entry by hand, persist to delivery") { try hand().writes() },
            target: 1.1, iterations: 7),
        BenchmarkCase(
            name: "Sync: 200 observed local writes with a hand-written outbox entry, against the same without one",
            ours: Side(name: "upsert + an outbox entry by hand, persist to delivery") { try hand().writes() },
            reference: Side(name: "ObjectTransaction.upsert, persist to delivery") { try plain().writes() },
            // What the outbox's layout costs: the same entry in its two B-trees (Docs/Benchmarks.md).
            others: [
                Side(name: "the entry in the outbox's layout (the table in order, one index)") {
                    try layout().writes()
                }
            ],
            target: 1.1, iterations: 7),
    ]
}
