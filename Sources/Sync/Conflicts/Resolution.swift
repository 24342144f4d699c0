public import Persistence

/// What becomes of a conflict (``Conflict``). The first two decide only the conflict's
/// ``Conflict/fields``: the local changes to other properties are sent in either case, and the
/// server's changes to other properties are kept.
public enum Resolution<Entity: StoredEntity>: Sendable {
    /// The server's values of the competing properties stand. A local change to nothing else is
    /// dropped; a local edit of a record the server deleted is dropped with the row; a local
    /// delete of a record the server changed is undone (the row comes back as the server has it).
    case keepRemote
    /// The local values of the competing properties stand and are sent. A local edit of a record
    /// the server deleted creates it again; a local delete deletes the server's record.
    case keepLocal
    /// This record replaces both: it becomes the local row and is sent, whole.
    case use(Entity)
    /// Nobody decides now: the write is parked as ``PendingWrite/State-swift.enum/conflicted``
    /// (with base, local and remote) for the app to resolve with ``SyncedCollection/resolve(_:with:)``.
    case park
}
