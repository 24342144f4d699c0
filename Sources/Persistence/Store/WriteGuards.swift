import Locking

/// Entities whose rows only their owner writes: a synced collection's, where a change made around
/// it would never reach the server. A `persist` block that writes such an entity without its
/// owner's leave fails at commit, before anything is stored, with the owner's error.
///
/// `package`: the owner is the `Sync` module. Migrations are not checked (they reshape rows, they
/// do not change records), nor is raw SQL (the store's escape hatch, which names no entity).
final class WriteGuards: Sendable {
    private let refusals = Locked<[String: @Sendable () -> any Error]>([:])

    /// Guards `entityName`; `refusal` makes the error a refused block throws.
    func guardWrites(to entityName: String, _ refusal: @escaping @Sendable () -> any Error) {
        refusals.withLock { $0[entityName] = refusal }
    }

    /// Throws the refusal of the first guarded entity `transaction` wrote without leave.
    func check(_ transaction: ObjectTransaction) throws {
        guard !transaction.isMigration, !transaction.touched.isEmpty else { return }
        let refusals = refusals.withLock { $0 }
        guard !refusals.isEmpty else { return }
        for entity in transaction.touched.sorted() where !transaction.allowed.contains(entity) {
            if let refusal = refusals[entity] { throw refusal() }
        }
    }
}

extension ObjectStore {
    /// Lets only the owner of `entity` write its rows (see `WriteGuards`): a `persist` block that
    /// writes it without ``ObjectTransaction/allowWrites(to:)`` fails at commit with `refusal()`.
    package func guardWrites(to entity: any StoredEntity.Type, _ refusal: @escaping @Sendable () -> any Error) {
        core.guards.guardWrites(to: entity.entityName, refusal)
    }
}

extension ObjectTransaction {
    /// Gives this transaction the owner's leave to write `entity` (see `WriteGuards`).
    package func allowWrites(to entity: any StoredEntity.Type) {
        allowed.insert(entity.entityName)
    }
}
