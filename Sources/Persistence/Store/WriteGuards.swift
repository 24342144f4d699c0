import Locking

/// Entities whose rows only their owner writes: a synced collection's, where a change made around
/// it would never reach the server. A `persist` block that writes such an entity without its
/// owner's leave fails at commit, before anything is stored, with the owner's error.
///
/// `package`: the owner is the `Sync` module. Checked: the entities a block wrote through the
/// typed API. Not checked: migrations (they reshape rows, they do not change records), raw SQL
/// (the store's escape hatch, which names no entity), and the rows a delete's rules reach in
/// other entities (a cascade names tables it may not touch at all).
final class WriteGuards: Sendable {
    private let refusals = Locked<[String: @Sendable () -> any Error]>([:])

    /// Guards `entityName`; `refusal` makes the error a refused block throws.
    func guardWrites(to entityName: String, _ refusal: @escaping @Sendable () -> any Error) {
        refusals.withLock { $0[entityName] = refusal }
    }

    /// Throws the refusal of the first guarded entity `transaction` wrote without leave.
    func check(_ transaction: ObjectTransaction) throws {
        guard !transaction.isMigration, !transaction.allowsEveryGuardedWrite, !transaction.written.isEmpty else {
            return
        }
        let refusals = refusals.withLock { $0 }
        guard !refusals.isEmpty else { return }
        for entity in transaction.written.sorted() where !transaction.allowed.contains(entity) {
            if let refusal = refusals[entity] { throw refusal() }
        }
    }
}

extension ObjectStore {
    /// The link tables of the store's shorthand many-to-many relations: their rows are the
    /// relations of the rows they link, not rows of their own (Sync's sign-out removes them with
    /// the rows).
    package var linkTables: Set<String> {
        Set(core.schemas.values.flatMap { $0.links.map(\.table) })
    }

    /// Lets only the owner of `entity` write its rows (see `WriteGuards`): a `persist` block that
    /// writes it without ``ObjectTransaction/allowWrites(to:)`` fails at commit with `refusal()`.
    package func guardWrites(to entity: any StoredEntity.Type, _ refusal: @escaping @Sendable () -> any Error) {
        core.guards.guardWrites(to: entity.entityName, refusal)
    }
}

extension ObjectTransaction {
    /// Gives this transaction the owner's leave to write `entity` (see `WriteGuards`).
    package func allowWrites(to entity: any StoredEntity.Type) {
        // The schema's name: an entity's default `entityName` formats its type's name at each call.
        allowed.insert(connection.schemas[ObjectIdentifier(entity)]?.entityName ?? entity.entityName)
    }

    /// Gives this transaction every owner's leave: a transaction the owner runs itself, such as
    /// a pull's page, whose related rows may belong to other guarded entities.
    package func allowEveryGuardedWrite() {
        allowsEveryGuardedWrite = true
    }
}
