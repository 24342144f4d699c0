import FetchKit
import FetchKitTesting
import Foundation
import Locking
import Persistence
import Sync
import SyncHarness
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Token cursors (``CursorKind/token``) against the two shapes of change feed APIs hand out: a
/// changes-feed sequence (CouchDB's `_changes?since=`, `last_seq`, `deleted: true`) and a delta
/// link (Microsoft Graph's `@odata.nextLink` / `@odata.deltaLink`, `@removed`).
@Suite("Token cursors: a changes-feed sequence and a delta link")
struct TokenCursorTests {
    enum Style: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case changesFeed, deltaLink
        var testDescription: String { rawValue }
    }

    @Test(
        "A first sync walks the feed page by page; a later one brings changes and deletions from the token",
        arguments: Style.allCases)
    func incremental(style: Style) async throws {
        let feed = try ChangeFeed()
        for index in 0..<5 { feed.put("d\(index)", title: "doc \(index)") }
        let fixture = try Fixture(feed: feed, style: style)
        let first = try await fixture.mirror.sync()
        #expect(first.pagesApplied == 3)
        #expect(try fixture.local() == feed.documents)

        feed.put("d1", title: "changed")
        feed.remove("d3")
        feed.put("d9", title: "new")
        try fixture.store.context.persistAndWait { tx in
            try fixture.mirror.save(Doc(id: "mine", title: "local"), in: tx)
        }
        let before = feed.listRequests
        let second = try await fixture.mirror.sync()
        // Three changes from the token (two pages), and this device's own write read back.
        #expect(feed.listRequests - before == 2)
        #expect(second.recordsDeleted == 1)
        #expect(second.writesSent == 1)
        #expect(try fixture.local() == feed.documents)
        #expect(feed.documents["mine"] == "local")

        let idle = try await fixture.mirror.sync()
        #expect(idle.recordsApplied == 0)
        #expect(try fixture.local() == feed.documents)
    }

    @Test(
        "An expired token starts one full resync: deletions it missed are pruned, unsent writes kept",
        arguments: Style.allCases)
    func expiredToken(style: Style) async throws {
        let feed = try ChangeFeed()
        for index in 0..<4 { feed.put("d\(index)", title: "doc \(index)") }
        let fixture = try Fixture(feed: feed, style: style)
        try await fixture.mirror.sync()
        feed.remove("d2")
        feed.put("d0", title: "changed")
        // The server compacts its log: the device's token no longer means anything.
        feed.compact()
        feed.failWrites(1)
        try fixture.store.context.persistAndWait { tx in
            try fixture.mirror.save(Doc(id: "mine", title: "local"), in: tx)
        }
        let error = await #expect(throws: SyncError.self) { try await fixture.mirror.sync() }
        #expect(error?.code == .requestFailed)
        #expect(error?.record == "mine")
        let local = try fixture.local()
        #expect(local["d2"] == nil)
        #expect(local["d0"] == "changed")
        #expect(local["mine"] == "local")

        let report = try await fixture.mirror.sync()
        #expect(!report.resynced)
        #expect(try fixture.local() == feed.documents)
        #expect(feed.documents["mine"] == "local")
    }
}

extension TokenCursorTests {
    @Test(
        "A resync whose own token expires ends the run; the next run resyncs from the start, writes kept",
        arguments: Style.allCases)
    func resyncTokenExpires(style: Style) async throws {
        let feed = try ChangeFeed()
        for index in 0..<6 { feed.put("d\(index)", title: "doc \(index)") }
        let fixture = try Fixture(feed: feed, style: style)
        try await fixture.mirror.sync()
        feed.remove("d1")
        feed.compact()
        // The incremental token is refused (list 1); the resync reads its first page (list 2);
        // its next token is refused too (list 3).
        feed.compact(atListFromNow: 3)
        feed.failWrites(1)
        try fixture.store.context.persistAndWait { tx in
            try fixture.mirror.save(Doc(id: "mine", title: "local"), in: tx)
        }
        let error = await #expect(throws: SyncError.self) { try await fixture.mirror.sync() }
        #expect(error?.code == .cursorRejected)
        feed.put("d9", title: "new")
        // The next run lists everything again and finishes: new records arrive, deleted ones go.
        let report = try await fixture.mirror.sync()
        #expect(report.writesSent == 1)
        #expect(try fixture.local() == feed.documents)
        #expect(feed.documents["mine"] == "local")
        #expect(try fixture.local()["d9"] == "new")
        #expect(try fixture.local()["d1"] == nil)
        let idle = try await fixture.mirror.sync()
        #expect(idle.recordsApplied == 0)
    }
}

/// A document: an identity and a title.
private struct Doc: StoredEntity, Hashable, Codable {
    var id: String
    var title: String
}

private struct Fixture {
    let folder: TemporaryDirectory
    let store: ObjectStore
    let mirror: SyncedCollection<Doc>

    init(feed: ChangeFeed, style: TokenCursorTests.Style) throws {
        folder = try TemporaryDirectory(prefix: "TokenCursorTests")
        store = try ObjectStore(at: folder.file("docs.sqlite"), entities: [Doc.self] + SyncSchema.entities)
        let base = feed.server.baseURL
        let changes: @Sendable (SyncCursor?) -> any Endpoint
        let page: @Sendable (Data, HTTPURLResponse) throws -> ChangePage<Doc>
        switch style {
        case .changesFeed:
            // `GET /_changes?since=S&limit=2`: the sequence is the token.
            changes = { cursor in
                var items = [URLQueryItem(name: "limit", value: "2")]
                if case .token(let since) = cursor { items.append(URLQueryItem(name: "since", value: since)) }
                return FeedRequest(url: base.appendingPathComponent("_changes"), queryItems: items)
            }
            page = { data, _ in
                struct Changes: Decodable {
                    struct Change: Decodable {
                        struct Body: Decodable {
                            var _id: String
                            var title: String
                        }
                        var id: String
                        var deleted: Bool?
                        var doc: Body?
                    }
                    var results: [Change]
                    var last_seq: String
                    var pending: Int
                }
                let decoded = try JSONDecoder().decode(Changes.self, from: data)
                return ChangePage(
                    records: decoded.results.compactMap { change in
                        change.deleted == true ? nil : change.doc.map { Doc(id: $0._id, title: $0.title) }
                    },
                    deleted: decoded.results.filter { $0.deleted == true }.map(\.id),
                    hasMore: decoded.pending > 0, cursor: .token(decoded.last_seq))
            }
        case .deltaLink:
            // `GET /delta`, then the links the server hands back, whole.
            changes = { cursor in
                guard case .token(let link) = cursor, let url = URL(string: link) else {
                    return FeedRequest(url: base.appendingPathComponent("delta"), queryItems: [])
                }
                return FeedRequest(url: url, queryItems: [])
            }
            page = { data, _ in
                struct Delta: Decodable {
                    struct Item: Decodable {
                        struct Removed: Decodable { var reason: String }
                        var id: String
                        var title: String?
                        var removed: Removed?
                        enum CodingKeys: String, CodingKey {
                            case id, title
                            case removed = "@removed"
                        }
                    }
                    var value: [Item]
                    var nextLink: String?
                    var deltaLink: String?
                    enum CodingKeys: String, CodingKey {
                        case value
                        case nextLink = "@odata.nextLink"
                        case deltaLink = "@odata.deltaLink"
                    }
                }
                let decoded = try JSONDecoder().decode(Delta.self, from: data)
                guard let link = decoded.nextLink ?? decoded.deltaLink else {
                    throw DecodingError.dataCorrupted(
                        .init(codingPath: [], debugDescription: "A delta page has neither a next nor a delta link."))
                }
                return ChangePage(
                    records: decoded.value.compactMap { item in
                        item.removed == nil ? item.title.map { Doc(id: item.id, title: $0) } : nil
                    },
                    deleted: decoded.value.filter { $0.removed != nil }.map(\.id),
                    hasMore: decoded.nextLink != nil, cursor: .token(link))
            }
        }
        let collection = RemoteCollection<Doc>(
            "docs", changes: .token(request: changes, page: .custom(page)),
            writes: RecordWrites(
                create: { doc in
                    FeedRequest(
                        url: base.appendingPathComponent("docs/\(doc.id)"), queryItems: [], method: .put,
                        body: .json(["title": doc.title]))
                },
                update: { doc, _ in
                    FeedRequest(
                        url: base.appendingPathComponent("docs/\(doc.id)"), queryItems: [], method: .put,
                        body: .json(["title": doc.title]))
                },
                delete: { doc in
                    FeedRequest(url: base.appendingPathComponent("docs/\(doc.id)"), queryItems: [], method: .delete)
                }))
        mirror = try SyncedCollection(collection, store: store, client: NotesAPI.client())
    }

    /// The stored documents' titles, by identity.
    func local() throws -> [String: String] {
        let docs = try store.context.readAndWait { tx in try tx.fetch(Query<Doc>()) }
        return Dictionary(uniqueKeysWithValues: docs.map { ($0.id, $0.title) })
    }
}

/// A request to a URL the test or the server made, its query included.
private struct FeedRequest: Endpoint {
    var baseURL: URL
    var path: String
    var queryItems: [URLQueryItem]
    var method: HTTPMethod = .get
    var body: RequestBody?

    init(url: URL, queryItems: [URLQueryItem], method: HTTPMethod = .get, body: RequestBody? = nil) {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        self.queryItems = (components?.queryItems ?? []) + queryItems
        path = url.path
        components?.path = ""
        components?.query = nil
        baseURL = components?.url ?? url
        self.method = method
        self.body = body
    }
}

/// A change log on the loopback server, served as a CouchDB changes feed and as a Graph delta
/// query; writes with `PUT /docs/{id}` and `DELETE /docs/{id}`.
private final class ChangeFeed: Sendable {
    struct Entry: Sendable {
        var id: String
        var title: String
        var deleted: Bool
        var sequence: Int
    }
    struct State: Sendable {
        var entries: [String: Entry] = [:]
        var sequence = 0
        /// The log's generation: tokens are `<generation>.<sequence>`, and a compaction starts a
        /// new generation, which refuses the tokens of the old one.
        var generation = 1
        var lists = 0
        var failingWrites = 0
        /// The list request before which the log is compacted (as it is served), if any.
        var compactAtList: Int?
    }

    let server = StubServer()
    private let state = Locked(State())

    init() throws {
        server.route("GET", "/_changes") { [self] request in
            let query = Self.query(request)
            let limit = Int(query["limit"] ?? "") ?? 100
            return state.withLock { state in
                Self.countList(&state)
                guard let since = Self.sequence(query["since"], in: state) else {
                    return StubResponse.json(#"{"error":"bad_request","reason":"since sequence expired"}"#, status: 400)
                }
                let (page, pending) = Self.page(after: since, limit: limit, in: state)
                let results = page.map { entry in
                    entry.deleted
                        ? #"{"seq":\#(entry.sequence),"id":"\#(entry.id)","deleted":true}"#
                        : #"{"seq":\#(entry.sequence),"id":"\#(entry.id)","doc":{"_id":"\#(entry.id)","title":"\#(entry.title)"}}"#
                }
                let last = "\(state.generation).\(page.last?.sequence ?? since)"
                return StubResponse.json(
                    #"{"results":[\#(results.joined(separator: ","))],"last_seq":"\#(last)","pending":\#(pending)}"#)
            }
        }
        server.route("GET", "/delta") { [self] request in
            let query = Self.query(request)
            let base = server.baseURL.absoluteString
            return state.withLock { state in
                Self.countList(&state)
                guard let after = Self.sequence(query["deltatoken"] ?? query["skiptoken"], in: state) else {
                    return StubResponse.json(#"{"error":{"code":"resyncRequired"}}"#, status: 410)
                }
                let (page, pending) = Self.page(after: after, limit: 2, in: state)
                let items = page.map { entry in
                    entry.deleted
                        ? #"{"id":"\#(entry.id)","@removed":{"reason":"deleted"}}"#
                        : #"{"id":"\#(entry.id)","title":"\#(entry.title)"}"#
                }
                let last = "\(state.generation).\(page.last?.sequence ?? after)"
                let link =
                    pending > 0
                    ? #""@odata.nextLink":"\#(base)/delta?skiptoken=\#(last)""#
                    : #""@odata.deltaLink":"\#(base)/delta?deltatoken=\#(last)""#
                return StubResponse.json(#"{"value":[\#(items.joined(separator: ","))],\#(link)}"#)
            }
        }
        server.route("PUT", "/docs/*") { [self] request in
            let id = String(request.path.dropFirst("/docs/".count))
            let title = ((try? JSONSerialization.jsonObject(with: request.body)) as? [String: String])?["title"] ?? ""
            return state.withLock { state in
                if state.failingWrites > 0 {
                    state.failingWrites -= 1
                    return StubResponse.json(#"{"error":"unavailable"}"#, status: 503)
                }
                Self.record(id, title: title, deleted: false, in: &state)
                return StubResponse.json(#"{"ok":true,"id":"\#(id)"}"#, status: 201)
            }
        }
        server.route("DELETE", "/docs/*") { [self] request in
            let id = String(request.path.dropFirst("/docs/".count))
            return state.withLock { state in
                guard state.entries[id]?.deleted == false else { return StubResponse.json("{}", status: 404) }
                Self.record(id, title: "", deleted: true, in: &state)
                return StubResponse.json(#"{"ok":true}"#)
            }
        }
        try server.start()
    }

    deinit { server.stop() }

    func put(_ id: String, title: String) { state.withLock { Self.record(id, title: title, deleted: false, in: &$0) } }
    func remove(_ id: String) { state.withLock { Self.record(id, title: "", deleted: true, in: &$0) } }
    /// Forgets the log before now: every token handed out so far is refused.
    func compact() { state.withLock { $0.generation += 1 } }
    /// Compacts the log as the `count`-th list request from now arrives, before it is read: the
    /// tokens a walk in progress was handed expire under it.
    func compact(atListFromNow count: Int) { state.withLock { $0.compactAtList = $0.lists + count } }
    /// Answers the next `count` writes with `503`, without applying them.
    func failWrites(_ count: Int) { state.withLock { $0.failingWrites = count } }
    var listRequests: Int { state.withLock { $0.lists } }
    /// The documents the server has, by identity.
    var documents: [String: String] {
        state.withLock { state in state.entries.values.filter { !$0.deleted }.reduce(into: [:]) { $0[$1.id] = $1.title }
        }
    }

    private static func countList(_ state: inout State) {
        state.lists += 1
        if state.lists == state.compactAtList { state.generation += 1 }
    }

    private static func record(_ id: String, title: String, deleted: Bool, in state: inout State) {
        state.sequence += 1
        state.entries[id] = Entry(id: id, title: title, deleted: deleted, sequence: state.sequence)
    }

    /// The entries changed after `sequence`, in order, at most `limit`, and how many follow.
    private static func page(after sequence: Int, limit: Int, in state: State) -> ([Entry], Int) {
        let changed = state.entries.values.filter { $0.sequence > sequence }.sorted { $0.sequence < $1.sequence }
        return (Array(changed.prefix(limit)), max(0, changed.count - limit))
    }

    /// The sequence a token names, `0` for none, `nil` for a token of an earlier generation.
    private static func sequence(_ token: String?, in state: State) -> Int? {
        guard let token else { return 0 }
        let parts = token.split(separator: ".")
        guard parts.count == 2, Int(parts[0]) == state.generation else { return nil }
        return Int(parts[1])
    }

    private static func query(_ request: RecordedRequest) -> [String: String] {
        Dictionary(request.queryItems.map { ($0.name, $0.value ?? "") }) { first, _ in first }
    }
}
