import FetchKit
public import Foundation
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RemoteCollection where Entity.ID == String {
    /// A collection of a [PocketBase](https://pocketbase.io) server, described by its name: the
    /// records API (`/api/collections/{name}/records`) paged by `updated` and `id`, creates with
    /// the id chosen on the device, updates as `PATCH` of the changed fields (``ChangedFields``), deletes as `DELETE`, conflicts found by a
    /// read before each update, and deletes made elsewhere found by listing the ids.
    ///
    /// ```swift
    /// let notes = try SyncedCollection(.pocketBase("notes", at: server, version: \Note.updated), store: store, client: client)
    /// ```
    ///
    /// The entity is the record as PocketBase sends it: its coding keys are the collection's field
    /// names (path keys reach into `expand`), its `id` is the record's id, and `version` is its
    /// `updated` field (`nil` on a record this device created and the server has not answered).
    /// The record's other fields (`collectionId`, `created`) are ignored.
    ///
    /// - An id chosen on the device must be 15 characters of `[a-z0-9]` (PocketBase's default
    ///   pattern): a create sent again after a lost answer then meets `400 validation_not_unique`
    ///   and is confirmed by a read, never applied twice.
    /// - A create and an update send the entity's JSON; PocketBase ignores keys it has no field
    ///   for, and sets `created` and `updated` itself.
    /// - PocketBase deletes records outright, with no tombstone: a run lists every id (1,000 a
    ///   request, ids only) when `reconciling` has passed since the last listing, and deletes the
    ///   rows the server no longer has, unless a local write waits for them. Raise it for a large
    ///   collection.
    /// - File fields named in `files` hold ``SyncedFile`` values (``FileFields/pocketBase(_:collection:at:)``):
    ///   a write that adds a file is a multipart request, and a file is downloaded from
    ///   `/api/files/{collection}/{id}/{name}`.
    /// - Authentication is the client's: its `TokenAuthenticator` or adapters (PocketBase's
    ///   `Authorization` token). An auth refused stops the run and keeps every write.
    ///
    /// Every property of the result can still be changed (`keeping`, `retaining`, `batch`, the
    /// writes' conflict check); a record whose id is not the local key (PocketBase's id beside the
    /// app's own) is described with ``init(_:changes:writes:)`` and ``serverID`` instead, as
    /// booklab does.
    ///
    /// - Parameters:
    ///   - collection: the PocketBase collection's name, which also names the synced collection.
    ///   - server: the server's root URL, such as `http://127.0.0.1:8090`.
    ///   - version: the entity's `updated` field.
    ///   - pageSize: the records read per request (PocketBase allows up to 1,000).
    ///   - reconciling: how often a run lists every id to find records deleted elsewhere.
    ///   - files: the collection's file fields (none by default).
    /// - Returns: the description.
    public static func pocketBase(
        _ collection: String, at server: URL, version: any KeyPath<Entity, String?> & Sendable, pageSize: Int = 500,
        reconciling: Duration = .zero, files: [String] = []
    ) -> RemoteCollection {
        let records = PocketBaseRecords(server: server, name: collection)
        let size = min(max(pageSize, 1), 1000)
        var remote = RemoteCollection(
            collection,
            changes: .keyset(
                version: { record in record[keyPath: version].map(RecordVersion.init) },
                request: { cursor in
                    var filter: String?
                    if case .keyset(let updated, let id) = cursor {
                        // PocketBase compares its timestamps as text: its own string goes back.
                        let time = PocketBaseRecords.quoted(updated.description)
                        filter = "(updated > \(time) || (updated = \(time) && id > \(PocketBaseRecords.quoted(id))))"
                    }
                    // The first page of a listing from the start asks for the total, the estimate of a
                    // first sync's progress (PocketBase counts the rows for it).
                    return records.list(sort: "updated,id", perPage: size, filter: filter, counting: cursor == nil)
                },
                page: Extraction.decode(PocketBaseRecords.Page<Entity>.self).map { page in
                    ChangePage(
                        records: page.items, hasMore: page.items.count == size,
                        remaining: page.totalItems.flatMap { $0 >= 0 ? $0 : nil })
                }),
            // POST, PATCH of the fields changed since the base (another device's change to another
            // field stays), DELETE and GET at the record's URL; a read before each update.
            writes: .rest(records.collection))
        remote.changes.lookup = { ids in
            records.list(
                sort: "id", perPage: min(max(ids.count, 1), 1000),
                filter: "(" + ids.map { "id = \(PocketBaseRecords.quoted($0))" }.joined(separator: " || ") + ")")
        }
        remote.identities = IdentityListing(
            every: reconciling,
            request: { after in
                records.list(
                    sort: "id", perPage: 1000, filter: after.map { "id > \(PocketBaseRecords.quoted($0))" },
                    fields: "id")
            },
            page: Extraction.decode(PocketBaseRecords.Page<PocketBaseRecords.ID>.self).map { page in
                (page.items.map(\.id), page.items.count == 1000)
            })
        remote.narrowing = PocketBaseRecords.narrowed
        if !files.isEmpty { remote.files = .pocketBase(files, collection: collection, at: server) }
        return remote
    }
}

/// The records API of one PocketBase collection.
struct PocketBaseRecords: Sendable {
    var server: URL
    var name: String

    /// A request of the collection's records (`/api/collections/{name}/records` below the server).
    var collection: RESTRequest {
        RESTRequest(baseURL: server, path: "/api/collections/\(name)/records")
    }

    /// A list request of the collection's records.
    func list(sort: String, perPage: Int, filter: String?, fields: String? = nil, counting: Bool = false) -> RESTRequest
    {
        var query = [
            URLQueryItem(name: "sort", value: sort), URLQueryItem(name: "perPage", value: String(perPage)),
            URLQueryItem(name: "skipTotal", value: counting ? "0" : "1"),
        ]
        if let filter { query.append(URLQueryItem(name: "filter", value: filter)) }
        if let fields { query.append(URLQueryItem(name: "fields", value: fields)) }
        var list = collection
        list.queryItems = query
        return list
    }

    /// A listing narrowed to a scope: its `filter` parameter joined to the listing's own filter
    /// with `&&` (PocketBase's filter syntax: `owner = 'u1'`), its other parameters added as query
    /// items.
    @Sendable static func narrowed(_ request: any Endpoint, to scope: SyncScope) -> any Endpoint {
        guard var list = request as? RESTRequest else { return UncachedRequest(request, adding: scope.queryItems) }
        for (name, value) in scope.parameters.sorted(by: { $0.key < $1.key }) {
            if name == "filter", let index = list.queryItems.firstIndex(where: { $0.name == "filter" }) {
                list.queryItems[index].value = "(\(list.queryItems[index].value ?? "")) && (\(value))"
            } else {
                list.queryItems.append(URLQueryItem(name: name, value: value))
            }
        }
        return list
    }

    /// A filter's string literal: quoted, its quotes and backslashes escaped.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// A page of a list: its items.
    struct Page<Item: Decodable & Sendable>: Decodable, Sendable {
        var items: [Item]
        /// The listing's count (`-1` when skipped).
        var totalItems: Int?
    }

    /// A listed id.
    struct ID: Decodable, Sendable {
        var id: String
    }
}
