/// One key of a sort order: a property, a direction, and whether text ignores case.
///
/// Make sorts with ``Field/ascending(caseInsensitive:)`` and
/// ``Field/descending(caseInsensitive:)``; pass several for a multi-key order. Rows that
/// tie on every key keep the order they were inserted in, so results are deterministic.
/// Without any sort key the order is unspecified.
public struct Sort<Entity: StoredEntity>: Sendable, Hashable {
    /// The column sorted on.
    public let column: String
    /// Whether larger values come first.
    public let descending: Bool
    /// Whether text is compared ignoring ASCII case (SQLite's `NOCASE` collation).
    public let caseInsensitive: Bool
}
