public import FetchKit
import Foundation
public import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a collection's local changes reach the server: the requests that create, update, delete
/// and read a record, how a write's answer is read, and how an update finds a conflict.
///
/// ``rest(at:)`` describes a REST resource by its URL (`POST`, `PATCH` of the changed fields,
/// `DELETE` and `GET` at the record's URL); ``none`` a collection the app never changes;
/// ``init(create:update:delete:read:written:conflictCheck:)`` any other API.
///
/// The mirror adds each write's idempotency key as a header (``idempotencyKeyHeader``) to every
/// create, update and delete.
public struct RecordWrites<Entity: StoredEntity>: Sendable {
    /// The request that creates `entity` on the server, with its client-chosen identity, or `nil`
    /// when the app cannot create records (``SyncedCollection/save(_:as:in:)`` then refuses a new
    /// record with ``SyncError/Code-swift.struct/misuse``).
    public var create: (@Sendable (Entity) -> any Endpoint)? {
        didSet { sendsTheRecordsKeys = false }
    }
    /// The request that updates the server's record to `entity`; `base` is the server's version
    /// the local change started from (`nil` when unknown), to send only the changed fields
    /// (``ChangedFields``) or an `If-Match`. `nil` when the app cannot change records.
    public var update: (@Sendable (_ entity: Entity, _ base: Entity?) -> any Endpoint)? {
        didSet { sendsTheRecordsKeys = false }
    }
    /// Whether ``create`` and ``update`` are ``rest(at:)``'s: a create's body is then the record's
    /// JSON object, as is an update's of a record with no stored row (its changes from none),
    /// and a save checks those keys in the record's encoding instead of building the request.
    /// Replacing either request clears it.
    var sendsTheRecordsKeys = false
    /// The request that deletes `record` on the server, or `nil` when the app cannot delete
    /// records. `record` is the record as this device last had it, with its identity on the
    /// server (``RemoteCollection/serverID``) when the collection has one.
    public var delete: (@Sendable (_ record: Entity) -> any Endpoint)?
    /// The request that reads `record` from the server, or `nil` when the API has none. A
    /// collection uses it to confirm a create that met "already exists", to check for
    /// conflicts before an update (``ConflictCheck/readBeforeWrite``), and to tell a record the
    /// server deleted from a write it refused with `404` while it still has the record.
    public var read: (@Sendable (_ record: Entity) -> any Endpoint)?
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
    private(set) var readsByDefault = true
    /// How an update finds out that the server's record changed since its base.
    public var conflictCheck: ConflictCheck<Entity>
    /// Whether an error from a create means the record already exists (a retried create the
    /// server applied before). By default a `409`, or a `400` whose body says
    /// `validation_not_unique` (PocketBase; ``alreadyExistingByDefault(_:)``).
    public var isAlreadyExisting: @Sendable (FetchError) -> Bool = Self.alreadyExistingByDefault
    /// Why a record cannot be written through these requests (its identity cannot address it), or
    /// `nil` when it can; a save or delete of such a record throws ``SyncError/Code-swift.struct/misuse``.
    var refusal: (@Sendable (Entity) -> String?)?
    /// The header that carries each write's idempotency key (the IETF `Idempotency-Key`
    /// draft), or `nil` to send none. `Idempotency-Key` by default.
    public var idempotencyKeyHeader: String? = "Idempotency-Key"

    /// The writes of an API described request by request.
    ///
    /// - Parameters:
    ///   - create: the request creating a record, or `nil` when the app cannot create records.
    ///   - update: the request updating a record from its base, or `nil` when the app cannot.
    ///   - delete: the request deleting a record, or `nil` when the app cannot.
    ///   - read: the request reading one record, or `nil`.
    ///   - written: reads the server's record from a write's response, `nil` when it carries
    ///     none, throwing when it is not an answer; `nil` (the default) for the default reader
    ///     (see ``written``).
    ///   - conflictCheck: how updates find conflicts; by default none (last write wins).
    public init(
        create: (@Sendable (Entity) -> any Endpoint)? = nil,
        update: (@Sendable (_ entity: Entity, _ base: Entity?) -> any Endpoint)? = nil,
        delete: (@Sendable (_ record: Entity) -> any Endpoint)? = nil,
        read: (@Sendable (_ record: Entity) -> any Endpoint)? = nil, written: Extraction<Entity?>? = nil,
        conflictCheck: ConflictCheck<Entity> = .none
    ) {
        self.create = create
        self.update = update
        self.delete = delete
        self.read = read
        self.written = written ?? .custom { data, _ in try SyncJSON.record(Entity.self, from: data) }
        self.readsByDefault = written == nil
        self.conflictCheck = conflictCheck
    }

    /// No writes: a read-only collection (a feed, a search, a snapshot of someone else's data).
    public static var none: RecordWrites { RecordWrites() }

    /// The default test for "already exists": a `409`, or a `400` whose body says
    /// `validation_not_unique` (PocketBase's answer to a duplicate id).
    @Sendable public static func alreadyExistingByDefault(_ error: FetchError) -> Bool {
        guard let status = error.statusCode else { return false }
        if status == 409 { return true }
        return status == 400 && (error.bodyExcerpt?.contains("validation_not_unique") ?? false)
    }
}
