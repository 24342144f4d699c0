import Decoding
import FetchKit
import FetchKitTesting
import Foundation
import Persistence
import Sync

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Issue 39's rows: a Mirror against the same requests, decoding and upserts written by hand
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
                updated: String(format: "2026-11-25 10:%02d:%02d.%03dZ", (index / 60_000) % 60, (index / 1000) % 60, index % 1000))
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
            .json(#"{"id":"x","title":"t","body":"b","updated":"2026-11-25 11:00:00.000Z"}"#)
        }
        try server.start()
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
        let base = server.baseURL
        let size = pageSize
        return RemoteCollection<SyncedNote>(
            name: "records", cursor: .keyset(overlap: .none), version: { RecordVersion($0.updated) },
            changes: { cursor in
                var endpoint = SyncBenchEndpoint(
                    baseURL: base, path: path, queryItems: [URLQueryItem(name: "limit", value: String(size))])
                if case .keyset(let version, let id) = cursor {
                    endpoint.queryItems += [
                        URLQueryItem(name: "after", value: version.description), URLQueryItem(name: "afterID", value: id),
                    ]
                }
                return endpoint
            },
            page: { data, _ in
                // The decoder the hand side's `.decode` uses: PathDecoder.
                let page = try PathDecoder().decode(SyncedPage.self, from: data)
                return ChangePage(records: page.items, hasMore: page.hasMore)
            },
            create: { note in
                SyncBenchEndpoint(
                    baseURL: base, path: "/records", method: .post,
                    body: .json(["id": note.id, "title": note.title, "body": note.body]))
            },
            update: { note, _ in SyncBenchEndpoint(baseURL: base, path: "/records/\(note.id)", method: .patch) },
            delete: { id in SyncBenchEndpoint(baseURL: base, path: "/records/\(id)", method: .delete) })
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
        ours: Side(name: "Mirror.sync()") {
            let server = try pull()
            let store = try freshStore("mirror")
            defer { store.close() }
            let mirror = Mirror(server.collection(), store: store, client: client)
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
        target: 1.2, iterations: 5)

    let drainCount = 10_000
    let drain = BenchmarkCase(
        name: "Sync: draining an outbox of 10,000 creates (4 at a time), against the same requests by hand",
        ours: Side(name: "Mirror.sync()") {
            let server = try pull()
            let store = try freshStore("outbox")
            defer { store.close() }
            let mirror = Mirror(server.collection(list: "/empty"), store: store, client: client, concurrency: 4)
            try store.context.persistAndWait { tx in
                for index in 0..<drainCount {
                    try mirror.save(SyncedNote(id: "w\(index)", title: "Write \(index)", body: "b", updated: ""), in: tx)
                }
            }
            let elapsed = try blocking { try await time { _ = try await mirror.sync() } }
            let left = try store.context.readAndWait { tx in try tx.count(mirror.pendingWrites) }
            guard left == 0 else { throw RawSQLite.Failure(description: "\(left) writes left") }
            return elapsed
        },
        reference: Side(name: "by hand") {
            let server = try pull()
            let base = server.server.baseURL
            return try blocking {
                try await time {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for lane in 0..<4 {
                            group.addTask {
                                for index in stride(from: lane, to: drainCount, by: 4) {
                                    _ = try await client.fetch(
                                        SyncBenchEndpoint(
                                            baseURL: base, path: "/records", method: .post,
                                            body: .json(["id": "w\(index)", "title": "Write \(index)", "body": "b"])),
                                        extracting: .data)
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
            }
        },
        target: 1.2, iterations: 5)
    return [initialPull, drain]
}

/// Times an async body with the continuous clock.
func time(_ body: () async throws -> Void) async rethrows -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    try await body()
    return clock.now - start
}
