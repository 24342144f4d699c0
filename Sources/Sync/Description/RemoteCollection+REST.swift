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
    /// A run asks `GET url?limit=500` from the start, then `GET url?after=<updated>&afterID=<id>&limit=500`
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
    /// conflict (``ConflictCheck/readBeforeWrite``). The identity is one path segment, its `/`
    /// and other reserved characters percent-encoded.
    ///
    /// A record is addressed by its `id`. When the server names records by another identity
    /// (``RemoteCollection/serverID``), describe the writes request by request, addressing each
    /// record by that identity.
    ///
    /// - Parameter url: the collection's URL (`https://api.example.com/notes`).
    /// - Returns: the writes.
    public static func rest(at url: URL) -> RecordWrites {
        RecordWrites(
            create: { record in RESTRequest(url: url, method: .post, body: .json(record)) },
            update: { record, base in
                RESTRequest(url: url, id: record.id, method: .patch, body: .json(ChangedFields(record, since: base)))
            },
            delete: { record in RESTRequest(url: url, id: record.id, method: .delete) },
            read: { record in RESTRequest(url: url, id: record.id) },
            conflictCheck: .readBeforeWrite)
    }
}

/// The parameter and field names of a plain REST list (``ChangeFeed/rest(at:version:pageSize:listing:)``)
/// or a REST feed paged by tokens (``ChangeFeed/tokens(at:version:pageSize:listing:)``), when the
/// API does not use the defaults:
///
/// ```swift
/// RESTListing(after: "since", items: "data.notes", deleted: "removed")
/// ```
public struct RESTListing: Sendable, Hashable {
    /// The query parameter of the last item's timestamp (`after`).
    public var after: String
    /// The query parameter of the last item's identity (`afterID`).
    public var afterID: String
    /// The query parameter of the page size (`limit`).
    public var limit: String
    /// The field, or path, of the page's items (`items`); an answer that is an array is the items.
    public var items: String
    /// The field, or path, that says whether another page follows (`hasMore`); without it a full
    /// page means another may follow.
    public var hasMore: String
    /// The field that marks an item as a tombstone when `true` (`deleted`).
    public var deleted: String
    /// The field of an item's identity, read from a tombstone (`id`).
    public var id: String
    /// The field of an item's timestamp, read from a tombstone (`updated`).
    public var version: String
    /// The query parameter of a token feed's token (`since`).
    public var token: String
    /// The field of a token feed's next token (`next`).
    public var next: String

    /// Names of a listing; each defaults to the name in parentheses on its property.
    ///
    /// - Parameters:
    ///   - after: the query parameter of the last item's timestamp.
    ///   - afterID: the query parameter of the last item's identity.
    ///   - limit: the query parameter of the page size.
    ///   - items: the field of the page's items.
    ///   - hasMore: the field that says whether another page follows.
    ///   - deleted: the field that marks a tombstone.
    ///   - id: the field of a tombstone's identity.
    ///   - version: the field of a tombstone's timestamp.
    ///   - token: the query parameter of a token feed's token.
    ///   - next: the field of a token feed's next token.
    public init(
        after: String = "after", afterID: String = "afterID", limit: String = "limit", items: String = "items",
        hasMore: String = "hasMore", deleted: String = "deleted", id: String = "id", version: String = "updated",
        token: String = "since", next: String = "next"
    ) {
        self.token = token
        self.next = next
        self.after = after
        self.afterID = afterID
        self.limit = limit
        self.items = items
        self.hasMore = hasMore
        self.deleted = deleted
        self.id = id
        self.version = version
    }
}

/// A request of a REST preset; never stored in or served from the HTTP cache.
///
/// The URL's origin is the endpoint's base URL and its path the endpoint's path, so a client's
/// own base URL (a staging server, a stub) replaces the origin and keeps the path.
struct RESTRequest: Endpoint {
    var baseURL: URL
    var path: String
    var method: HTTPMethod = .get
    var queryItems: [URLQueryItem] = []
    var body: RequestBody?
    var cachePolicy: CachePolicy { .bypass }

    init(url: URL, method: HTTPMethod = .get, queryItems: [URLQueryItem] = [], body: RequestBody? = nil) {
        let given: [URLQueryItem]
        (baseURL, path, given) = Self.split(url)
        self.method = method
        self.queryItems = given + queryItems
        self.body = body
    }

    /// A request of the record `id` at `url/{id}`, the identity one path segment.
    init<ID: QueryableValue>(url: URL, id: ID, method: HTTPMethod = .get, body: RequestBody? = nil) {
        self.init(url: url, method: method, body: body)
        let text = id.databaseValue.identityText
        while path.hasSuffix("/") { path.removeLast() }
        if text.contains("/") || text.allSatisfy({ $0 == "." }) {
            // An identity a path would split or resolve (`a/b`, `..`) is percent-encoded into the
            // URL itself, as one segment.
            var segment = CharacterSet.urlPathAllowed
            segment.remove(charactersIn: "/;.")
            let encoded = text.addingPercentEncoding(withAllowedCharacters: segment) ?? ""
            var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
            components?.percentEncodedQuery = nil
            components?.fragment = nil
            var root = components?.url?.absoluteString ?? url.absoluteString
            while root.hasSuffix("/") { root.removeLast() }
            (baseURL, path) = (URL(string: root + "/" + encoded) ?? url, "")
        } else {
            path += "/" + text
        }
    }

    /// `url` as an origin (scheme, host and port), a path and the query items it carries.
    private static func split(_ url: URL) -> (URL, String, [URLQueryItem]) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return (url, "", []) }
        let path = components.path
        let query = components.queryItems ?? []
        components.percentEncodedPath = ""
        components.percentEncodedQuery = nil
        components.fragment = nil
        return (components.url ?? url, path, query)
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
        if let key = reading {
            decoder.userInfo[key] = Reading(listing: listing, pageSize: pageSize, version: version, tokens: tokens)
        }
        return Extraction.decode(RESTPage<Entity>.self, decoder: decoder).map(\.changes)
    }

    /// The `userInfo` key of the ``Reading`` (one key for every entity type; never `nil`, the
    /// initializer's failure is only in its signature).
    static var reading: CodingUserInfoKey? { RESTReadingKey.key }

    /// The reading `decoder` carries.
    static func reading(of decoder: any Decoder) -> Reading? {
        guard let key = reading else { return nil }
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
        changes = ChangePage(
            records: records, deleted: deleted, hasMore: hasMore ?? (count >= reading.pageSize),
            cursor: reading.tokens ? next.map(SyncCursor.token) : last)
    }
}

/// The `userInfo` key a REST page's reading is stored under.
enum RESTReadingKey {
    static let key = CodingUserInfoKey(rawValue: "FetchKit.Sync.RESTPage.reading")
}

/// An item of a REST page: a record, or a tombstone.
enum RESTItem<Entity: StoredEntity>: Decodable {
    case record(Entity)
    case tombstone(Entity.ID, version: String?)

    init(from decoder: any Decoder) throws {
        let listing = RESTPage<Entity>.reading(of: decoder)?.listing ?? RESTListing()
        let fields = try decoder.container(keyedBy: NameKey.self)
        if (try? fields.decodeIfPresent(Bool.self, forKey: NameKey(listing.deleted))) == true {
            self = .tombstone(
                try fields.decode(Entity.ID.self, forKey: NameKey(listing.id)),
                version: try fields.decodeIfPresent(String.self, forKey: NameKey(listing.version)))
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
