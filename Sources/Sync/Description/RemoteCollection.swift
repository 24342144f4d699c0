public import FetchKit
import Foundation
public import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A collection on a web API, described once: its name, how its changes are listed and read
/// (a ``ChangeFeed``), and how a local change reaches the server (``RecordWrites``).
///
/// A ``SyncedCollection`` keeps the collection in an `ObjectStore` from this description; nothing in it
/// is specific to one backend. Presets describe the common shapes in one call:
/// ``pocketBase(_:at:version:pageSize:reconciling:files:)`` and ``rest(_:at:version:pageSize:listing:)``. Any other
/// API is described by its two parts, a keyset-paged list with tombstones for one:
///
/// ```swift
/// let notes = RemoteCollection<Note>(
///     "notes",
///     changes: .keyset(
///         version: { RecordVersion($0.updated) },
///         request: { cursor in NotesAPI.list(after: cursor) },
///         page: Extraction.decode(NotesAPI.Page.self).map(\.changes)),
///     writes: .rest(at: NotesAPI.notes))
/// ```
///
/// The rest are properties with defaults, set on the description: records whose server identity
/// is not the local key (``serverID``), fields only the device keeps (``keeping``), rows a walk
/// keeps (``retaining``), deletions found by listing identities (``identities``), scopes
/// (``narrowing``), file fields (``files``), a batch API (``batch``) and the outbox payloads' shape (``schemaVersion``).
///
/// The endpoints are your own `Endpoint` values, sent through the mirror's `FetchClient`
/// (its adapters, authenticator, cache and transport).
public struct RemoteCollection<Entity: StoredEntity>: Sendable {
    /// The collection's name: it keys the mirror's cursor and outbox rows in the store, and names
    /// the collection in errors. Two mirrors of one store need two names.
    public var name: String
    /// How the collection's changes are listed and read.
    public var changes: ChangeFeed<Entity>
    /// How a local change reaches the server.
    public var writes: RecordWrites<Entity>
    /// The property that holds a record's identity on the server, when the server chooses it
    /// and it is not the local key (PocketBase's `id` beside an app's own key), or `nil` (the
    /// default) when the local key is the server's identity.
    ///
    /// The page reader and ``RecordWrites/written`` fill it from the server's records; a
    /// collection keeps it on the row and on every queued write, and fills it into the record it
    /// gives ``RecordWrites/update``, ``RecordWrites/delete`` and ``RecordWrites/read``, so a record
    /// created anywhere else is changed and deleted at its own address. It is `nil` only on a
    /// record this device created and the server has not answered yet: ``RecordWrites/create``
    /// and the read that confirms a create then address the record by the identity the app
    /// proposes.
    ///
    /// ```swift
    /// books.serverID = \Book.recordID   // PocketBase's id of the book; the key path names its type
    /// ```
    public var serverID: (any WritableKeyPath<Entity, String?> & Sendable)?
    /// Lists every identity on the server, to delete local rows the server deleted without a
    /// tombstone (``IdentityListing``); `nil` (the default) when the change feed reports all
    /// deletions.
    public var identities: IdentityListing<Entity>?
    /// Narrows a listing request, of changes (``ChangeFeed/request``) or of identities
    /// (``identities``), to a scope (``SyncScope``, ``SyncedCollection/scope(to:)``). By default
    /// (``narrowedByQuery(_:to:)``) each of the scope's parameters is added as a query item; the
    /// PocketBase preset adds a `filter` parameter to the listing's own filter with `&&`.
    public var narrowing: @Sendable (_ request: any Endpoint, _ scope: SyncScope) -> any Endpoint =
        RemoteCollection.narrowedByQuery
    /// The fields only this device keeps (the server has no place for them: a local note, a mark,
    /// a cached thumbnail), as Persistence's upsert rules: a server record stored over a row, on
    /// a pull and after a write, keeps the row's values of these properties. Empty (the default)
    /// when the server holds every field.
    ///
    /// ```swift
    /// books.keeping = [.keep(Book.summary)]   // the server's books have no summary
    /// ```
    public var keeping: [ConflictRule<Entity>] = []
    /// Local rows that stay when the server no longer lists them: the rows the user marked, kept
    /// by a snapshot walk, a resync and an identity reconciliation that would otherwise delete
    /// them; `nil` (the default) to keep none. A row the filter cannot decide (a comparison with a
    /// `nil` property) is not kept. A tombstone the server sends still deletes its row.
    ///
    /// ```swift
    /// photos.retaining = Photo.marked == true   // a marked photo outlives the recent-photos snapshot
    /// ```
    public var retaining: Filter<Entity>?
    /// The record's file fields: which properties name files (``SyncedFile``), how a write
    /// carries the files it adds, and how a stored file is downloaded; ``FileFields/none`` (the
    /// default) for a record without files.
    ///
    /// ```swift
    /// books.files = .pocketBase(["cover"], collection: "books", at: server)
    /// ```
    public var files = FileFields.none
    /// The backend's batch API, to send a round's writes in one request, or `nil` (the default)
    /// to send each write on its own (``WriteBatch``).
    public var batch: WriteBatch?
    /// The version of the entity's shape that outbox payloads are written in (1 by default);
    /// raise it when `Entity` changes its stored properties, and upgrade pending writes in a
    /// migration (``PendingWrite/upgrade(collection:from:in:_:)``).
    public var schemaVersion = 1

    /// Describes a collection by its name, its change feed and its writes; set the other
    /// properties on the result.
    ///
    /// - Parameters:
    ///   - name: the collection's name in the store and in errors.
    ///   - changes: how its changes are listed and read.
    ///   - writes: how a local change reaches the server; ``RecordWrites/none`` (the default) for
    ///     a collection the app never changes.
    public init(_ name: String, changes: ChangeFeed<Entity>, writes: RecordWrites<Entity> = .none) {
        self.name = name
        self.changes = changes
        self.writes = writes
    }

    /// The default narrowing of a listing to a scope: `request` with each of the scope's
    /// parameters added as a query item, sorted by name.
    ///
    /// - Parameters:
    ///   - request: a listing request (of changes or identities).
    ///   - scope: the scope.
    /// - Returns: the request, narrowed.
    @Sendable public static func narrowedByQuery(_ request: any Endpoint, to scope: SyncScope) -> any Endpoint {
        UncachedRequest(request, adding: scope.queryItems)
    }
}
