public import Persistence

/// A stored record and its writes the server has not acknowledged yet: where its local changes
/// are.
///
/// Read with ``SyncedCollection/records(_:)``, in any transaction or observation.
public struct SyncedRecord<Entity: StoredEntity>: Sendable {
    /// The stored record, with its local changes.
    public let record: Entity
    /// Its writes not yet acknowledged, in sending order; empty when the server has every change
    /// made here.
    public let writes: [PendingWrite]

    /// Where its changes are: `nil` when it is synced; otherwise the state of its first write,
    /// the one the outbox sends next (the writes behind it wait for it):
    /// ``PendingWrite/State-swift.enum/pending``, ``PendingWrite/State-swift.enum/sending``,
    /// ``PendingWrite/State-swift.enum/rejected`` (the server's reason in that write's
    /// ``PendingWrite/reason``) or ``PendingWrite/State-swift.enum/conflicted`` (the base and the
    /// server's version from that write's ``PendingWrite/base(as:)`` and
    /// ``PendingWrite/remote(as:)``, the local one in ``record``).
    public var state: PendingWrite.State? { writes.first?.state }
}
