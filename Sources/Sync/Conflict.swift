public import Persistence

/// A local change and a server change to the same record, both made from the same base.
public struct Conflict<Entity: StoredEntity>: Sendable {
    /// The server's version the local change started from; `nil` for a local create.
    public var base: Entity?
    /// The record as changed locally; `nil` for a local delete.
    public var local: Entity?
    /// The record as it is on the server now; `nil` when the server deleted it.
    public var remote: Entity?
}
