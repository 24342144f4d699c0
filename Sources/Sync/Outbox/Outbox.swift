import Foundation
import Persistence

/// The outbox of one collection: the one owner of its ``PendingWrite`` rows. Every read of
/// pending writes, every transition and how it is stored, every resolution of a conflict
/// (automatic at a pull or a send, or the app's by hand), and how a write leaves are here;
/// nothing else in the module reads or writes the outbox's table.
///
/// A value: the collection's description and policy. Each call works in the caller's
/// transaction.
struct Outbox<Entity: StoredEntity>: Sendable {
    /// The collection's description: its name, schema version, local-only fields, version and
    /// server identity.
    let remote: RemoteCollection<Entity>
    /// How conflicts are resolved.
    let policy: ConflictPolicy<Entity>

    var name: String { remote.name }

    // MARK: Reading

    /// The writes of one record, in order.
    func writes(of recordID: String, in tx: ObjectTransaction) throws -> [PendingWrite] {
        try OutboxTable.writes(ofRecord: recordID, in: name, tx)
    }

    /// The writes of the records `records` lists by record (by their identities' text), read
    /// only when the outbox holds any write (a pull's page: one index probe per record, and the
    /// list itself, are skipped when nothing waits); `nil` when the outbox holds none.
    func writes(ofPage records: () -> [Entity.ID], in tx: ObjectTransaction) throws -> [String: [PendingWrite]]? {
        guard try tx.exists(Query<PendingWrite>(where: PendingWrite.collection == name)) else { return nil }
        return try OutboxTable.writes(of: records().map { $0.databaseValue.identityText }, in: name, tx)
    }

    /// Whether a write waits to be sent.
    func hasUnsent(in tx: ObjectTransaction) throws -> Bool {
        try tx.exists(OutboxTable.unsent(in: name))
    }

    /// The records with a write in the outbox (among `records`, when given): rows a walk or a
    /// prune keeps, records a lookup must not overwrite.
    func recordsWithWrites(among records: [String]? = nil, in tx: ObjectTransaction) throws -> Set<String> {
        var filter = PendingWrite.collection == name
        if let records { filter = filter && PendingWrite.recordID.isIn(records) }
        return Set(try tx.fetch(Query<PendingWrite>(where: filter)).map(\.recordID))
    }

    /// The identities of the records the outbox holds writes of, in any state.
    func identitiesWithWrites(in tx: ObjectTransaction) throws -> [Entity.ID] {
        try tx.fetch(OutboxTable.all(of: name)).map { try SyncJSON.decode(Entity.ID.self, from: $0.identity) }
    }

    /// The first unsent write queued under another schema version than the collection's.
    func firstOutdated(in tx: ObjectTransaction) throws -> PendingWrite? {
        try tx.first(
            Query<PendingWrite>(
                where: PendingWrite.collection == name && PendingWrite.schemaVersionField != remote.schemaVersion
                    && PendingWrite.state.isIn([PendingWrite.State.pending, .sending]),
                sortedBy: [PendingWrite.sequence.ascending()]))
    }

    // MARK: Local writes

    /// Queues a save of `entity` (already addressed; `payload` is its ``encode(_:)``) in `tx`:
    /// joins the record's last write when it takes new changes, else queues a create or an update
    /// behind the record's writes. Returns the record the row becomes.
    func save(
        _ entity: Entity, payload: Data, creating: Bool, stored: Entity?, writes: [PendingWrite],
        in tx: ObjectTransaction
    ) throws -> Entity {
        if var last = writes.last, last.takesNewChanges {
            // Joins the write not yet sent (or refused, or parked: this save is its fix). A parked
            // write's change is made again over the server's version it met: the server's changes
            // to the properties this save leaves alone stay.
            if last.state == .conflicted, last.remote != nil,
                let merged = try? rebased(payload, from: last.base, onto: last.remote),
                let row = try? SyncJSON.decode(Entity.self, from: merged)
            {
                try take(&last, in: tx) {
                    $0.coalesced(payload: merged, schemaVersion: remote.schemaVersion, key: Self.newKey())
                }
                return row
            }
            try take(&last, in: tx) {
                $0.coalesced(payload: payload, schemaVersion: remote.schemaVersion, key: Self.newKey())
            }
        } else {
            // The record as this device had it: what the write's changes are made from.
            let origin = creating ? nil : try writes.last.flatMap { $0.payload ?? $0.base } ?? stored.map(Self.encode)
            try enqueue(
                creating ? .create : .update, recordID: entity.id.databaseValue.identityText, identity: entity.id,
                payload: payload, base: origin, in: tx)
        }
        return entity
    }

    /// Queues the delete of a record (addressed by `known`, the record as last known), joining
    /// the record's last write when it takes new changes.
    func delete(_ id: Entity.ID, known: Entity?, writes: [PendingWrite], in tx: ObjectTransaction) throws {
        if var last = writes.last, last.takesNewChanges {
            try take(&last, in: tx) { $0.deleteJoined(key: Self.newKey()) }
        } else {
            try enqueue(
                .delete, recordID: id.databaseValue.identityText, identity: id, payload: nil,
                base: try known.map(Self.encode), in: tx)
        }
    }

    /// The record as last known from its writes (the newest payload or base), or `nil`.
    func lastKnown(_ writes: [PendingWrite]) throws -> Entity? {
        try writes.last.flatMap { $0.payload ?? $0.base }.map { try SyncJSON.decode(Entity.self, from: $0) }
    }

    private func enqueue(
        _ operation: PendingWrite.Operation, recordID: String, identity: Entity.ID, payload: Data?, base: Data?,
        in tx: ObjectTransaction
    ) throws {
        // After every write the outbox holds: the table's last row.
        let last = try tx.rows(OutboxTable.lastSequenceSQL).first?[0].integerValue
        let write = PendingWrite.queued(
            key: Self.newKey(), collection: name, recordID: recordID, operation: operation,
            sequence: (last ?? 0) + 1, schemaVersion: remote.schemaVersion,
            identity: try SyncJSON.encodeIdentity(identity), payload: payload, base: base)
        try tx.insert(write)
    }

    // MARK: Storing transitions

    /// Takes a transition that may re-key or remove the write, and stores it: only the columns
    /// it changed (``PendingWrite/changes(since:)``), so the outbox's index is written only when
    /// the write's state or next attempt moved.
    func take(
        _ write: inout PendingWrite, in tx: ObjectTransaction,
        _ transition: (inout PendingWrite) -> PendingWrite.Transition
    ) throws {
        let before = write
        switch transition(&write) {
        case .updated:
            let changes = write.changes(since: before)
            guard !changes.isEmpty else { return }
            let query = Query<PendingWrite>(where: PendingWrite.sequence == write.sequence)
            // The write was read in this transaction; were it gone, the whole row's update throws
            // `notFound`, as a transition of a missing write always did.
            if try tx.update(query, set: changes) == 0 { try tx.update(write) }
        case .removed: _ = try tx.delete(PendingWrite.self, id: write.id)
        }
    }

    /// Stores a transition that keeps the write's key.
    func store(_ write: PendingWrite, in tx: ObjectTransaction) throws {
        try tx.update(write)
    }

    /// Removes writes (acknowledged, dropped with their record, discarded).
    func remove(_ writes: [PendingWrite], in tx: ObjectTransaction) throws {
        guard !writes.isEmpty else { return }
        _ = try tx.delete(OutboxTable.these(writes))
    }

    /// Stores a server record in place of the row, keeping the row's local-only fields
    /// (``RemoteCollection/keeping``); under `rules` from ``rules(newerBy:)``, only when the
    /// stored row's version is older. Returns whether it stored the record.
    @discardableResult
    func storeRemote(_ record: Entity, rules: [ConflictRule<Entity>]? = nil, in tx: ObjectTransaction) throws -> Bool {
        try tx.upsert(record, onConflict: rules ?? remote.keeping) != .kept
    }

    /// The rules of ``storeRemote(_:rules:in:)`` that keep the local-only fields and, given the
    /// property holding the record's version, store a record only over an older version.
    func rules(newerBy column: String?) -> [ConflictRule<Entity>] {
        remote.keeping + (column.map { [.onlyIfNewer(Field<Entity, String>($0))] } ?? [])
    }

    /// The record's JSON with sorted keys: written directly when it is flat (``FlatJSON``), else by
    /// `JSONEncoder`; the same bytes either way. A record type `FlatJSON` declined once goes to
    /// `JSONEncoder` at once.
    static func encode(_ entity: Entity) throws -> Data {
        if let flat = FlatJSON.encodeUnlessDeclined(entity) { return flat }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(entity)
    }

    /// A new idempotency key: a random (version 4) UUID in lowercase. Its bytes come from the
    /// system's generator (`getrandom` on Linux): `UUID()` there opens, reads and closes
    /// `/dev/urandom` each time, three system calls on every local write. Written as hex here, with
    /// no allocation but the string's: `uuidString.lowercased()` cost more than the rest of the key.
    static func newKey() -> String {
        var generator = SystemRandomNumberGenerator()
        var uuid: (UInt64, UInt64) = (generator.next(), generator.next())
        return withUnsafeMutableBytes(of: &uuid) { bytes in
            bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
            bytes[8] = (bytes[8] & 0x3F) | 0x80  // the RFC 4122 variant
            return String(unsafeUninitializedCapacity: 36) { text in
                func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x57 + nibble }
                var at = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    text[at] = digit(bytes[index] >> 4)
                    text[at + 1] = digit(bytes[index] & 0x0F)
                    at += 2
                }
                return at
            }
        }
    }
}

/// The outbox's table across collections: the queries the outboxes of one store share (a
/// group's members read each other's; the status and ``SyncedRecords`` read a collection's by its
/// name). Only ``Outbox`` and these read the table.
enum OutboxTable {
    /// The collection's writes, in sending order (the public ``SyncedCollection/pendingWrites``).
    static func all(of collection: String) -> Query<PendingWrite> {
        Query(where: PendingWrite.collection == collection, sortedBy: [PendingWrite.sequence.ascending()])
    }

    /// The writes of `collection` still to send: pending, or sending when a run stopped before
    /// their answers were settled. What a push drains, and the status's pending count.
    static func unsent(in collection: String) -> Query<PendingWrite> {
        Query(
            where: PendingWrite.collection == collection
                && PendingWrite.state.isIn([PendingWrite.State.pending, .sending]))
    }

    /// The writes of these records, in order, by record; every record's when `records` is `nil`.
    ///
    static func writes(
        of records: [String]?, in collection: String, _ tx: ObjectTransaction
    ) throws(PersistenceError) -> [String: [PendingWrite]] {
        var filter = PendingWrite.collection == collection
        if let records { filter = filter && PendingWrite.recordID.isIn(records) }
        return Dictionary(
            grouping: try tx.fetch(Query<PendingWrite>(where: filter, sortedBy: [PendingWrite.sequence.ascending()])),
            by: \.recordID)
    }

    /// These writes, as they were read: found by their sequences (the table's rowids), each
    /// still holding its key, so a write that took the number of one gone since is not matched,
    /// and neither is one re-keyed since.
    static func these(_ writes: [PendingWrite]) -> Query<PendingWrite> {
        Query(where: PendingWrite.sequence.isIn(writes.map(\.sequence)) && PendingWrite.key.isIn(writes.map(\.key)))
    }

    // MARK: Reading across a group

    /// The states of a write not yet acknowledged: what a related record's write waits behind.
    private static var notAcknowledgedStates: [PendingWrite.State] { [.pending, .sending, .rejected, .conflicted] }

    /// Whether `collection`'s outbox holds a create not yet acknowledged.
    static func holdsUnsentCreate(in collection: String, _ tx: ObjectTransaction) throws -> Bool {
        try tx.exists(
            Query<PendingWrite>(
                where: PendingWrite.collection == collection && PendingWrite.operation == .create
                    && PendingWrite.state.isIn(notAcknowledgedStates)))
    }

    /// The creates of these records in `collection` not yet acknowledged.
    static func unsentCreates(
        of records: [String], in collection: String, _ tx: ObjectTransaction
    ) throws -> [PendingWrite] {
        try tx.fetch(
            Query<PendingWrite>(
                where: PendingWrite.collection == collection && PendingWrite.recordID.isIn(records)
                    && PendingWrite.operation == .create && PendingWrite.state.isIn(notAcknowledgedStates)))
    }

    /// The writes of `collection` not yet acknowledged.
    static func notAcknowledged(of collection: String, _ tx: ObjectTransaction) throws -> [PendingWrite] {
        try tx.fetch(
            Query<PendingWrite>(
                where: PendingWrite.collection == collection && PendingWrite.state.isIn(notAcknowledgedStates)))
    }

    // MARK: Across the store (an account's sign-out)

    /// The collections the outbox holds writes of.
    static func collections(in tx: ObjectTransaction) throws -> Set<String> {
        Set(
            try tx.rows("SELECT DISTINCT \"\(PendingWrite.collection.name)\" FROM \"\(PendingWrite.entityName)\"")
                .compactMap { $0[0].textValue })
    }

    /// How many writes of every collection the server has not acknowledged.
    static func notAcknowledgedCount(in tx: ObjectTransaction) throws -> Int {
        try tx.count(Query<PendingWrite>(where: PendingWrite.state.isIn(notAcknowledgedStates)))
    }

    /// The status's counts of the outbox.
    static func count(_ collection: String, into status: inout SyncStatus, in tx: ObjectTransaction) throws {
        let outbox = PendingWrite.collection == collection
        status.pendingCount = try tx.count(unsent(in: collection))
        status.rejectedCount = try tx.count(Query<PendingWrite>(where: outbox && PendingWrite.state == .rejected))
        status.conflictedCount = try tx.count(Query<PendingWrite>(where: outbox && PendingWrite.state == .conflicted))
        status.nextRetry = try tx.first(
            Query<PendingWrite>(
                where: outbox && PendingWrite.state == .pending && PendingWrite.nextAttempt.isNotNil,
                sortedBy: [PendingWrite.nextAttempt.ascending()]))?.nextAttempt
    }

    /// What a started collection watches: how many writes of these collections wait to be sent.
    static func waitingCount(of collections: [String], in tx: ObjectTransaction) throws -> Int {
        try tx.count(
            Query<PendingWrite>(where: PendingWrite.collection.isIn(collections) && PendingWrite.state == .pending))
    }

    /// A record's writes in order (``Outbox/writes(of:in:)``). Every local write reads them: one
    /// statement the connection keeps, not a query rendered each time, and the few writes of one
    /// record put in order here rather than by SQLite's sorter.
    static func writes(
        ofRecord recordID: String, in collection: String, _ tx: ObjectTransaction
    ) throws
        -> [PendingWrite]
    {
        var writes = try tx.fetch(PendingWrite.self, sql: recordWritesSQL, [.text(collection), .text(recordID)])
        if writes.count > 1 { writes.sort { $0.sequence < $1.sequence } }
        return writes
    }

    /// A record's writes, from the index by record (in the index's order: by state, then by when
    /// their next attempt is due). Built once: the text is the statement cache's key.
    static let recordWritesSQL =
        "SELECT * FROM \"\(PendingWrite.entityName)\" WHERE \"\(PendingWrite.collection.name)\" = ?1 AND "
        + "\"\(PendingWrite.recordID.name)\" = ?2"

    /// The highest sequence the outbox holds: the table's last row (the sequence is its rowid).
    /// Every local write reads it, so it is one cached statement rather than an aggregate query
    /// built at each write.
    static let lastSequenceSQL =
        "SELECT max(\"\(PendingWrite.sequence.name)\") FROM \"\(PendingWrite.entityName)\""

    /// A window of a collection's writes in sending order: after a sequence (`?2`), at most `?3`
    /// of them. The table is read in its own order (`NOT INDEXED`: else SQLite takes the index by
    /// record for the collection and sorts all its writes for every window).
    static let windowSQL =
        "SELECT * FROM \"\(PendingWrite.entityName)\" NOT INDEXED WHERE \"\(PendingWrite.collection.name)\" = ?1 "
        + "AND \"\(PendingWrite.sequence.name)\" > ?2 ORDER BY \"\(PendingWrite.sequence.name)\" LIMIT ?3"

}
