public import Persistence

/// What becomes of a conflict.
public enum Resolution<Entity: StoredEntity>: Sendable {
    /// The server's version stands: the local change is dropped.
    case keepRemote
    /// The local change stands: it is sent over the server's version.
    case keepLocal
    /// This record replaces both: it becomes the local row and is sent.
    case use(Entity)
    /// Nobody decides now: the write is parked as ``PendingWrite/State-swift.enum/conflicted``
    /// (with base, local and remote) for the app to resolve with ``SyncedCollection/resolve(_:with:)``.
    case park
}
