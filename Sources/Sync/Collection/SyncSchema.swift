public import Persistence

/// The entities a store that holds mirrors needs besides your own: list them when you open it.
///
/// ```swift
/// let store = try ObjectStore(at: url, entities: [Note.self] + SyncSchema.entities)
/// ```
public enum SyncSchema {
    /// The outbox (``PendingWrite``), each collection's cursor and bookkeeping, the records a walk
    /// over a whole collection has seen, the server's deletes a ``SyncGroup`` holds for its
    /// children's pull, which scope listed each row (``SyncScope``), and the account the store
    /// belongs to (``SyncAccounts``).
    public static var entities: [any StoredEntity.Type] {
        [
            PendingWrite.self, SyncCheckpoint.self, SyncSeenRecord.self, SyncHeldDelete.self, SyncScopeMember.self,
            SyncAccountStamp.self,
        ]
    }
}
