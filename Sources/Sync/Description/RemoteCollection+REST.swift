import Decoding
import FetchKit
public import Foundation
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RemoteCollection {
    /// A collection of a plain REST API, described by its URL: a keyset-paged list of changes
    /// with tombstones (``ChangeFeed/rest(at:version:pageSize:listing:)``) and a record at
    /// `url/{id}` (``RecordWrites/rest(at:)``).
    ///
    /// ```swift
    /// let notes = RemoteCollection<Note>.rest("notes", at: server.appendingPathComponent("notes"), version: \.updated)
    /// ```
    ///
    /// The entity is the record as the API sends it, its `id` the record's identity (chosen on the
    /// device, so that a create sent again meets "already exists"). Change any property of the
    /// result (`keeping`, `identities`, the writes' `conflictCheck`), or describe the two parts
    /// yourself when the API differs.
    ///
    /// - Parameters:
    ///   - name: the collection's name in the store and in errors.
    ///   - url: the collection's URL (`https://api.example.com/notes`).
    ///   - version: the entity's server timestamp (`nil` until the server has the record).
    ///   - pageSize: the records read per request.
    ///   - listing: the listing's parameter and field names, when they are not the defaults.
    /// - Returns: the description.
    public static func rest(
        _ name: String, at url: URL, version: any KeyPath<Entity, String?> & Sendable, pageSize: Int = 500,
        listing: RESTListing = RESTListing()
    ) -> RemoteCollection {
        RemoteCollection(
            name, changes: .rest(at: url, version: version, pageSize: pageSize, listing: listing),
            writes: .rest(at: url))
    }
}

extension ChangeFeed {
    /// The changes of a plain REST list, paged by the server's timestamp and the identity.
    ///
    /// A run asks `GET url?limit=500` from the start, then `GET url?limit=500&after=<updated>&afterID=<id>`
    /// from the last item read; the server answers the items after that position, sorted by
    /// `updated` then `id`: `{"items": [...], "hasMore": true}` (or the array alone, when
    /// another page follows while a page is full). An item whose `deleted` is `true` is a
    /// tombstone (its `id` and `updated` are read); any other item is the record, decoded as
    /// `Entity`. ``RESTListing`` renames the parameters and fields (a field name may be a path,
    /// `data.notes`).
    ///
    /// - Parameters:
    ///   - url: the list's URL.
    ///   - version: the entity's server timestamp (`nil` until the server has the record).
    ///   - pageSize: the records read per request.
    ///   - listing: the listing's parameter and field names.
    /// - Returns: the feed.
    public static func rest(
        at url: URL, version: any KeyPath<Entity, String?> & Sendable, pageSize: Int = 500,
        listing: RESTListing = RESTListing()
    ) -> ChangeFeed {
        let size = max(pageSize, 1)
        let versionOf: @Sendable (Entity) -> RecordVersion? = { record in
            record[keyPath: version].map(RecordVersion.init)
        }
        return .keyset(
            version: versionOf,
            request: { cursor in
                var query = [URLQueryItem(name: listing.limit, value: String(size))]
                if case .keyset(let updated, let id) = cursor {
                    query += [
                        URLQueryItem(name: listing.after, value: updated.description),
                        URLQueryItem(name: listing.afterID, value: id),
                    ]
                }
                return RESTRequest(url: url, queryItems: query)
            },
            page: RESTPage<Entity>.extraction(listing: listing, pageSize: size, version: versionOf, tokens: false))
    }

    /// The changes of a REST feed paged by a token: the list answers with the items after a
    /// token and the token to go on from.
    ///
    /// A run asks `GET url?limit=500` from the start, then `GET url?since=<token>&limit=500` with
    /// the token the last page gave: `{"items": [...], "next": "<token>", "hasMore": true}`. An
    /// item whose `deleted` is `true` is a tombstone (its `id` is read); any other item is the
    /// record, decoded as `Entity`. The last page's token is where the next run starts; a last
    /// page without one leaves the run's token as it was. ``RESTListing`` renames the parameters
    /// and fields (`token`, `next`, `items`, `hasMore`, `deleted`, `id`, `limit`).
    ///
    /// - Parameters:
    ///   - url: the feed's URL.
    ///   - version: the entity's server version, or `nil` (the default) when the API has none:
    ///     conflicts are then found by comparing records.
    ///   - pageSize: the records read per request.
    ///   - listing: the feed's parameter and field names.
    /// - Returns: the feed.
    public static func tokens(
        at url: URL, version: (any KeyPath<Entity, String?> & Sendable)? = nil, pageSize: Int = 500,
        listing: RESTListing = RESTListing()
    ) -> ChangeFeed {
        let size = max(pageSize, 1)
        var versionOf: (@Sendable (Entity) -> RecordVersion?)?
        if let version {
            versionOf = { record in record[keyPath: version].map(RecordVersion.init) }
        }
        return .token(
            version: versionOf,
            request: { cursor in
                var query = [URLQueryItem(name: listing.limit, value: String(size))]
                if case .token(let token) = cursor { query.append(URLQueryItem(name: listing.token, value: token)) }
                return RESTRequest(url: url, queryItems: query)
            },
            page: RESTPage<Entity>.extraction(
                listing: listing, pageSize: size, version: versionOf ?? { _ in nil }, tokens: true))
    }
}

extension RecordWrites {
    /// The writes of a REST resource: a create is `POST url` with the record's JSON, an update
    /// `PATCH url/{id}` with the fields changed since its base (``ChangedFields``), a delete
    /// `DELETE url/{id}`, and a read `GET url/{id}`; an update reads the record first to find a
    /// conflict (``ConflictCheck/readBeforeWrite``). The identity is one path segment: a save or
    /// delete of a record whose identity is empty, holds a `/` or is only dots throws
    /// ``SyncError/Code-swift.struct/misuse``, since its URL would address another resource.
    ///
    /// A record is addressed by its `id`. When the server names records by another identity
    /// (``RemoteCollection/serverID``), describe the writes request by request, addressing each
    /// record by that identity.
    ///
    /// - Parameter url: the collection's URL (`https://api.example.com/notes`).
    /// - Returns: the writes.
    public static func rest(at url: URL) -> RecordWrites {
        rest(RESTRequest(url: url))
    }

    /// The writes of the REST resource `collection` (a request of the collection; each record is
    /// one segment below its path).
    static func rest(_ collection: RESTRequest) -> RecordWrites {
        var writes = RecordWrites(
            create: { record in
                var create = collection
                (create.method, create.body) = (.post, .json(record))
                return create
            },
            update: { record, base in
                collection.record(
                    record.id.databaseValue.identityText, method: .patch,
                    body: .json(ChangedFields(record, since: base)))
            },
            delete: { record in collection.record(record.id.databaseValue.identityText, method: .delete) },
            read: { record in collection.record(record.id.databaseValue.identityText) },
            conflictCheck: .readBeforeWrite)
        writes.refusal = { record in RESTRequest.refusal(of: record.id.databaseValue.identityText) }
        writes.sendsTheRecordsKeys = true
        return writes
    }
}

/// A request of a REST preset; never stored in or served from the HTTP cache.
struct RESTRequest: Endpoint {
    var baseURL: URL
    var path: String
    var method: HTTPMethod = .get
    var queryItems: [URLQueryItem] = []
    var body: RequestBody?
    var cachePolicy: CachePolicy { .bypass }

    /// A request below `baseURL`, which a client's own base URL (a staging server, a stub) replaces.
    init(
        baseURL: URL, path: String, method: HTTPMethod = .get, queryItems: [URLQueryItem] = [],
        body: RequestBody? = nil
    ) {
        self.baseURL = baseURL
        self.path = path
        self.method = method
        self.queryItems = queryItems
        self.body = body
    }

    /// A request of `url`: its origin is the base URL a client's own replaces, its path and query
    /// are kept.
    init(url: URL, method: HTTPMethod = .get, queryItems: [URLQueryItem] = [], body: RequestBody? = nil) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            self.init(baseURL: url, path: "", method: method, queryItems: queryItems, body: body)
            return
        }
        let path = components.path
        let given = components.queryItems ?? []
        components.percentEncodedPath = ""
        components.percentEncodedQuery = nil
        components.fragment = nil
        self.init(
            baseURL: components.url ?? url, path: path, method: method, queryItems: given + queryItems, body: body)
    }

    /// The request of the record `id`, one segment below this request's path.
    func record(_ id: String, method: HTTPMethod = .get, body: RequestBody? = nil) -> RESTRequest {
        var root = path
        while root.hasSuffix("/") { root.removeLast() }
        return RESTRequest(
            baseURL: baseURL, path: root + "/" + id, method: method, queryItems: queryItems, body: body)
    }

    /// Why `id` cannot be one path segment (a `/`, or empty, or only dots: a path the server would
    /// split or resolve elsewhere), or `nil` when it can.
    static func refusal(of id: String) -> String? {
        guard id.isEmpty || id.contains("/") || id.allSatisfy({ $0 == "." }) else { return nil }
        return "its identity \"\(id)\" is not one segment of a URL path (it is empty, holds a /, or is only dots)"
    }
}

/// A page of a plain REST list, read with the names in the decoder's `userInfo`.
struct RESTPage<Entity: StoredEntity>: Decodable {
    /// What a page is read by.
    struct Reading: Sendable {
        var listing: RESTListing
        var pageSize: Int
        var version: @Sendable (Entity) -> RecordVersion?
        /// Whether the page gives a token (`listing.next`) rather than a keyset position.
        var tokens: Bool
    }

    /// The extraction that reads a page with these names.
    static func extraction(
        listing: RESTListing, pageSize: Int, version: @escaping @Sendable (Entity) -> RecordVersion?, tokens: Bool
    ) -> Extraction<ChangePage<Entity>> {
        var decoder = PathDecoder()
        if let key = RESTReadingKey.key {
            decoder.userInfo[key] = Reading(listing: listing, pageSize: pageSize, version: version, tokens: tokens)
        }
        return Extraction.decode(RESTPage<Entity>.self, decoder: decoder).map(\.changes)
    }

    /// The reading `decoder` carries.
    static func reading(of decoder: any Decoder) -> Reading? {
        guard let key = RESTReadingKey.key else { return nil }
        return decoder.userInfo[key] as? Reading
    }

    var changes: ChangePage<Entity>

    init(from decoder: any Decoder) throws {
        guard let reading = Self.reading(of: decoder) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a REST page is read by its preset"))
        }
        let listing = reading.listing
        var items: any UnkeyedDecodingContainer
        var hasMore: Bool?
        var next: String?
        if let page = try? decoder.container(keyedBy: NameKey.self) {
            items = try page.nestedUnkeyedContainer(forKey: NameKey(listing.items))
            hasMore = try page.decodeIfPresent(Bool.self, forKey: NameKey(listing.hasMore))
            if reading.tokens { next = try page.decodeIfPresent(String.self, forKey: NameKey(listing.next)) }
        } else {
            items = try decoder.unkeyedContainer()
        }
        var records: [Entity] = []
        var deleted: [Entity.ID] = []
        var last: SyncCursor?
        var count = 0
        while !items.isAtEnd {
            let item = try items.decode(RESTItem<Entity>.self)
            count += 1
            switch item {
            case .record(let record):
                records.append(record)
                last = reading.version(record).map { .keyset(version: $0, id: record.id.databaseValue.identityText) }
            case .tombstone(let id, let version):
                deleted.append(id)
                last = version.map { .keyset(version: .text($0), id: id.databaseValue.identityText) }
            }
        }
        // A full page may be followed by another; in a token feed only when it gives the token.
        let full = count >= reading.pageSize && (!reading.tokens || next != nil)
        changes = ChangePage(
            records: records, deleted: deleted, hasMore: hasMore ?? full,
            cursor: reading.tokens ? next.map(SyncCursor.token) : last)
    }
}

/// The `userInfo` key a REST page's reading is stored under (one key for every entity type; never
/// `nil`, the initializer's failure is only in its signature).
enum RESTReadingKey {
    static let key = CodingUserInfoKey(rawValue: "FetchKit.Sync.RESTPage.reading")
}

/// An item of a REST page: a record, or a tombstone.
enum RESTItem<Entity: StoredEntity>: Decodable {
    case record(Entity)
    case tombstone(Entity.ID, version: String?)

    init(from decoder: any Decoder) throws {
        let reading = RESTPage<Entity>.reading(of: decoder)
        let listing = reading?.listing ?? RESTListing()
        let fields = try decoder.container(keyedBy: NameKey.self)
        if (try? fields.decodeIfPresent(Bool.self, forKey: NameKey(listing.deleted))) == true {
            let id = try fields.decode(Entity.ID.self, forKey: NameKey(listing.id))
            // A keyset list goes on after its last item: a tombstone must say where it sorts. A
            // token feed's token says where it goes on.
            let version =
                reading?.tokens == true
                ? nil : try fields.decode(String.self, forKey: NameKey(listing.version))
            self = .tombstone(id, version: version)
        } else {
            self = .record(try Entity(from: decoder))
        }
    }
}

/// A field named at run time.
struct NameKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
