/// One delivery of an observed query: the current results and what changed since the last.
public struct QueryChange<Entity: StoredEntity>: Sendable {
    /// The query's results after the commit(s) this delivery covers.
    public let results: [Entity]
    /// The changes since the previous delivery (for the first, every row is inserted).
    public let changes: ChangeSet
    /// Whether this is the first delivery, made when observation starts.
    public let isInitial: Bool
}
