import Decoding
import FetchKit
import FetchKitTesting
import Foundation
import Persistence
import Sync

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Issue 39's rows: a SyncedCollection against the same requests, decoding and upserts written by hand
// with FetchKit and Persistence, on one loopback server whose pages are encoded in advance (so
// the server's own work is small and the same for both sides).

/// A synced record.
struct SyncedNote: StoredEntity {
    var id: String
    var title: String
    var body: String
    var updated: String
}

/// A page of the benchmark server's listing.
struct SyncedPage: Decodable, Sendable {
    var items: [SyncedNote]
    var hasMore: Bool
}

/// A request to the sync benchmark server.
struct SyncBenchEndpoint: Endpoint {
    var baseURL: URL
    var path: String
    var method: HTTPMethod = .get
    var queryItems: [URLQueryItem] = []
    var body: RequestBody?
    var headers: [String: String] = [:]
    var cachePolicy: CachePolicy = .useProtocol
}

/// The server: `count` records sorted by (`updated`, `id`), listed in keyset pages of `pageSize`
/// from bodies encoded once; writes are answered with a small record.
final class SyncBenchServer: Sendable {
    let server = StubServer()
    let count: Int
    let pageSize: Int
    private let keys: [String]  // "updated id", sorted
    private let bodies: [Int: Data]  // the page bodies of a walk from the start, encoded once
    private let records: [SyncedNote]

    init(count: Int, pageSize: Int) throws {
        self.count = count
        self.pageSize = pageSize
        records = (0..<count).map { index in
            SyncedNote(
                id: String(format: "rec%07d", index), title: "Record \(index)",
                body: "A body of a few words for record \(index).",
                updated: String(
                    format: "2026-11-25 10:%02d:%02d.%03dZ", (index / 60_000) % 60, (index / 1000) % 60, index % 1000))
        }
        keys = records.map { $0.updated + " " + $0.id }
        var bodies: [Int: Data] = [:]
        for start in stride(from: 0, to: count, by: pageSize) {
            bodies[start] = Self.encode(records, from: start, pageSize: pageSize)
        }
        self.bodies = bodies
        let listing = self
        server.route("GET", "/records") { request in listing.page(request) }
        server.route("GET", "/empty") { _ in .json(#"{"items":[],"hasMore":false}"#) }
        server.route("POST", "/records") { request in
            // The created record, as a server answers: its id read from the body (the same small
            // work for both sides).
            .json(
                #"{"id":"\#(Self.createdID(request.body))","title":"t","body":"b","updated":"2026-11-25 11:00:00.000Z"}"#
            )
        }
        try server.start()
    }

    /// The `id` of a JSON body `{"id":"…",…}`, found by its bytes.
    static func createdID(_ body: Data) -> String {
        let bytes = [UInt8](body)
        let marker = Array(#""id":""#.utf8)
        guard bytes.count >= marker.count,
            let start = (0...(bytes.count - marker.count)).first(where: {
                bytes[$0..<($0 + marker.count)].elementsEqual(marker)
            })
        else { return "" }
        let from = start + marker.count
        let end = bytes[from...].firstIndex(of: UInt8(ascii: "\"")) ?? bytes.count
        return String(decoding: bytes[from..<end], as: UTF8.self)
    }

    private func page(_ request: RecordedRequest) -> StubResponse {
        let query = Dictionary(request.queryItems.map { ($0.name, $0.value ?? "") }) { first, _ in first }
        var start = 0
        if let after = query["after"], let afterID = query["afterID"] {
            let key = after + " " + afterID
            var low = 0, high = keys.count
            while low < high {
                let mid = (low + high) / 2
                if keys[mid] <= key { low = mid + 1 } else { high = mid }
            }
            start = low
        }
        let body = bodies[start] ?? Self.encode(records, from: start, pageSize: pageSize)
        return .data(body, contentType: "application/json")
    }

    private static func encode(_ records: [SyncedNote], from start: Int, pageSize: Int) -> Data {
        struct Body: Encodable {
            var items: [SyncedNote]
            var hasMore: Bool
        }
        let slice = Array(records[min(start, records.count)..<min(start + pageSize, records.count)])
        return (try? JSONEncoder().encode(Body(items: slice, hasMore: start + pageSize < records.count))) ?? Data()
    }

    func collection(list path: String = "/records") -> RemoteCollection<SyncedNote> {
        Self.collection(base: server.baseURL, pageSize: pageSize, list: path)
    }

    /// The collection of a benchmark server at `base`.
    static func collection(base: URL, pageSize: Int, list path: String = "/records") -> RemoteCollection<SyncedNote> {
        let size = pageSize
        return RemoteCollection<SyncedNote>(
            "records",
            changes: .keyset(
                overlap: .none, version: { RecordVersion($0.updated) },
                request: { cursor in
                    var endpoint = SyncBenchEndpoint(
                        baseURL: base, path: path, queryItems: [URLQueryItem(name: "limit", value: String(size))])
                    if case .keyset(let version, let id) = cursor {
                        endpoint.queryItems += [
                            URLQueryItem(name: "after", value: version.description),
                            URLQueryItem(name: "afterID", value: id),
                        ]
                    }
                    return endpoint
                },
                // The extraction the hand side fetches with: `.decode` (PathDecoder).
                page: Extraction.decode(SyncedPage.self).map { page in
                    ChangePage(records: page.items, hasMore: page.hasMore)
                }),
            writes: RecordWrites(
                create: { note in
                    SyncBenchEndpoint(
                        baseURL: base, path: "/records", method: .post,
                        body: .json(["id": note.id, "title": note.title, "body": note.body]))
                },
                update: { note, _ in SyncBenchEndpoint(baseURL: base, path: "/records/\(note.id)", method: .patch) },
                delete: { record in SyncBenchEndpoint(baseURL: base, path: "/records/\(record.id)", method: .delete) }))
    }
}

/// The sync rows.
func syncCases(_ scratch: Scratch) throws -> [BenchmarkCase] {
    let pull = lazily { try SyncBenchServer(count: 100_000, pageSize: 1_000) }
    let client = FetchClient()
    var round = 0
    func freshStore(_ name: String) throws -> ObjectStore {
        round += 1
        scratch.removeDatabase("\(name)-\(round).sqlite")
        return try ObjectStore(
            at: URL(fileURLWithPath: scratch.path("\(name)-\(round).sqlite")),
            entities: [SyncedNote.self] + SyncSchema.entities)
    }
    let initialPull = BenchmarkCase(
        name: "Sync: initial pull of 100,000 records in pages of 1,000, against fetch + decode + upsert by hand",
        ours: Side(name: "SyncedCollection.sync()") {
            let server = try pull()
            let store = try freshStore("mirror")
            defer { store.close() }
            let mirror = try SyncedCollection(server.collection(), store: store, client: client)
            let elapsed = try blocking { try await time { _ = try await mirror.sync() } }
            let count = try store.context.readAndWait { tx in try tx.count(Query<SyncedNote>()) }
            guard count == server.count else { throw RawSQLite.Failure(description: "mirrored \(count) records") }
            return elapsed
        },
        reference: Side(name: "by hand") {
            let server = try pull()
            let store = try freshStore("hand")
            defer { store.close() }
            let base = server.server.baseURL
            let elapsed = try blocking {
                try await time {
                    var after: SyncedNote?
                    while true {
                        var endpoint = SyncBenchEndpoint(
                            baseURL: base, path: "/records", queryItems: [URLQueryItem(name: "limit", value: "1000")])
                        if let after {
                            endpoint.queryItems += [
                                URLQueryItem(name: "after", value: after.updated),
                                URLQueryItem(name: "afterID", value: after.id),
                            ]
                        }
                        let page = try await client.fetch(endpoint, extracting: .decode(SyncedPage.self))
                        try await store.context.persist { tx in
                            for record in page.items { try tx.upsert(record) }
                        }
                        after = page.items.last
                        if !page.hasMore { break }
                    }
                }
            }
            let count = try store.context.readAndWait { tx in try tx.count(Query<SyncedNote>()) }
            guard count == server.count else { throw RawSQLite.Failure(description: "stored \(count) records") }
            return elapsed
        },
        target: 1.05, iterations: 5)

    let drainCount = 10_000
    let drain = BenchmarkCase(
        name: "Sync: draining an outbox of 10,000 creates (4 at a time), against the same requests by hand",
        ours: Side(name: "SyncedCollection.sync()") {
            let server = try pull()
            let store = try freshStore("outbox")
            defer { store.close() }
            let mirror = try SyncedCollection(
                server.collection(list: "/empty"), store: store, client: client, concurrency: 4)
            try store.context.persistAndWait { tx in
                for index in 0..<drainCount {
                    try mirror.save(
                        SyncedNote(id: "w\(index)", title: "Write \(index)", body: "b", updated: ""), in: tx)
                }
            }
            let elapsed = try blocking { try await time { _ = try await mirror.sync() } }
            let left = try store.context.readAndWait { tx in try tx.count(mirror.pendingWrites) }
            guard left == 0 else { throw RawSQLite.Failure(description: "\(left) writes left") }
            return elapsed
        },
        // The same requests: each POST with its own Idempotency-Key and the cache bypassed, as
        // the mirror sends them. Also measured: the POSTs without the key.
        reference: Side(name: "by hand (the same POSTs, each with an Idempotency-Key)") {
            try postLanes(to: try pull().server.baseURL, keyed: true)
        },
        others: [
            Side(name: "by hand, the POSTs without a key") { try postLanes(to: try pull().server.baseURL) }
        ],
        target: 1.2, iterations: 5)
    // The longest a read waits while a first sync writes: reads of one row, one after another
    // on a thread of their own, during the whole pull (reported, not a target).
    func longestRead(during pulling: Bool, on context: @escaping (ObjectStore) -> ObjectContext) throws -> Duration {
        let server = try pull()
        let store = try freshStore("stall")
        defer { store.close() }
        try store.context.persistAndWait { tx in
            try tx.upsert(SyncedNote(id: "seed", title: "seed", body: "", updated: "0"))
        }
        let reader = context(store)
        let done = Locked(false)
        let longest = Locked(Duration.zero)
        let reads = Locked(0)
        let thread = Thread {
            let clock = ContinuousClock()
            while !done.withLock({ $0 }) {
                let start = clock.now
                _ = try? reader.readAndWait { tx in try tx.fetch(SyncedNote.self, id: "seed") }
                let took = clock.now - start
                longest.withLock { $0 = max($0, took) }
                reads.withLock { $0 += 1 }
                Thread.sleep(forTimeInterval: 0.001)
            }
        }
        thread.start()
        if pulling {
            let mirror = try SyncedCollection(server.collection(), store: store, client: client)
            _ = try blocking { try await mirror.sync() }
        } else {
            // As long as a pull takes, without one.
            Thread.sleep(forTimeInterval: 2)
        }
        done.withLock { $0 = true }
        while reads.withLock({ $0 }) == 0 { Thread.sleep(forTimeInterval: 0.001) }
        return longest.withLock { $0 }
    }
    let readStall = BenchmarkCase(
        name: "Sync: the longest read of one row during an initial pull of 100,000 records (reported)",
        ours: Side(name: "on another context (ObjectStore.makeContext())") {
            try longestRead(during: true) { $0.makeContext() }
        },
        reference: Side(name: "the same reads with no pull running") {
            try longestRead(during: false) { $0.makeContext() }
        },
        others: [
            Side(name: "on the store's main context, which the pull writes on") {
                try longestRead(during: true) { $0.context }
            }
        ],
        target: nil, iterations: 3)
    return [initialPull, drain, readStall]

    /// The drain's hand side: the same 10,000 POSTs from 4 task lanes, with the mirror's
    /// `Idempotency-Key` header and cache bypass when `keyed`.
    func postLanes(to base: URL, keyed: Bool = false) throws -> Duration {
        try blocking {
            try await time {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for lane in 0..<4 {
                        group.addTask {
                            for index in stride(from: lane, to: drainCount, by: 4) {
                                _ = try await client.fetch(
                                    SyncBenchEndpoint(
                                        baseURL: base, path: "/records", method: .post,
                                        body: .json(["id": "w\(index)", "title": "Write \(index)", "body": "b"]),
                                        headers: keyed ? ["Idempotency-Key": UUID().uuidString] : [:],
                                        cachePolicy: keyed ? .bypass : .useProtocol),
                                    extracting: .data)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
        }
    }
}

/// Times an async body with the continuous clock.
func time(_ body: () async throws -> Void) async rethrows -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    try await body()
    return clock.now - start
}

/// A value behind a lock.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A server of 1,000,000 records listed in keyset pages, whose records can be changed: each
/// change stamps records after every earlier stamp, so an incremental pull finds exactly them.
final class GrowingSyncServer: Sendable {
    let server = StubServer()
    let count: Int
    private let base: [SyncedNote]
    private let changes = Locked<[SyncedNote]>([])
    private let generation = Locked(0)

    init(count: Int) throws {
        self.count = count
        base = (0..<count).map { index in
            SyncedNote(
                id: String(format: "rec%07d", index), title: "Record \(index)",
                body: "A body of a few words for record \(index).",
                updated: String(
                    format: "2026-11-25 10:%02d:%02d.%03dZ", (index / 60_000) % 60, (index / 1000) % 60, index % 1000))
        }
        let listing = self
        server.route("GET", "/records") { request in listing.page(request) }
        try server.start()
    }

    /// Changes `number` records (the next ones after the last change), stamped after every
    /// earlier stamp.
    func change(_ number: Int) {
        let round = generation.withLock { value in
            value += 1
            return value
        }
        let changed = (0..<number).map { offset in
            let index = (round * number + offset) % count
            return SyncedNote(
                id: base[index].id, title: "Record \(index), change \(round)", body: base[index].body,
                updated: String(format: "2026-11-25 12:%02d:%02d.%03dZ", (round / 60) % 60, round % 60, offset))
        }
        changes.withLock { $0 += changed }
    }

    private func page(_ request: RecordedRequest) -> StubResponse {
        let query = Dictionary(request.queryItems.map { ($0.name, $0.value ?? "") }) { first, _ in first }
        let limit = Int(query["limit"] ?? "") ?? 1000
        let after = query["after"].map { ($0, query["afterID"] ?? "") }
        func isAfter(_ note: SyncedNote) -> Bool {
            guard let after else { return true }
            return (note.updated, note.id) > after
        }
        var items: [SyncedNote] = []
        var more = false
        if after.map({ $0.0 < "2026-11-25 11" }) ?? true {
            // The base listing, in order: a binary search for the first record after the cursor.
            var low = 0
            var high = base.count
            while low < high {
                let mid = (low + high) / 2
                if isAfter(base[mid]) { high = mid } else { low = mid + 1 }
            }
            items = Array(base[low..<min(low + limit, base.count)])
            more = low + limit < base.count || !changes.withLock({ $0.isEmpty })
        }
        if items.count < limit {
            let later = changes.withLock { $0 }.filter(isAfter).sorted { ($0.updated, $0.id) < ($1.updated, $1.id) }
            let room = limit - items.count
            items += later.prefix(room)
            more = later.count > room
        }
        struct Body: Encodable {
            var items: [SyncedNote]
            var hasMore: Bool
        }
        let body = (try? JSONEncoder().encode(Body(items: items, hasMore: more))) ?? Data()
        return .data(body, contentType: "application/json")
    }
}

/// The rows of a large mirror: an incremental pull of 100 changed records and a sync with
/// nothing changed, on a store of 1,000,000 records.
func largeMirrorCases(_ scratch: Scratch) throws -> [BenchmarkCase] {
    let count = 1_000_000
    let client = FetchClient()
    struct Prepared {
        let server: GrowingSyncServer
        let mirror: SyncedCollection<SyncedNote>
        let mirrorStore: ObjectStore
        let handStore: ObjectStore
    }
    let prepared = lazily { () throws -> Prepared in
        let server = try GrowingSyncServer(count: count)
        scratch.removeDatabase("large-mirror.sqlite")
        scratch.removeDatabase("large-hand.sqlite")
        let mirrorStore = try ObjectStore(
            at: URL(fileURLWithPath: scratch.path("large-mirror.sqlite")),
            entities: [SyncedNote.self] + SyncSchema.entities)
        let handStore = try ObjectStore(
            at: URL(fileURLWithPath: scratch.path("large-hand.sqlite")), entities: [SyncedNote.self])
        let mirror = try SyncedCollection(
            SyncBenchServer.collection(base: server.server.baseURL, pageSize: 1000), store: mirrorStore, client: client)
        // The mirror's first pull fills its store (and its cursor); the hand side's store gets the
        // same rows by a plain insert.
        _ = try blocking { try await mirror.sync() }
        let mirrored = try mirrorStore.context.readAndWait { tx in try tx.count(Query<SyncedNote>()) }
        guard mirrored == count else { throw RawSQLite.Failure(description: "mirrored \(mirrored) records") }
        try handStore.context.persistAndWait { tx in
            try mirrorStore.context.readAndWait { source in
                try tx.insert(contentsOf: try source.fetch(Query<SyncedNote>()))
            }
        }
        return Prepared(server: server, mirror: mirror, mirrorStore: mirrorStore, handStore: handStore)
    }
    /// The hand side's cursor: the last record it applied.
    let handCursor = Locked<(String, String)?>(nil)
    func handPull(_ prepared: Prepared) throws -> Int {
        try blocking {
            var applied = 0
            while true {
                var endpoint = SyncBenchEndpoint(
                    baseURL: prepared.server.server.baseURL, path: "/records",
                    queryItems: [URLQueryItem(name: "limit", value: "1000")])
                let after = handCursor.withLock { $0 } ?? ("2026-11-25 10:16:39.999Z", "rec0999999")
                endpoint.queryItems += [
                    URLQueryItem(name: "after", value: after.0), URLQueryItem(name: "afterID", value: after.1),
                ]
                let page = try await client.fetch(endpoint, extracting: .decode(SyncedPage.self))
                try await prepared.handStore.context.persist { tx in
                    for record in page.items { try tx.upsert(record) }
                }
                applied += page.items.count
                if let last = page.items.last { handCursor.withLock { $0 = (last.updated, last.id) } }
                if !page.hasMore { return applied }
            }
        }
    }
    let incremental = BenchmarkCase(
        name: "Sync: incremental pull of 100 changed records into a 1,000,000-record mirror, against the same by hand",
        ours: Side(name: "SyncedCollection.sync()") {
            let prepared = try prepared()
            prepared.server.change(100)
            let clock = ContinuousClock()
            let start = clock.now
            let report = try blocking { try await prepared.mirror.sync() }
            let elapsed = clock.now - start
            guard report.recordsApplied == 100 else {
                throw RawSQLite.Failure(description: "applied \(report.recordsApplied) records")
            }
            // The hand side pulls the same change next.
            _ = try handPull(prepared)
            return elapsed
        },
        reference: Side(name: "by hand") {
            let prepared = try prepared()
            prepared.server.change(100)
            let clock = ContinuousClock()
            let start = clock.now
            let applied = try handPull(prepared)
            let elapsed = clock.now - start
            guard applied == 100 else { throw RawSQLite.Failure(description: "applied \(applied) records") }
            _ = try blocking { try await prepared.mirror.sync() }
            return elapsed
        },
        target: 1.2, idealTime: nil, iterations: 31)
    let idle = BenchmarkCase(
        name: "Sync: a sync with nothing changed on a 1,000,000-record mirror, against one request for an empty page",
        ours: Side(name: "SyncedCollection.sync()") {
            let prepared = try prepared()
            let clock = ContinuousClock()
            let start = clock.now
            let report = try blocking { try await prepared.mirror.sync() }
            let elapsed = clock.now - start
            guard report.recordsApplied == 0 else {
                throw RawSQLite.Failure(description: "applied \(report.recordsApplied) records")
            }
            return elapsed
        },
        reference: Side(name: "one request") {
            let prepared = try prepared()
            let clock = ContinuousClock()
            let start = clock.now
            let applied = try handPull(prepared)
            let elapsed = clock.now - start
            guard applied == 0 else { throw RawSQLite.Failure(description: "applied \(applied) records") }
            return elapsed
        },
        target: 1.2, iterations: 15)
    return [incremental, idle]
}

/// Issue 39's memory row: the peak of an initial pull of 100,000 records, the loopback server in
/// a process of its own (``SyncServerProcess``), against the same pages listed and decoded with
/// nothing stored; and issue 63's: the initial pull of 1,000,000 records, pages of 1,000
/// (goal: a peak of at most 64 MiB).
let syncMemoryCases: [MemoryCase] = [
    MemoryCase(name: "Sync: the 100,000 records' pages listed and decoded, nothing stored (reference)") { _ in
        let server = try SyncServerProcess(count: 100_000)
        defer { server.stop() }
        let base = server.baseURL
        // Every page listed once, as a pull asks for them, with nothing stored.
        let client = FetchClient()
        try blocking {
            var after: (String, String)?
            while true {
                var endpoint = SyncBenchEndpoint(
                    baseURL: base, path: "/records", queryItems: [URLQueryItem(name: "limit", value: "1000")])
                if let after {
                    endpoint.queryItems += [
                        URLQueryItem(name: "after", value: after.0), URLQueryItem(name: "afterID", value: after.1),
                    ]
                }
                let page = try await client.fetch(endpoint, extracting: .data)
                let decoded = try PathDecoder().decode(SyncedPage.self, from: page)
                guard let last = decoded.items.last, decoded.hasMore else { break }
                after = (last.updated, last.id)
            }
        }
    },
    MemoryCase(name: "Sync: initial pull of 100,000 records into a mirror (the server in another process)") { _ in
        try initialPullMemory(records: 100_000)
    },
    MemoryCase(
        name: "Sync: initial pull of 1,000,000 records, pages of 1,000, the store's default page cache (goal ≤ 64 MiB)"
    ) {
        _ in
        try initialPullMemory(records: 1_000_000)
    },
]

/// An initial pull of `records` records, pages of 1,000, into a mirror in a store file of its own
/// (the store's default configuration); the server in another process.
func initialPullMemory(records: Int) throws {
    let server = try SyncServerProcess(count: records)
    defer { server.stop() }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "sync-memory-\(UUID().uuidString).sqlite")
    defer {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path.path + suffix) }
    }
    let store = try ObjectStore(at: path, entities: [SyncedNote.self] + SyncSchema.entities)
    defer { store.close() }
    let mirror = try SyncedCollection(
        SyncBenchServer.collection(base: server.baseURL, pageSize: 1000), store: store, client: FetchClient())
    let report = try blocking { try await mirror.sync() }
    guard report.recordsApplied == records else {
        throw RawSQLite.Failure(description: "mirrored \(report.recordsApplied) records")
    }
}

/// Serves `count` records as ``GrowingSyncServer`` does, in this process: prints the server's
/// URL on a line, then serves until standard input closes.
func serveSyncRecords(count: Int) throws {
    let server = try GrowingSyncServer(count: count)
    FileHandle.standardOutput.write(Data((server.server.baseURL.absoluteString + "\n").utf8))
    _ = FileHandle.standardInput.readDataToEndOfFile()
    server.server.stop()
}

/// A ``GrowingSyncServer`` in a child process (this program with `--sync-server`), so that a
/// memory case measures the client alone.
final class SyncServerProcess {
    let baseURL: URL
    private let process = Process()
    private let input = Pipe()

    init(count: Int) throws {
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--sync-server", String(count)]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        // The URL's line: read byte by byte, so nothing after it is waited for.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
            line.append(first)
        }
        guard let url = URL(string: String(decoding: line, as: UTF8.self)), url.host != nil else {
            process.terminate()
            throw RawSQLite.Failure(description: "the sync server process printed no URL")
        }
        baseURL = url
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
