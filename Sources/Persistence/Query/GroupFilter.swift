/// A condition on the groups of a grouped query (SQL `HAVING`): a comparison of an
/// ``Aggregate`` with a value, combined with `&&`, `||` and `!`.
///
/// ```swift
/// let prolific = try tx.groups(
///     by: Book.author, aggregating: Aggregate.count(of: Book.self),
///     having: Aggregate.count(of: Book.self) >= 3 && Book.rating.average() > 4)
/// ```
///
/// Every value is bound. A comparison with a group's `nil` (an empty average, a minimum of no
/// values) never matches, as in SQL, except `== nil` and `!= nil`.
public struct GroupFilter<Entity: StoredEntity>: Sendable {
    /// The condition's tree: a filter's, whose leaves here are aggregate comparisons
    /// (`Filter.Node.aggregate`), so `QuerySQL.render` renders both.
    typealias Node = Filter<Entity>.Node

    let node: Node

    init(_ node: Node) { self.node = node }

    /// Both conditions hold.
    ///
    /// - Parameters:
    ///   - lhs: a condition.
    ///   - rhs: another condition.
    /// - Returns: the conjunction.
    public static func && (lhs: GroupFilter, rhs: GroupFilter) -> GroupFilter { GroupFilter(.and(lhs.node, rhs.node)) }

    /// Either condition holds.
    ///
    /// - Parameters:
    ///   - lhs: a condition.
    ///   - rhs: another condition.
    /// - Returns: the disjunction.
    public static func || (lhs: GroupFilter, rhs: GroupFilter) -> GroupFilter { GroupFilter(.or(lhs.node, rhs.node)) }

    /// The condition does not hold.
    ///
    /// - Parameter filter: a condition.
    /// - Returns: the negation (a `nil` aggregate matches neither side, as in SQL).
    public static prefix func ! (filter: GroupFilter) -> GroupFilter { GroupFilter(.not(filter.node)) }
}
