public import Persistence

/// How an update finds out that the server's record changed since the write's base.
public struct ConflictCheck<Entity: StoredEntity>: Sendable {
    enum Kind: Sendable {
        case none
        case ifMatch(@Sendable (Entity) -> String?)
        case readBeforeWrite
    }
    let kind: Kind

    /// No check: an update overwrites the server's record (last write wins), unless a pull saw
    /// the change first.
    public static var none: ConflictCheck { ConflictCheck(kind: .none) }

    /// The server checks: the update carries `If-Match` with the base's tag, and a `412`
    /// answer is a conflict. No race window.
    ///
    /// - Parameter tag: the entity tag of a record (its `etag` or version).
    /// - Returns: the check.
    public static func ifMatch(_ tag: @escaping @Sendable (Entity) -> String?) -> ConflictCheck {
        ConflictCheck(kind: .ifMatch(tag))
    }

    /// The client checks, for backends without `If-Match` (PocketBase): it reads the record
    /// (``RecordWrites/read``) and compares its version with the base's before sending the
    /// update. A change landing between that read and the update is not seen: the race window
    /// is one round trip.
    public static var readBeforeWrite: ConflictCheck { ConflictCheck(kind: .readBeforeWrite) }
}
