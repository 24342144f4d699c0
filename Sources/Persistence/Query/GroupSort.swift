/// One key of the order of a grouped query's groups: an aggregate or a grouping key, and a
/// direction.
///
/// Make one with ``Aggregate/ascending()`` or ``Aggregate/descending()``, or from a sort of a
/// grouping key with ``key(_:)``. Groups that tie on every key are ordered by their grouping keys,
/// smallest first, so the order is complete.
///
/// ```swift
/// sortedBy: [Book.pages.sum().descending(), .key(Book.author.ascending())]
/// ```
public struct GroupSort<Entity: StoredEntity>: Sendable {
    enum Key: Sendable {
        case aggregate(AggregateSpec)
        case key(String, caseInsensitive: Bool, relevance: Bool, related: RelatedSort?)
    }

    let key: Key
    let descending: Bool

    init(_ key: Key, descending: Bool) {
        self.key = key
        self.descending = descending
    }

    /// Sorts groups by one of their grouping keys, as `sort` says.
    ///
    /// A key that groups by folded text (a property with a case-insensitive ``EntityIndex``)
    /// sorts by the folded text. A sort through a to-one relation (`Book.author.ascending(Author.name)`)
    /// sorts groups keyed by that relation, or by a property of the row it refers to. A relevance sort (``Field/relevance``) orders rows, not groups:
    /// the query throws ``PersistenceError/Code-swift.struct/misuse``.
    ///
    /// - Parameter sort: a sort of one of the grouping keys, such as `Book.author.descending()`.
    /// - Returns: the sort key.
    public static func key(_ sort: Sort<Entity>) -> GroupSort {
        GroupSort(
            .key(
                sort.column, caseInsensitive: sort.caseInsensitive, relevance: sort.isRelevance, related: sort.related),
            descending: sort.descending)
    }
}
