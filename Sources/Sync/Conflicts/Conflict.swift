public import Persistence

/// A local change and a server change to the same record, both made from the same base, that
/// compete: both sides changed the same property to different values (``fields``), or one side
/// deleted the record while the other changed it.
///
/// Changes to different properties never make a conflict: the collection merges them by itself
/// (the server's record with the local changes on top) and the policy is not asked.
public struct Conflict<Entity: StoredEntity>: Sendable {
    /// The server's version the local change started from; `nil` for a local create.
    public var base: Entity?
    /// The record as changed locally; `nil` for a local delete.
    public var local: Entity?
    /// The record as it is on the server now; `nil` when the server deleted it.
    public var remote: Entity?
    /// The properties (the entity's encoded top-level keys) both sides changed since the base,
    /// to different values: what the policy decides. Empty when one side deleted the record.
    public var fields: Set<String>

    /// A conflict, as a policy meets it.
    ///
    /// - Parameters:
    ///   - base: the version the local change started from, or `nil`.
    ///   - local: the local record, or `nil` for a local delete.
    ///   - remote: the server's record, or `nil` when it was deleted there.
    ///   - fields: the properties both sides changed to different values.
    public init(base: Entity?, local: Entity?, remote: Entity?, fields: Set<String>) {
        self.base = base
        self.local = local
        self.remote = remote
        self.fields = fields
    }
}
