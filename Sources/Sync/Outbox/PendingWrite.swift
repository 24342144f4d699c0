public import Foundation
public import Persistence

/// A local write not yet acknowledged by the server: a row of the outbox, stored in the same
/// transaction as the write itself.
///
/// The outbox is an entity like any other: query it, count it, observe it.
///
/// ```swift
/// let rejected = try tx.fetch(Query<PendingWrite>(where: PendingWrite.collection == "notes" && PendingWrite.state == .rejected))
/// ```
///
/// A record with no pending write is synced. Its latest pending write says where its change
/// is: ``State-swift.enum/pending``, ``State-swift.enum/sending``,
/// ``State-swift.enum/rejected`` (with the server's ``reason``) or
/// ``State-swift.enum/conflicted`` (with the base, local and remote versions).
public struct PendingWrite: StoredEntity, Equatable {
    /// What a write does to its record.
    public enum Operation: String, Codable, Sendable, QueryableValue {
        /// Creates the record on the server.
        case create
        /// Updates the server's record.
        case update
        /// Deletes the server's record.
        case delete
    }

    /// Where a write is.
    public enum State: String, Codable, Sendable, QueryableValue {
        /// Waiting to be sent (again, after ``nextAttempt-swift.property`` when a send failed).
        case pending
        /// Sent, its answer not yet applied. A write found in this state at launch is sent again
        /// with the same idempotency key.
        case sending
        /// Refused by the server for good; ``reason`` says why. Later writes of other records go
        /// on; later writes of this record wait until it is retried, edited or discarded.
        case rejected
        /// The server's record changed since the write's base and the collection's
        /// ``ConflictPolicy`` left the choice to the app.
        case conflicted
    }

    /// The write's place in the outbox: its ``sequence-property``, the row's identity in the store.
    public var id: Int64 { sequence }
    /// The write's idempotency key: made before the first send and kept across retries,
    /// relaunches and token refreshes; a write whose content changes after it was sent gets a new
    /// one (the server may hold an answer for the old).
    public internal(set) var key: String
    /// The collection's name (``RemoteCollection/name``).
    public internal(set) var collection: String
    /// The record's identity, as text.
    public internal(set) var recordID: String
    /// What the write does.
    public internal(set) var operation: Operation
    /// Where the write is.
    public internal(set) var state: State
    /// The outbox order, and the write's identity (``id``): writes are sent in this order, one at
    /// a time per record. A write is queued after every write the store's outbox holds, of any
    /// collection (their highest sequence plus one), so the numbers start again at 1 once the
    /// outbox is empty, and a number may be given again once its write is gone: compare
    /// ``key`` too to tell a write from one that took its place.
    public internal(set) var sequence: Int64
    /// How many times the write was sent.
    public internal(set) var attempts: Int
    /// When a failed send may be tried again; `nil` for now.
    public internal(set) var nextAttempt: Date?
    /// The last send's failure, when it failed.
    public internal(set) var lastError: String?
    /// Why the server refused the write, for a rejected one.
    public internal(set) var reason: String?
    /// The schema version the payloads are written in (``RemoteCollection/schemaVersion``).
    public internal(set) var schemaVersion: Int
    /// When the write was made.
    public internal(set) var createdAt: Date
    /// The record's identity, JSON-encoded.
    public internal(set) var identity: Data
    /// The record as written locally (JSON), for a create or update.
    public internal(set) var payload: Data?
    /// The server's version the write started from (JSON), when known: the write's changes are
    /// the properties its ``payload`` changed from it. When the write moves onto a newer server
    /// version (a merge, an earlier write's answer), its changes are made again over that version,
    /// which becomes its base.
    public internal(set) var base: Data?
    /// The server's version that conflicts with the write (JSON), for a conflicted one; `nil`
    /// there means the server deleted the record.
    public internal(set) var remote: Data?
    /// The record as this device had it when the write was made (JSON), never replaced: the
    /// write's first ``base``, kept for the app (what the user changed the record from). `nil`
    /// for a create, and for writes queued before it was kept.
    public internal(set) var origin: Data?

    /// The collection column.
    public static let collection = Field<PendingWrite, String>("collection")
    /// The record identity column.
    public static let recordID = Field<PendingWrite, String>("recordID")
    /// The state column.
    public static let state = Field<PendingWrite, State>("state")
    /// The operation column.
    public static let operation = Field<PendingWrite, Operation>("operation")
    /// The next-attempt column.
    public static let nextAttempt = Field<PendingWrite, Date?>("nextAttempt")
    /// The order column.
    public static let sequence = Field<PendingWrite, Int64>("sequence")
    /// The idempotency key column, for the outbox's own statements (not indexed: rows are found by
    /// their sequence, the key checked beside it).
    static let key = Field<PendingWrite, String>("key")
    /// The attempts column, for the outbox's own bulk statements.
    static let attempts = Field<PendingWrite, Int>("attempts")
    /// The schema version column: writes of another version than the collection's wait.
    static let schemaVersionField = Field<PendingWrite, Int>("schemaVersion")
    /// The column of the server's version kept with a write (``remote``).
    static let remoteVersion = Field<PendingWrite, Data?>("remote")

    /// The store's table name.
    public static let entityName = "SyncPendingWrite"
    /// The identity column: the sequence, so the table is kept in sending order (its rowid).
    public static let idField = sequence
    /// One index, by collection, record, state and next attempt: a record's writes are found by
    /// it, and the outbox's counts by state (the status, what a started collection watches) are
    /// read from it alone, without the rows. The table itself is in sending order. A local write
    /// changes two B-trees (the table, this index): every other index would be one more page
    /// written at each save.
    public static let indexes = [EntityIndex(collection, recordID, state, nextAttempt)]

    /// The record as written locally.
    ///
    /// - Parameter type: the collection's entity type.
    /// - Returns: the record, or `nil` for a delete.
    /// - Throws: ``SyncError`` when the payload does not decode as `type` (a schema change not
    ///   upgraded by a migration).
    public func local<E: StoredEntity>(as type: E.Type) throws(SyncError) -> E? {
        try decoded(payload, as: type, part: "payload")
    }

    /// The server's version the write started from.
    ///
    /// - Parameter type: the collection's entity type.
    /// - Returns: the base, or `nil` when unknown (a create).
    /// - Throws: ``SyncError`` when it does not decode as `type`.
    public func base<E: StoredEntity>(as type: E.Type) throws(SyncError) -> E? {
        try decoded(base, as: type, part: "base")
    }

    /// The server's conflicting version, for a conflicted write.
    ///
    /// - Parameter type: the collection's entity type.
    /// - Returns: the remote version, or `nil` when the server deleted the record.
    /// - Throws: ``SyncError`` when it does not decode as `type`.
    public func remote<E: StoredEntity>(as type: E.Type) throws(SyncError) -> E? {
        try decoded(remote, as: type, part: "remote")
    }

    private func decoded<E: StoredEntity>(_ data: Data?, as type: E.Type, part: String) throws(SyncError) -> E? {
        guard let data else { return nil }
        do {
            return try SyncJSON.decode(E.self, from: data)
        } catch {
            throw SyncError(
                .undecodableWrite, collection: collection, record: recordID,
                "The \(part) of the pending \(operation.rawValue) of \(collection)/\(recordID) (schema version "
                    + "\(schemaVersion)) does not decode as \(E.self): \(error). Upgrade pending writes in the migration "
                    + "that changed \(E.self) (PendingWrite.upgrade(collection:from:in:_:)), or discard the write.")
        }
    }

    /// Rewrites the payloads of a collection's pending writes made before a schema change, in
    /// the migration that makes the change: the alternative to forbidding the change while
    /// writes are pending.
    ///
    /// ```swift
    /// Migration("rename body to text") { tx in
    ///     try tx.renameProperty("body", to: "text", in: Note.self)
    ///     try PendingWrite.upgrade(collection: "notes", from: 1, in: tx) { record in
    ///         record["text"] = record.removeValue(forKey: "body")
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - collection: the collection's name.
    ///   - version: the schema version to upgrade from: writes carrying it are rewritten and
    ///     marked `version + 1`.
    ///   - transaction: the migration's transaction.
    ///   - transform: rewrites one record (payload, base, remote and origin alike), as a JSON object.
    /// - Returns: how many writes were upgraded.
    /// - Throws: ``SyncError`` when a payload is not a JSON object; `PersistenceError` from the store.
    @discardableResult
    public static func upgrade(
        collection: String, from version: Int, in transaction: ObjectTransaction,
        _ transform: (inout [String: Any]) throws -> Void
    ) throws -> Int {
        let writes = try transaction.fetch(Query<PendingWrite>(where: PendingWrite.collection == collection))
        var upgraded = 0
        for var write in writes where write.schemaVersion == version {
            func rewrite(_ data: Data?) throws -> Data? {
                guard let data else { return nil }
                guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                    throw SyncError(
                        .undecodableWrite, collection: collection, record: write.recordID,
                        "The pending write of \(collection)/\(write.recordID) is not a JSON object.")
                }
                try transform(&object)
                return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            }
            write.payload = try rewrite(write.payload)
            write.base = try rewrite(write.base)
            write.remote = try rewrite(write.remote)
            write.origin = try rewrite(write.origin)
            write.schemaVersion = version + 1
            try transaction.update(write)
            upgraded += 1
        }
        return upgraded
    }
}

extension DatabaseValue {
    /// The value as record-identity text.
    var identityText: String {
        switch self {
        case .null: ""
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): value
        case .blob(let value): value.base64EncodedString()
        }
    }
}
