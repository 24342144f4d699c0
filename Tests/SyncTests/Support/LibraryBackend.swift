import FetchKit
import FetchKitTesting
import Foundation
import Locking
import Persistence
import Sync
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// A library of related collections on the loopback stub server, for the group tests: authors,
// shelves, and books that refer to an author (required) and a shelf (optional). The server keeps
// its relations as PocketBase does: a write that refers to a record it does not have is refused
// with `400`, and a record still referred to cannot be deleted.

struct Author: StoredEntity, Hashable {
    var id: String
    var name: String
    var updated: String = ""
}

struct Shelf: StoredEntity, Hashable {
    var id: String
    var label: String
    var updated: String = ""
}

/// A comment, maybe a reply to another: a collection whose records refer to each other.
struct Comment: StoredEntity, Hashable {
    var id: String
    var text: String
    var replyTo: String?
    var updated: String = ""

    static let replying = ToOne<Comment, Comment>(Field("replyTo"), onDelete: .nullify)
    static let relations: [any Relation<Comment>] = [replying]
}

/// A review of a shelf, which a shelf cannot be deleted under (`deny`).
struct Review: StoredEntity, Hashable {
    var id: String
    var text: String
    var shelfID: String
    var updated: String = ""

    static let shelf = ToOne<Review, Shelf>(Field("shelfID"), onDelete: .deny)
    static let relations: [any Relation<Review>] = [shelf]
}

/// A chapter of a book: the third level of authors, books and chapters.
struct Chapter: StoredEntity, Hashable {
    var id: String
    var title: String
    var bookID: String
    var updated: String = ""

    static let book = ToOne<Chapter, Book>(Field("bookID"), onDelete: .cascade)
    static let relations: [any Relation<Chapter>] = [book]
}

struct Book: StoredEntity, Hashable {
    var id: String
    var title: String
    var authorID: String
    var shelfID: String?
    var updated: String = ""

    static let author = ToOne<Book, Author>(Field("authorID"), onDelete: .cascade)
    static let shelf = ToOne<Book, Shelf>(Field("shelfID"), onDelete: .nullify)
    static let relations: [any Relation<Book>] = [author, shelf]
}

/// The server's side of the library.
final class LibraryBackend: Sendable {
    struct Record: Sendable, Hashable {
        var fields: [String: String]
        var updated: String
        var deleted = false
    }

    struct State {
        var collections: [String: [String: Record]] = [
            "authors": [:], "shelves": [:], "books": [:], "comments": [:], "reviews": [:], "chapters": [:],
        ]
        var clock: Int64 = 1_795_000_000_000
        /// Every write applied, in order: `create books/b1`.
        var applied: [String] = []
        /// Writes refused (`collection/id` → status) until cleared.
        var refusals: [String: Int] = [:]
        /// Lists refused (collection → status) until cleared.
        var listRefusals: [String: Int] = [:]
        /// What another client does right after the next list of a collection is answered.
        var afterList: [String: @Sendable () -> Void] = [:]
        /// The token every request must carry (`Authorization: Bearer …`), if any.
        var token: String?
        /// Whether lists answer as to a guest that may see nothing: empty, with `200`.
        var guest = false
        /// Records the change lists leave out while the id listings name them.
        var unlisted: Set<String> = []
    }

    /// The references the server checks: collection → (field, referred collection, required).
    static let relations: [String: [(field: String, collection: String, required: Bool)]] = [
        "books": [("authorID", "authors", true), ("shelfID", "shelves", false)],
        "comments": [("replyTo", "comments", false)],
        "reviews": [("shelfID", "shelves", true)],
        "chapters": [("bookID", "books", true)],
    ]

    let server = StubServer()
    let state = Locked(State())

    init() throws {
        for collection in ["authors", "shelves", "books", "comments", "reviews", "chapters"] {
            server.route("GET", "/\(collection)") { [self] request in list(collection, request) }
            server.route("GET", "/\(collection)/*") { [self] request in read(collection, request) }
            server.route("GET", "/ids/\(collection)") { [self] request in identities(collection, request) }
            server.route("GET", "/lookup/\(collection)") { [self] request in lookup(collection, request) }
            server.route("POST", "/\(collection)") { [self] request in write(collection, request) }
            server.route("PATCH", "/\(collection)/*") { [self] request in write(collection, request) }
            server.route("DELETE", "/\(collection)/*") { [self] request in write(collection, request) }
        }
        try server.start()
    }

    deinit { server.stop() }

    var baseURL: URL { server.baseURL }

    // MARK: Control

    /// Writes a record as another client would (no relation checks).
    func put(_ collection: String, _ id: String, _ fields: [String: String]) {
        state.withLock { state in
            state.clock += 1
            state.collections[collection]?[id] = Record(
                fields: fields.merging(["id": id]) { a, _ in a }, updated: Self.stamp(state.clock))
        }
    }

    /// Deletes a record as another client would (no relation checks).
    func remove(_ collection: String, _ id: String) {
        state.withLock { state in
            state.clock += 1
            state.collections[collection]?[id]?.deleted = true
            state.collections[collection]?[id]?.updated = Self.stamp(state.clock)
        }
    }

    /// Deletes a record outright, leaving no tombstone (only an id listing finds it gone).
    func purge(_ collection: String, _ id: String) {
        state.withLock { _ = $0.collections[collection]?.removeValue(forKey: id) }
    }

    /// Refuses the writes of `collection/id` with `status` (`nil`: accepts them again).
    func refuse(_ collection: String, _ id: String, with status: Int?) {
        state.withLock { $0.refusals["\(collection)/\(id)"] = status }
    }

    /// Requires `token` of every request from now on (`nil`: none); another is answered `401`.
    func requireToken(_ token: String?) {
        state.withLock { $0.token = token }
    }

    /// The token requests must carry now.
    var token: String? { state.withLock { $0.token } }

    /// Whether `request` carries the token required, if one is.
    private func authorized(_ request: RecordedRequest) -> Bool {
        guard let token else { return true }
        return request.headers["authorization"] == "Bearer \(token)"
    }

    private static let unauthorized = StubResponse.json(#"{"message":"The token expired."}"#, status: 401)

    /// Answers every list as to a guest who may see nothing (`200`, empty), as PocketBase answers
    /// an expired token; `false`: as before.
    func answerAsGuest(_ guest: Bool) {
        state.withLock { $0.guest = guest }
    }

    /// Leaves `id` out of the change lists, not out of the id listings (a record a pull never keeps).
    func leaveOutOfLists(_ id: String) {
        state.withLock { _ = $0.unlisted.insert(id) }
    }

    /// Refuses the lists of `collection` with `status` (`nil`: answers them again).
    func refuseLists(_ collection: String, with status: Int?) {
        state.withLock { $0.listRefusals[collection] = status }
    }

    /// Runs `action` (another client's writes) once, right after the next list of `collection`.
    func afterNextList(of collection: String, _ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.afterList[collection] = action }
    }

    /// The live records of `collection`, by id.
    func records(_ collection: String) -> [String: [String: String]] {
        state.withLock { ($0.collections[collection] ?? [:]).filter { !$0.value.deleted }.mapValues(\.fields) }
    }

    /// The writes applied, in order.
    var applied: [String] { state.withLock { $0.applied } }

    // MARK: Requests

    private func list(_ collection: String, _ request: RecordedRequest) -> StubResponse {
        guard authorized(request) else { return Self.unauthorized }
        let query = Dictionary(request.queryItems.map { ($0.name, $0.value ?? "") }) { first, _ in first }
        let limit = Int(query["limit"] ?? "") ?? 50
        let after = query["after"]
        let afterID = query["afterID"] ?? ""
        let (refused, action) = state.withLock { state in
            let action = state.afterList.removeValue(forKey: collection)
            return (state.listRefusals[collection], action)
        }
        if let refused { return .json(#"{"message":"unavailable"}"#, status: refused) }
        guard let scope = Self.scope(query) else { return Self.unknownField }
        defer { action?() }
        return state.withLock { state in
            let sorted = (state.guest ? [:] : state.collections[collection] ?? [:]).filter { id, record in
                guard !state.unlisted.contains(id), scope(record) else { return false }
                guard let after else { return true }
                return record.updated > after || (record.updated == after && id > afterID)
            }.sorted { ($0.value.updated, $0.key) < ($1.value.updated, $1.key) }
            let items = sorted.prefix(limit).map { Self.json($0.value) }.joined(separator: ",")
            return StubResponse.json(
                #"{"items":[\#(items)],"hasMore":\#(sorted.count > limit),"remaining":\#(sorted.count)}"#)
        }
    }

    private func identities(_ collection: String, _ request: RecordedRequest) -> StubResponse {
        let query = Dictionary(request.queryItems.map { ($0.name, $0.value ?? "") }) { first, _ in first }
        let after = query["after"] ?? ""
        guard let scope = Self.scope(query) else { return Self.unknownField }
        return state.withLock { state in
            let ids =
                state.guest
                ? []
                : (state.collections[collection] ?? [:]).filter {
                    !$0.value.deleted && $0.key > after && scope($0.value)
                }
                .map(\.key).sorted()
            return .json(#"{"ids":[\#(ids.map { "\"\($0)\"" }.joined(separator: ","))],"hasMore":false}"#)
        }
    }

    /// The fields a list may be narrowed by (a scope's parameters), and `since` (updated at or
    /// after).
    static let filterable: Set<String> = [
        "name", "label", "title", "authorID", "shelfID", "bookID", "text", "replyTo", "since",
    ]

    private static let unknownField = StubResponse.json(#"{"message":"unknown filter field"}"#, status: 400)

    /// The test a list's narrowing parameters make (a record's field equal to the value; `since`:
    /// updated at or after it), or `nil` for a parameter the server does not take.
    static func scope(_ query: [String: String]) -> (@Sendable (Record) -> Bool)? {
        let narrowing = query.filter { !["limit", "after", "afterID"].contains($0.key) }
        guard narrowing.keys.allSatisfy(filterable.contains) else { return nil }
        return { record in
            narrowing.allSatisfy { name, value in
                name == "since" ? record.updated >= value : record.fields[name] == value
            }
        }
    }

    /// The live records of some ids (`?ids=a,b`), as a page.
    private func lookup(_ collection: String, _ request: RecordedRequest) -> StubResponse {
        guard authorized(request) else { return Self.unauthorized }
        let ids = (request.queryItems.first { $0.name == "ids" }?.value ?? "").split(separator: ",").map(String.init)
        return state.withLock { state in
            let items = ids.compactMap { state.collections[collection]?[$0] }.filter { !$0.deleted }.map(Self.json)
            return StubResponse.json(#"{"items":[\#(items.joined(separator: ","))],"hasMore":false}"#)
        }
    }

    private func read(_ collection: String, _ request: RecordedRequest) -> StubResponse {
        guard authorized(request) else { return Self.unauthorized }
        let id = String(request.path.split(separator: "/").last ?? "")
        return state.withLock { state in
            guard let record = state.collections[collection]?[id], !record.deleted else {
                return .json(#"{"message":"not found"}"#, status: 404)
            }
            return .json(Self.json(record))
        }
    }

    private func write(_ collection: String, _ request: RecordedRequest) -> StubResponse {
        guard authorized(request) else { return Self.unauthorized }
        let parts = request.path.split(separator: "/").map(String.init)
        let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] ?? [:]
        let fields = body.compactMapValues { $0 as? String }
        let id = parts.count > 1 ? parts[1] : fields["id"] ?? ""
        return state.withLock { state in
            if let status = state.refusals["\(collection)/\(id)"] {
                return .json(#"{"message":"refused"}"#, status: status)
            }
            let collections = state.collections
            let live = { (c: String, i: String) in collections[c]?[i].map { !$0.deleted } ?? false }
            switch request.method {
            case "DELETE":
                guard live(collection, id) else { return .json(#"{"message":"not found"}"#, status: 404) }
                for (child, relations) in Self.relations {
                    for relation in relations where relation.collection == collection {
                        let referring = (state.collections[child] ?? [:]).values.contains {
                            !$0.deleted && $0.fields[relation.field] == id
                        }
                        if referring {
                            return .json(
                                #"{"message":"Failed to delete record. Make sure that the record is not part of a required relation reference."}"#,
                                status: 400)
                        }
                    }
                }
                state.clock += 1
                state.collections[collection]?[id]?.deleted = true
                state.collections[collection]?[id]?.updated = Self.stamp(state.clock)
                state.applied.append("delete \(collection)/\(id)")
                return StubResponse(status: 204)
            default:
                let creating = request.method == "POST"
                if creating, live(collection, id) { return .json(#"{"message":"already exists"}"#, status: 409) }
                if !creating, !live(collection, id) { return .json(#"{"message":"not found"}"#, status: 404) }
                for relation in Self.relations[collection] ?? [] {
                    guard let target = fields[relation.field] else {
                        if relation.required {
                            return .json(#"{"message":"\#(relation.field) is required"}"#, status: 400)
                        }
                        continue
                    }
                    if !live(relation.collection, target) {
                        return .json(#"{"message":"\#(relation.field) refers to a missing record"}"#, status: 400)
                    }
                }
                state.clock += 1
                var stored = fields
                stored["id"] = id
                stored["updated"] = nil
                let record = Record(fields: stored, updated: Self.stamp(state.clock))
                state.collections[collection]?[id] = record
                state.applied.append("\(creating ? "create" : "update") \(collection)/\(id)")
                return .json(Self.json(record))
            }
        }
    }

    static func stamp(_ clock: Int64) -> String { String(clock) }

    static func json(_ record: Record) -> String {
        var object: [String: Any] = record.fields
        object["updated"] = record.updated
        if record.deleted { object["deleted"] = true }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

/// A listed item: the record, or its tombstone.
struct LibraryItem<Entity: Decodable & Sendable>: Decodable, Sendable {
    var record: Entity?
    var id: String
    var updated: String

    enum Keys: String, CodingKey { case id, updated, deleted }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        id = try container.decode(String.self, forKey: .id)
        updated = try container.decode(String.self, forKey: .updated)
        let deleted = try container.decodeIfPresent(Bool.self, forKey: .deleted) ?? false
        record = deleted ? nil : try Entity(from: decoder)
    }
}

struct LibraryPage<Entity: Decodable & Sendable>: Decodable, Sendable {
    var items: [LibraryItem<Entity>]
    var hasMore: Bool
    var remaining: Int?
}

struct LibraryIDs: Decodable, Sendable {
    var ids: [String]
    var hasMore: Bool
}

struct LibraryRequest: Endpoint {
    var baseURL: URL
    var path: String
    var method: HTTPMethod = .get
    var queryItems: [URLQueryItem] = []
    var body: RequestBody?
}

/// A group's store and the library's collections in it.
final class LibraryFixture: Sendable {
    let backend: LibraryBackend
    let folder: TemporaryDirectory
    let store: ObjectStore
    let client: FetchClient

    /// A fixture; `authenticator` signs the client's requests.
    init(authenticator: TokenAuthenticator? = nil) throws {
        backend = try LibraryBackend()
        folder = try TemporaryDirectory(prefix: "SyncGroupTests")
        store = try ObjectStore(
            at: folder.file("library.sqlite"),
            entities: [Author.self, Shelf.self, Book.self, Comment.self, Review.self, Chapter.self]
                + SyncSchema.entities)
        client = FetchClient(
            configuration: {
                var configuration = FetchClient.Configuration()
                configuration.authenticator = authenticator
                configuration.retryPolicy = RetryPolicy(
                    maximumRetries: 0, baseDelay: .milliseconds(20), maximumDelay: .milliseconds(200))
                configuration.timeout = .seconds(10)
                return configuration
            }())
    }

    deinit {
        store.close()
    }

    /// The collection `name` of entity `E`, keyset-paged by `updated, id`.
    func remote<E: StoredEntity>(
        _ name: String, _ type: E.Type, version: @escaping @Sendable (E) -> String, pageSize: Int = 50,
        reconciling: Bool = false
    ) -> RemoteCollection<E> where E.ID == String {
        let base = backend.baseURL
        var remote = RemoteCollection<E>(
            name,
            changes: .keyset(
                overlap: .none,
                version: { RecordVersion(version($0)) },
                request: { cursor in
                    var items = [URLQueryItem(name: "limit", value: String(pageSize))]
                    if case .keyset(let version, let id) = cursor {
                        items += [
                            URLQueryItem(name: "after", value: version.description),
                            URLQueryItem(name: "afterID", value: id),
                        ]
                    }
                    return LibraryRequest(baseURL: base, path: "/\(name)", queryItems: items)
                },
                page: Extraction.decode(LibraryPage<E>.self).map { page in
                    ChangePage(
                        records: page.items.compactMap(\.record),
                        deleted: page.items.filter { $0.record == nil }.map(\.id),
                        hasMore: page.hasMore,
                        cursor: page.items.last.map { SyncCursor.keyset(version: .text($0.updated), id: $0.id) },
                        remaining: page.remaining)
                }),
            writes: RecordWrites(
                create: { record in LibraryRequest(baseURL: base, path: "/\(name)", method: .post, body: .json(record))
                },
                update: { record, _ in
                    LibraryRequest(baseURL: base, path: "/\(name)/\(record.id)", method: .patch, body: .json(record))
                },
                delete: { record in LibraryRequest(baseURL: base, path: "/\(name)/\(record.id)", method: .delete) },
                read: { record in LibraryRequest(baseURL: base, path: "/\(name)/\(record.id)") }))
        remote.changes.lookup = { ids in
            LibraryRequest(
                baseURL: base, path: "/lookup/\(name)",
                queryItems: [URLQueryItem(name: "ids", value: ids.joined(separator: ","))])
        }
        remote.identities =
            reconciling
            ? IdentityListing(
                every: .zero,
                request: { after in
                    LibraryRequest(
                        baseURL: base, path: "/ids/\(name)",
                        queryItems: [URLQueryItem(name: "after", value: after ?? "")])
                },
                page: Extraction.decode(LibraryIDs.self).map { ($0.ids, $0.hasMore) })
            : nil
        return remote
    }

    func authors() throws -> SyncedCollection<Author> {
        try SyncedCollection(remote("authors", Author.self, version: \.updated), store: store, client: client)
    }

    func shelves() throws -> SyncedCollection<Shelf> {
        try SyncedCollection(remote("shelves", Shelf.self, version: \.updated), store: store, client: client)
    }

    func comments() throws -> SyncedCollection<Comment> {
        try SyncedCollection(remote("comments", Comment.self, version: \.updated), store: store, client: client)
    }

    func chapters() throws -> SyncedCollection<Chapter> {
        try SyncedCollection(remote("chapters", Chapter.self, version: \.updated), store: store, client: client)
    }

    func books(pageSize: Int = 50) throws -> SyncedCollection<Book> {
        try SyncedCollection(
            remote("books", Book.self, version: \.updated, pageSize: pageSize), store: store, client: client)
    }

    /// The rows of `E`, by id.
    func local<E: StoredEntity>(_ type: E.Type) throws -> [String: E] where E.ID == String {
        let rows = try store.context.readAndWait { tx in try tx.fetch(Query<E>()) }
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
    }

    /// The outbox, as `collection/record operation state`.
    func outbox() throws -> [String] {
        try store.context.readAndWait { tx in
            try tx.fetch(Query<PendingWrite>(sortedBy: [PendingWrite.sequence.ascending()]))
        }.map { "\($0.collection)/\($0.recordID) \($0.operation.rawValue) \($0.state.rawValue)" }.sorted()
    }
}
