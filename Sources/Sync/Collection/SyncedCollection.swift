public import FetchKit
import Foundation
import Locking
public import Persistence

/// A remote collection mirrored into a store: pulls bring the server's changes in, page by page,
/// each page in one transaction with its cursor; local writes go out through a durable outbox,
/// each exactly once as far as HTTP allows.
///
/// ```swift
/// let mirror = try SyncedCollection(notes, store: store, client: client)
/// try await store.context.persist { tx in
///     try mirror.save(Note(id: "n1", title: "Groceries", updated: ""), in: tx)   // the row changes now
/// }
/// try await mirror.sync()     // sends the write, then pulls the server's changes
/// ```
///
/// **Writes.** ``save(_:as:in:)`` and ``delete(_:in:)`` write the row and its outbox entry
/// (``PendingWrite``) in the caller's transaction: both commit or neither does. Writes to one
/// record coalesce while unsent (create then update is one create, create then delete is
/// nothing). Each entry has its idempotency key before the first send.
///
/// **Runs.** ``sync()`` sends the outbox, pulls, and sends what the pull's rebase left; two calls
/// at once share one run. ``start(following:)`` sends the outbox at once (writes left by an earlier
/// launch), again after each local write, and retries failed sends on the client's backoff;
/// given the server's ``ChangeNotifications``, it pulls at each. Otherwise run `sync()`
/// periodically with a `PeriodicFetcher`.
///
/// **Kills.** A kill at any point loses nothing and doubles nothing: a page and its cursor commit
/// together, a write found mid-send at launch is sent again with its key, and the server
/// deduplicates it by that key, or by the natural idempotency of client-chosen identities (a
/// create that meets "already exists" is confirmed, a delete that meets `404` is done once a read finds the record gone).
public final class SyncedCollection<Entity: StoredEntity>: Sendable {
    /// The collection's description.
    public let remote: RemoteCollection<Entity>
    /// The store the collection is mirrored into.
    public let store: ObjectStore
    /// The client that sends the requests.
    public let client: FetchClient
    /// How conflicts are resolved.
    public let conflicts: ConflictPolicy<Entity>
    /// How many writes of different records are sent at once.
    public let concurrency: Int
    /// The collection's runs, triggers and status, alone (in a group, the group's runner runs it).
    let runner: SyncRunner
    /// The collection's status (a group's runs show in it too).
    var engine: SyncEngine { runner.engine }
    /// The collection's outbox: every read and write of its pending writes.
    let outbox: Outbox<Entity>
    /// The collection's group, once it joins one (``SyncGroup``).
    let membership = Locked<Membership?>(nil)
    /// Whether ``start(following:)`` started the collection's own triggers (outside a group).
    let startedAlone = Locked(false)
    /// Where the last incremental run ended, when its last page's transaction left nothing to
    /// send: the next run starts from it instead of a read, while no commit touched the sync
    /// tables since (see ``SyncedCollection/prepare()``).
    let lastEnd = Locked<RememberedStart?>(nil)
    /// When a pull last finished without a transaction of its own (a quiet page), for the status:
    /// the stored date is at most a minute older.
    let quietPull = Locked<Date?>(nil)
    /// The property the collection's version is the value of, once a page's record showed it: a
    /// pull then compares versions in its upserts instead of reading the stored rows.
    let versionColumn = Locked<VersionColumn>(.unprobed)

    /// Mirrors a collection into a store.
    ///
    /// - Parameters:
    ///   - remote: the collection's description.
    ///   - store: the store to keep it in.
    ///   - client: the client to send requests with (its adapters, authenticator, retries).
    ///   - conflicts: the conflict policy; server wins by default.
    ///   - concurrency: how many writes of different records are sent at once (at least 1); 4
    ///     by default. Writes of one record are always sent one after another.
    /// - Throws: ``SyncError`` with ``SyncError/Code-swift.struct/misuse`` for a description that
    ///   cannot work, naming what is missing: a keyset cursor without
    ///   ``ChangeFeed/version``, or ``ConflictCheck/readBeforeWrite`` without
    ///   ``RecordWrites/read``; and for a signed-in account's store with a client that is not the
    ///   account's, an account's client with a store that is not the account's, or an account that
    ///   began signing out (``SyncAccounts``).
    public init(
        _ remote: RemoteCollection<Entity>, store: ObjectStore, client: FetchClient,
        conflicts: ConflictPolicy<Entity> = .serverWins, concurrency: Int = 4
    ) throws(SyncError) {
        if case .keyset = remote.changes.cursor, remote.changes.version == nil {
            throw SyncError(
                .misuse, collection: remote.name,
                "The keyset cursor of \(remote.name) needs ChangeFeed.version (the records' updated timestamp or "
                    + "sequence): it is what the cursor advances by.")
        }
        if case .readBeforeWrite = remote.writes.conflictCheck.kind, remote.writes.read == nil,
            remote.writes.update != nil
        {
            throw SyncError(
                .misuse, collection: remote.name,
                "The conflict check of \(remote.name) reads each record before updating it, but the collection has no "
                    + "read request (RecordWrites.read); give one, or choose another ConflictCheck.")
        }
        self.remote = remote
        self.store = store
        self.client = client
        self.conflicts = conflicts
        self.concurrency = max(1, concurrency)
        self.outbox = Outbox(remote: remote, policy: conflicts)
        self.runner = SyncRunner(collections: [remote.name], store: store)
        // An account's store syncs with the account's client only, and its client syncs its store
        // only (``SyncAccount``).
        if let account = SyncAccount.owning(store) {
            try account.adopt(self, client: client)
        } else if let account = SyncAccount.using(client) {
            throw SyncError(
                .misuse, collection: remote.name,
                "The client of the account \(account.id) sends that account's writes only: make \(remote.name) on "
                    + "its store (SyncAccount.store), or give it a client of its own.")
        }
        // A collection the app changes: a change made around it would never reach the server. (A
        // collection without update and delete requests keeps its rows' later changes local.)
        if remote.writes.update != nil || remote.writes.delete != nil {
            let name = remote.name
            store.guardWrites(to: Entity.self) {
                SyncError(
                    .refusedWrite, collection: name,
                    "\(Entity.self) rows are kept by the synced collection \(name): a write made straight through the "
                        + "store would never reach the server, so the persist block was rolled back. Write them with "
                        + "SyncedCollection.save(_:as:in:) and delete(_:in:) in the block; keep local-only fields with "
                        + "RemoteCollection.keeping.")
            }
        }
        runner.attach([self])
    }

    // MARK: Local writes

    /// Writes `entity` locally and queues it for the server, in `transaction`: by default a
    /// create when no row has its identity, else an update from the row's server version.
    ///
    /// Say which when the row does not tell: `as: .create` for a row the server has never had
    /// (one a library wrote before it ever synced), `as: .update` for a record the server has
    /// that this device holds no row of. While earlier writes of the record wait unsent, the save
    /// joins them as it would by default.
    ///
    /// ```swift
    /// for book in booksWrittenBeforeSync { try books.save(book, as: .create, in: tx) }
    /// ```
    ///
    /// Save the record as it should be stored, without writing its row first in the same block:
    /// the row as the save finds it is what the write's changes are made from (its
    /// ``PendingWrite/base``).
    ///
    /// - Parameters:
    ///   - entity: the record to write (with its client-chosen identity, for a create).
    ///   - operation: `.create` or `.update`; `nil` (the default) to decide by the stored row.
    ///   - transaction: the transaction of a `persist` block; the row and its outbox entry commit
    ///     with it.
    /// - Throws: ``SyncError`` with ``SyncError/Code-swift.struct/refusedWrite`` for a body with a
    ///   non-idempotent operator (a key ending in `+` or `-`), ``SyncError/Code-swift.struct/misuse``
    ///   for `as: .delete` (``delete(_:in:)`` deletes); `PersistenceError` from the store.
    ///
    /// Rows of a collection the app writes are written only this way (and by ``delete(_:in:)``):
    /// a `persist` block that writes them straight through the transaction, and not through the
    /// collection, is rolled back at its end with a ``SyncError`` (``SyncError/Code-swift.struct/refusedWrite``)
    /// that says so, since that change would never reach the server. Writes of the same block
    /// made beside a `save` of the collection go with it.
    public func save(
        _ entity: Entity, as operation: PendingWrite.Operation? = nil, in transaction: ObjectTransaction
    ) throws {
        let recordID = entity.id.databaseValue.identityText
        if operation == .delete {
            throw SyncError(
                .misuse, collection: remote.name, record: recordID,
                "A save of \(remote.name)/\(recordID) cannot be a delete; call delete(_:in:).")
        }
        try refuseUnaddressable(entity, recordID)
        let stored = try transaction.fetch(Entity.self, id: entity.id)
        let writes = try self.writes(of: recordID, in: transaction)
        // The record keeps its identity on the server, whatever the app's copy carries.
        let entity = try addressed(entity, stored: stored, writes: writes)
        // What a new write of the record would be: as the app says, else by the stored row.
        let creating =
            writes.isEmpty
            ? (operation.map { $0 == .create } ?? (stored == nil))
            : (stored == nil && writes.last?.operation != .create)
        // The record's JSON, encoded once: the write's payload and, when the request would send
        // exactly its keys (the REST preset's create, or its update of a record with no stored
        // row), what the operator check reads. Any other request is built to read its body (the
        // preset's update of a stored row sends the fields that differ from it, a `null` for one
        // the record no longer has).
        let payload = try Outbox<Entity>.encode(entity)
        let sendsThePayloadsKeys = remote.writes.sendsTheRecordsKeys && (creating || stored == nil)
        try refuseNonIdempotent(
            sendsThePayloadsKeys
                ? payload : try writeEndpoint(entity, creating: creating, stored: stored, recordID).body?.bytes,
            recordID)
        transaction.allowWrites(to: Entity.self)
        try transaction.upsert(
            try outbox.save(
                entity, payload: payload, creating: creating, stored: stored, writes: writes, in: transaction))
    }

    /// Deletes the record locally and queues the delete for the server, in `transaction`.
    ///
    /// A record created locally and not yet sent is simply dropped, with its outbox entry. A
    /// record this device has neither a row nor a write of is not known here: nothing is queued.
    ///
    /// - Parameters:
    ///   - id: the record's identity.
    ///   - transaction: the transaction of a `persist` block.
    /// - Throws: `PersistenceError` from the store.
    public func delete(_ id: Entity.ID, in transaction: ObjectTransaction) throws {
        var deleting = Set<String>()
        try delete(id, in: transaction, deleting: &deleting)
    }

    /// ``delete(_:in:)``, within the deletes a parent's delete rules are making: `deleting` holds
    /// the records (`collection/id`) being deleted, so rows that refer to each other end.
    func delete(_ id: Entity.ID, in transaction: ObjectTransaction, deleting: inout Set<String>) throws {
        let recordID = id.databaseValue.identityText
        guard remote.writes.delete != nil else { throw readOnly("delete", recordID, "delete") }
        guard deleting.insert("\(remote.name)/\(recordID)").inserted else { return }
        let stored = try transaction.fetch(Entity.self, id: id)
        let writes = try self.writes(of: recordID, in: transaction)
        guard stored != nil || !writes.isEmpty else { return }
        if let stored { try refuseUnaddressable(stored, recordID) }
        // The children in the group hear of the delete first, by the relation's rule.
        try applyDeleteRules(of: id, in: transaction, deleting: &deleting)
        transaction.allowWrites(to: Entity.self)
        // The record as last known, with its identity on the server: what a new delete addresses
        // (a delete that joins the last write needs none).
        let joins = writes.last?.takesNewChanges ?? false
        let known =
            joins
            ? nil : try (outbox.lastKnown(writes) ?? stored).map { try addressed($0, stored: stored, writes: writes) }
        try outbox.delete(id, known: known, writes: writes, in: transaction)
        _ = try transaction.delete(Entity.self, id: id)
    }

    // MARK: Reading the state

    /// The query of this collection's outbox, in sending order: per record, its first write's
    /// state is the record's (no write: synced; ``records(_:)`` reads the records with it). Fetch
    /// it, count it, or observe it as any query.
    ///
    /// ```swift
    /// let waiting = try tx.fetch(mirror.pendingWrites.filter(PendingWrite.state == .pending))
    /// ```
    public var pendingWrites: Query<PendingWrite> {
        OutboxTable.all(of: remote.name)
    }

    /// The records `query` selects, each with its sync state (``SyncedRecord``): a request to
    /// fetch or observe as any read.
    ///
    /// ```swift
    /// let pending = try tx.fetch(mirror.records(Query<Note>())).filter { $0.state != nil }
    /// ```
    ///
    /// - Parameter query: the records to read, filtered, sorted and windowed as any query.
    /// - Returns: the request.
    public func records(_ query: Query<Entity>) -> SyncedRecords<Entity> {
        SyncedRecords(query: query, collection: remote.name)
    }

    // MARK: Internals

    /// `record` with its identity on the server (``RemoteCollection/serverID``) filled in when
    /// it carries none: from the stored row, else from the record's queued writes.
    func addressed(_ record: Entity, stored: Entity?, writes: [PendingWrite]) throws -> Entity {
        try withServerID(record) { key in
            if let known = stored?[keyPath: key] { return known }
            for write in writes.reversed() {
                if let known = try write.base(as: Entity.self)?[keyPath: key]
                    ?? write.local(as: Entity.self)?[keyPath: key]
                {
                    return known
                }
            }
            return nil
        }
    }

    /// `record` with its identity on the server (``RemoteCollection/serverID``) filled in from
    /// `known` when the collection has one and `record` carries none; `known` is asked only then.
    func withServerID(
        _ record: Entity, from known: (any WritableKeyPath<Entity, String?> & Sendable) throws -> String?
    ) throws -> Entity {
        guard let key = remote.serverID, record[keyPath: key] == nil, let id = try known(key) else { return record }
        var copy = record
        copy[keyPath: key] = id
        return copy
    }

    func writes(of recordID: String, in transaction: ObjectTransaction) throws -> [PendingWrite] {
        try outbox.writes(of: recordID, in: transaction)
    }

    /// The create or update request a save of `entity` will send, or the misuse error of a
    /// collection that has none.
    private func writeEndpoint(
        _ entity: Entity, creating: Bool, stored: Entity?, _ recordID: String
    ) throws(SyncError) -> any Endpoint {
        if creating {
            guard let create = remote.writes.create else { throw readOnly("create", recordID, "create") }
            return create(entity)
        }
        guard let update = remote.writes.update else { throw readOnly("change", recordID, "update") }
        return update(entity, stored)
    }

    /// The error of a write the collection has no request for.
    private func readOnly(_ verb: String, _ recordID: String, _ property: String) -> SyncError {
        SyncError(
            .misuse, collection: remote.name, record: recordID,
            "\(remote.name) has no request to \(verb) a record (RecordWrites.\(property) is nil), so the server "
                + "would never hear of a change to \(remote.name)/\(recordID); give the collection its \(property) "
                + "request. (Fields only this device keeps are saved like the others: the update request sends what "
                + "the server holds, and RemoteCollection.keeping keeps the rest across pulls.)")
    }

    /// Refuses a record the writes cannot address (``RecordWrites/rest(at:)`` and an identity that
    /// is not one path segment).
    private func refuseUnaddressable(_ entity: Entity, _ recordID: String) throws(SyncError) {
        guard let reason = remote.writes.refusal?(entity) else { return }
        throw SyncError(
            .misuse, collection: remote.name, record: recordID,
            "\(remote.name)/\(recordID) cannot be written: \(reason), so its URL would address another resource. "
                + "Give the record another identity, or describe the collection's writes request by request.")
    }

    /// Refuses a write whose request body (`body`) has a key ending in an operator (`+`, `-`).
    private func refuseNonIdempotent(_ body: Data?, _ recordID: String) throws {
        // A key ending in `+` or `-` is written `+"` or `-"`: a body without either has none, and is
        // not parsed.
        guard let bytes = body, Self.mayHoldOperator(bytes),
            let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any]
        else { return }
        if let key = object.keys.sorted().first(where: { $0.hasSuffix("+") || $0.hasSuffix("-") }) {
            throw SyncError(
                .refusedWrite, collection: remote.name, record: recordID,
                "The write of \(remote.name)/\(recordID) uses the operator \"\(key)\", which the server applies again "
                    + "on every retry; send the resulting value instead.")
        }
    }

    /// Whether `bytes` hold `+"` or `-"`, as a JSON key ending in an operator does, or a `\u`
    /// escape, which can write either. A body that is not UTF-8 (a byte-order mark, or a NUL in
    /// its first bytes, as UTF-16 and UTF-32 have) is always parsed.
    private static func mayHoldOperator(_ bytes: Data) -> Bool {
        if let first = bytes.first, first == 0xFE || first == 0xFF || bytes.prefix(4).contains(0) { return true }
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == UInt8(ascii: "\""), previous == UInt8(ascii: "+") || previous == UInt8(ascii: "-") {
                return true
            }
            if byte == UInt8(ascii: "u"), previous == UInt8(ascii: "\\") { return true }
            previous = byte
        }
        return false
    }

    static func checkpoint(_ collection: String, in transaction: ObjectTransaction) throws -> SyncCheckpoint {
        try transaction.fetch(SyncCheckpoint.self, id: collection)
            ?? SyncCheckpoint(
                id: collection, cursor: nil, walk: nil, lastPull: nil, lastPush: nil, lastReconcile: nil,
                generations: 0)
    }

}
