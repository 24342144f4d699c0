public import FetchKit
import Foundation
public import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A collection on a web API, described once: how to list its changes, how to read a page of
/// them, how to send a create, an update and a delete, and how a remote record is the stored
/// entity `Entity`.
///
/// A ``SyncedCollection`` keeps the collection in an `ObjectStore` from this description; nothing in it
/// is specific to one backend. A keyset-paged REST collection, for one:
///
/// ```swift
/// let notes = RemoteCollection<Note>(
///     name: "notes",
///     cursor: .keyset(overlap: .time(.seconds(5))),
///     version: { RecordVersion($0.updated) },
///     changes: { cursor in NotesAPI.list(after: cursor) },
///     page: Extraction.decode(NotesAPI.Page.self).map(\.changes),
///     create: { note in NotesAPI.create(note) },
///     update: { note, base in NotesAPI.patch(note.id, body: .json(ChangedFields(note, since: base))) },
///     delete: { note in NotesAPI.delete(note.id) })
/// ```
///
/// The endpoints are your own `Endpoint` values, sent through the mirror's `FetchClient`
/// (its adapters, authenticator, cache and transport). The mirror adds the write's
/// idempotency key as a header (``idempotencyKeyHeader``) to every create, update and delete.
public struct RemoteCollection<Entity: StoredEntity>: Sendable {
    /// The collection's name: it keys the mirror's cursor and outbox rows in the store, and names
    /// the collection in errors. Two mirrors of one store need two names.
    public var name: String
    /// How the collection's changes are paged (``CursorKind``).
    public var cursor: CursorKind
    /// The server's version of a record (its `updated` timestamp, revision or sequence), or
    /// `nil` when the API has none.
    ///
    /// With a version a pull never moves a row back to an older one, a keyset cursor advances
    /// by it, and a conflict is a remote version that differs from the write's base. Without one
    /// conflicts are found by comparing whole records.
    public var version: (@Sendable (Entity) -> RecordVersion?)?
    /// The request that lists changes from `cursor` (`nil`: from the start, a full listing).
    ///
    /// For ``CursorKind/keyset(overlap:)`` the cursor is the last applied record's version and id
    /// (moved back by the overlap at the start of a run); for ``CursorKind/token`` the token the
    /// previous page gave; for ``CursorKind/snapshot`` the page number to read.
    public var changes: @Sendable (SyncCursor?) -> any Endpoint
    /// Reads one page of changes from a response, as FetchKit's extractions read any response:
    /// the body decoded with its path keys (`.decode(NotesPage.self)`), then made a page
    /// (`.map { page in ChangePage(…) }`), or `.custom { data, response in … }` for anything
    /// else. An error it throws ends the run with ``SyncError/Code-swift.struct/undecodablePage``
    /// naming the page and the property.
    public var page: Extraction<ChangePage<Entity>>
    /// The request that creates `entity` on the server, with its client-chosen identity, or `nil`
    /// when the app cannot create records (a read-only collection: ``SyncedCollection/save(_:as:in:)`` then
    /// refuses a new record with ``SyncError/Code-swift.struct/misuse``).
    public var create: (@Sendable (Entity) -> any Endpoint)?
    /// The request that updates the server's record to `entity`; `base` is the server's version
    /// the local change started from (`nil` when unknown), to send only changed fields or an
    /// `If-Match`. `nil` when the app cannot change records.
    public var update: (@Sendable (_ entity: Entity, _ base: Entity?) -> any Endpoint)?
    /// The request that deletes `record` on the server, or `nil` when the app cannot delete
    /// records. `record` is the record as this device last had it, with its identity on the
    /// server (``serverID``) when the collection has one.
    public var delete: (@Sendable (_ record: Entity) -> any Endpoint)?
    /// The request that reads `record` from the server, or `nil` when the API has none. A
    /// collection uses it to confirm a create that met "already exists", to check for
    /// conflicts before an update (``ConflictCheck/readBeforeWrite``), and to tell a record the
    /// server deleted from a write it refused with `404` while it still has the record.
    public var read: (@Sendable (_ record: Entity) -> any Endpoint)?
    /// The request that lists the records with these identities, answered as a page of changes
    /// (read by ``page``), or `nil` when the API has none (`?ids=a,b`, PocketBase's
    /// `filter=(id='a' || id='b')`).
    ///
    /// A ``SyncGroup`` looks up with it the parents a child's page refers to that the parent
    /// collection's pull did not bring (a parent outside that collection's scopes), and stores
    /// them in the child's page transaction: the parents a scoped row needs come with it.
    public var lookup: (@Sendable (_ identities: [Entity.ID]) -> any Endpoint)?
    /// The property that holds a record's identity on the server, when the server chooses it
    /// and it is not the local key (PocketBase's `id` beside an app's own key), or `nil` when
    /// the local key is the server's identity.
    ///
    /// The page reader and ``written`` fill it from the server's records; a collection keeps it
    /// on the row and on every queued write, and fills it into the record it gives ``update``,
    /// ``delete`` and ``read``, so a record created anywhere else is changed and deleted at its
    /// own address. It is `nil` only on a record this device created and the server has not
    /// answered yet: ``create`` and the read that confirms a create then address the record
    /// by the identity the app proposes.
    ///
    /// ```swift
    /// serverID: \Book.recordID   // PocketBase's id of the book; the key path names its type
    /// ```
    public var serverID: (any WritableKeyPath<Entity, String?> & Sendable)?
    /// Reads the server's record from a successful write's response body (and from the body of
    /// ``read``), or `nil` when the body carries none (a `204`, an answer that is not the
    /// record). A record read here replaces the local row (server fields such as `updated`) and
    /// becomes the base of later writes.
    ///
    /// Throw when the body is not an answer at all (text that is not JSON, a record cut short):
    /// the write then stays queued with its idempotency key, the run ends with
    /// ``SyncError/Code-swift.struct/badWriteResponse`` naming the record, and a later run sends
    /// it again. A record of another identity than the one written is treated the same way.
    ///
    /// By default: `nil` for an empty body, the body decoded as `Entity` when it is one, `nil`
    /// for other JSON, and an error for a body that is not JSON.
    ///
    /// A ``read`` whose body this gives `nil` for says the record is gone (a soft-deleted record
    /// your reader maps to none, as a `404` does): a local change then meets a deletion. With the
    /// default reader, a read whose JSON is not the record is not taken for a deletion: the write
    /// stays queued and the run ends with ``SyncError/Code-swift.struct/badWriteResponse``.
    public var written: Extraction<Entity?> {
        didSet { readsByDefault = false }
    }
    /// Whether ``written`` is the default reader (a read whose JSON does not decode is then an
    /// error, not a deletion).
    var readsByDefault = false
    /// How an update finds out that the server's record changed since its base.
    public var conflictCheck: ConflictCheck<Entity>
    /// Lists every identity on the server, to delete local rows the server deleted without a
    /// tombstone (``IdentityListing``); `nil` when the change feed reports all deletions.
    public var identities: IdentityListing<Entity>?
    /// Narrows a listing request, of changes (``changes``) or of identities (``identities``), to a
    /// scope (``SyncScope``, ``SyncedCollection/scope(to:)``). By default
    /// (``narrowedByQuery(_:to:)``) each of the scope's parameters is added as a query item; the
    /// PocketBase preset adds a `filter` parameter to the listing's own filter with `&&`.
    public var narrowing: @Sendable (_ request: any Endpoint, _ scope: SyncScope) -> any Endpoint
    /// Whether an error from the changes request means the cursor is no longer valid, so that
    /// the mirror starts one full resync. By default a `410 Gone`, or a `400`/`409` whose body
    /// mentions `syncStateNotFound`, `must-refetch` or an expired token.
    public var isCursorRejected: @Sendable (FetchError) -> Bool
    /// Whether an error from a create means the record already exists (a retried create the
    /// server applied before). By default a `409`, or a `400` whose body says
    /// `validation_not_unique` (PocketBase).
    public var isAlreadyExisting: @Sendable (FetchError) -> Bool
    /// The header that carries each write's idempotency key (the IETF `Idempotency-Key`
    /// draft), or `nil` to send none.
    public var idempotencyKeyHeader: String?
    /// The fields only this device keeps (the server has no place for them: a local note, a mark,
    /// a cached thumbnail), as Persistence's upsert rules: a server record stored over a row, on
    /// a pull and after a write, keeps the row's values of these properties. Empty (the default)
    /// when the server holds every field.
    ///
    /// ```swift
    /// keeping: [.keep(Book.summary)]   // the server's books have no summary
    /// ```
    public var keeping: [ConflictRule<Entity>]
    /// Local rows that stay when the server no longer lists them: the rows the user marked, kept
    /// by a snapshot walk, a resync and an identity reconciliation that would otherwise delete
    /// them; `nil` (the default) to keep none. A row the filter cannot decide (a comparison with a
    /// `nil` property) is not kept. A tombstone the server sends still deletes its row.
    ///
    /// ```swift
    /// retaining: Photo.marked == true   // a marked photo outlives the recent-photos snapshot
    /// ```
    public var retaining: Filter<Entity>?
    /// The backend's batch API, to send a round's writes in one request, or `nil` (the default)
    /// to send each write on its own (``WriteBatch``).
    public var batch: WriteBatch?
    /// The version of the entity's shape that outbox payloads are written in; raise it when
    /// `Entity` changes its stored properties, and upgrade pending writes in a migration
    /// (``PendingWrite/upgrade(collection:from:in:_:)``).
    public var schemaVersion: Int

    /// Describes a collection.
    ///
    /// - Parameters:
    ///   - name: the collection's name in the store and in errors.
    ///   - cursor: how its changes are paged.
    ///   - version: the server's version of a record, or `nil`.
    ///   - changes: the request listing changes from a cursor.
    ///   - page: reads a page of changes.
    ///   - create: the request creating a record, or `nil` when the app cannot create records.
    ///   - update: the request updating a record from its base, or `nil` when the app cannot.
    ///   - delete: the request deleting a record, or `nil` when the app cannot.
    ///   - read: the request reading one record, or `nil`.
    ///   - lookup: the request listing the records of some identities, as a page, or `nil`.
    ///   - serverID: the property holding a record's identity on the server, or `nil` when
    ///     the local key is that identity.
    ///   - written: reads the server's record from a write's response, `nil` when it carries
    ///     none, throwing when it is not an answer; by default the body decoded as `Entity` with
    ///     `PathDecoder` when it is one, `nil` for other JSON or an empty body.
    ///   - conflictCheck: how updates find conflicts; by default none (last write wins).
    ///   - identities: the identity listing for hard deletes, or `nil`.
    ///   - narrowing: narrows a listing request to a scope; by default the scope's parameters
    ///     become query items.
    ///   - isCursorRejected: whether an error means the cursor is invalid.
    ///   - isAlreadyExisting: whether a create's error means the record exists.
    ///   - idempotencyKeyHeader: the idempotency key's header, or `nil`.
    ///   - keeping: the local-only fields a server record stored over a row keeps (upsert rules).
    ///   - retaining: local rows a walk keeps when the server no longer lists them, or `nil`.
    ///   - batch: the backend's batch API, or `nil` to send each write on its own.
    ///   - schemaVersion: the outbox payloads' schema version.
    public init(
        name: String, cursor: CursorKind, version: (@Sendable (Entity) -> RecordVersion?)? = nil,
        changes: @escaping @Sendable (SyncCursor?) -> any Endpoint,
        page: Extraction<ChangePage<Entity>>,
        create: (@Sendable (Entity) -> any Endpoint)? = nil,
        update: (@Sendable (_ entity: Entity, _ base: Entity?) -> any Endpoint)? = nil,
        delete: (@Sendable (_ record: Entity) -> any Endpoint)? = nil,
        read: (@Sendable (_ record: Entity) -> any Endpoint)? = nil,
        lookup: (@Sendable (_ identities: [Entity.ID]) -> any Endpoint)? = nil,
        serverID: (any WritableKeyPath<Entity, String?> & Sendable)? = nil,
        written: Extraction<Entity?>? = nil,
        conflictCheck: ConflictCheck<Entity> = .none,
        identities: IdentityListing<Entity>? = nil,
        narrowing: @escaping @Sendable (_ request: any Endpoint, _ scope: SyncScope) -> any Endpoint =
            RemoteCollection.narrowedByQuery,
        isCursorRejected: @escaping @Sendable (FetchError) -> Bool = RemoteCollection.cursorRejectedByDefault,
        isAlreadyExisting: @escaping @Sendable (FetchError) -> Bool = RemoteCollection.alreadyExistingByDefault,
        idempotencyKeyHeader: String? = "Idempotency-Key",
        keeping: [ConflictRule<Entity>] = [],
        retaining: Filter<Entity>? = nil,
        batch: WriteBatch? = nil,
        schemaVersion: Int = 1
    ) {
        self.batch = batch
        self.keeping = keeping
        self.retaining = retaining
        self.name = name
        self.cursor = cursor
        self.version = version
        self.changes = changes
        self.page = page
        self.create = create
        self.update = update
        self.delete = delete
        self.read = read
        self.lookup = lookup
        self.narrowing = narrowing
        self.serverID = serverID
        self.written = written ?? .custom { data, _ in try SyncJSON.record(Entity.self, from: data) }
        self.readsByDefault = written == nil
        self.conflictCheck = conflictCheck
        self.identities = identities
        self.isCursorRejected = isCursorRejected
        self.isAlreadyExisting = isAlreadyExisting
        self.idempotencyKeyHeader = idempotencyKeyHeader
        self.schemaVersion = schemaVersion
    }

    /// The default test for an invalid cursor: `410 Gone` (Google's `syncToken`), or a
    /// `400`/`409` whose body names an expired or unknown sync state (Microsoft Graph's
    /// `syncStateNotFound`, Electric's `must-refetch`).
    @Sendable public static func cursorRejectedByDefault(_ error: FetchError) -> Bool {
        guard let status = error.statusCode else { return false }
        if status == 410 { return true }
        guard status == 400 || status == 409, let body = error.bodyExcerpt?.lowercased() else { return false }
        return ["syncstatenotfound", "must-refetch", "expired"].contains { body.contains($0) }
    }

    /// The default narrowing of a listing to a scope: `request` with each of the scope's
    /// parameters added as a query item, sorted by name.
    ///
    /// - Parameters:
    ///   - request: a listing request (of changes or identities).
    ///   - scope: the scope.
    /// - Returns: the request, narrowed.
    @Sendable public static func narrowedByQuery(_ request: any Endpoint, to scope: SyncScope) -> any Endpoint {
        SyncRequest(request, adding: scope.queryItems)
    }

    /// The default test for "already exists": a `409`, or a `400` whose body says
    /// `validation_not_unique` (PocketBase's answer to a duplicate id).
    @Sendable public static func alreadyExistingByDefault(_ error: FetchError) -> Bool {
        guard let status = error.statusCode else { return false }
        if status == 409 { return true }
        return status == 400 && (error.bodyExcerpt?.contains("validation_not_unique") ?? false)
    }
}
