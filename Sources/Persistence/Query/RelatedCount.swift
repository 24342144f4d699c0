/// A count of related rows, compared with a number to make a filter:
/// `Author.books.count >= 3`, `Author.books.count(where: Book.rating > 4) == 0`.
public struct RelatedCount<Source: StoredEntity>: Sendable {
    let make: @Sendable (_ op: String, _ value: Int) -> Filter<Source>

    /// Matches rows with exactly `value` related rows.
    ///
    /// - Parameters:
    ///   - lhs: the count.
    ///   - rhs: the number.
    /// - Returns: the filter.
    public static func == (lhs: RelatedCount, rhs: Int) -> Filter<Source> { lhs.make("=", rhs) }
    /// Matches rows whose number of related rows is not `value`.
    ///
    /// - Parameters:
    ///   - lhs: the count.
    ///   - rhs: the number.
    /// - Returns: the filter.
    public static func != (lhs: RelatedCount, rhs: Int) -> Filter<Source> { lhs.make("!=", rhs) }
    /// Matches rows with fewer than `value` related rows.
    ///
    /// - Parameters:
    ///   - lhs: the count.
    ///   - rhs: the number.
    /// - Returns: the filter.
    public static func < (lhs: RelatedCount, rhs: Int) -> Filter<Source> { lhs.make("<", rhs) }
    /// Matches rows with at most `value` related rows.
    ///
    /// - Parameters:
    ///   - lhs: the count.
    ///   - rhs: the number.
    /// - Returns: the filter.
    public static func <= (lhs: RelatedCount, rhs: Int) -> Filter<Source> { lhs.make("<=", rhs) }
    /// Matches rows with more than `value` related rows.
    ///
    /// - Parameters:
    ///   - lhs: the count.
    ///   - rhs: the number.
    /// - Returns: the filter.
    public static func > (lhs: RelatedCount, rhs: Int) -> Filter<Source> { lhs.make(">", rhs) }
    /// Matches rows with at least `value` related rows.
    ///
    /// - Parameters:
    ///   - lhs: the count.
    ///   - rhs: the number.
    /// - Returns: the filter.
    public static func >= (lhs: RelatedCount, rhs: Int) -> Filter<Source> { lhs.make(">=", rhs) }
}
