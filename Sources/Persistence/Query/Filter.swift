/// A condition on an entity's rows, rendered to SQL with every value bound.
///
/// Build filters from a ``QueryExpression`` (a ``Field``, a ``RelatedField``, a ``RelatedCount``)
/// with `==`, `!=`, `<`, `<=`, `>`, `>=`, ``QueryExpression/isIn(_:)`` and
/// ``QueryExpression/isNil``, or from a text field with ``Field/equals(_:caseSensitive:)``,
/// ``Field/contains(_:caseSensitive:)``, ``Field/hasPrefix(_:caseSensitive:)`` and
/// ``Field/hasSuffix(_:caseSensitive:)``, and combine them with `&&`, `||` and `!`.
public struct Filter<Entity: StoredEntity>: Sendable {
    indirect enum Node: Sendable {
        case constant(Bool)
        case compare(column: String, op: String, value: DatabaseValue)
        case inList(column: String, values: [DatabaseValue])
        case like(column: String, pattern: String)
        case text(column: String, match: TextMatch, text: String, caseSensitive: Bool)
        case fullText(column: String?, query: String)
        case isNull(column: String, negated: Bool)
        case and(Node, Node)
        case or(Node, Node)
        case not(Node)
        /// A condition through a relation, rendered against the related entity's schema.
        case related(RelatedFilter)
        /// The rows of a query's window: those its filter matches, in its order, from its offset,
        /// at most its limit.
        case window(Query<Entity>)
        /// A comparison of a group's aggregate with a value: a leaf of a `GroupFilter`'s tree
        /// (SQL `HAVING`) only, which shares this tree so that one renderer serves both.
        case aggregate(AggregateSpec, op: String, value: DatabaseValue)
    }

    /// The tables besides the entity's own that the filter reads through its relations.
    var relatedTables: Set<String> {
        func collect(_ node: Node, into result: inout Set<String>) {
            switch node {
            case .related(let related): result.formUnion(related.tables)
            case .and(let lhs, let rhs), .or(let lhs, let rhs):
                collect(lhs, into: &result)
                collect(rhs, into: &result)
            case .not(let inner): collect(inner, into: &result)
            case .window(let query):
                if let filter = query.filter { collect(filter.node, into: &result) }
                for key in query.sort where key.related != nil { result.insert(key.related?.targetName ?? "") }
            default: break
            }
        }
        var result: Set<String> = []
        collect(node, into: &result)
        return result
    }

    let node: Node

    /// The entity's own columns the filter reads, or `nil` when it reads more than columns can
    /// say (a relation, whose reference it reads inside a subquery, or the full-text index).
    var columns: Set<String>? {
        func collect(_ node: Node, into result: inout Set<String>?) {
            switch node {
            case .constant: break
            case .compare(let column, _, _), .inList(let column, _), .like(let column, _),
                .text(let column, _, _, _), .isNull(let column, _):
                result?.insert(column)
            case .fullText, .related, .window, .aggregate: result = nil
            case .and(let lhs, let rhs), .or(let lhs, let rhs):
                collect(lhs, into: &result)
                collect(rhs, into: &result)
            case .not(let inner): collect(inner, into: &result)
            }
        }
        var result: Set<String>? = []
        collect(node, into: &result)
        return result
    }

    /// The full-text matches of this filter, for relevance sorts.
    func fullTextMatches() -> [(column: String?, query: String)] {
        func collect(_ node: Node, into result: inout [(column: String?, query: String)]) {
            switch node {
            case .fullText(let column, let query): result.append((column, query))
            case .and(let lhs, let rhs), .or(let lhs, let rhs):
                collect(lhs, into: &result)
                collect(rhs, into: &result)
            case .not(let inner): collect(inner, into: &result)
            default: break
            }
        }
        var result: [(column: String?, query: String)] = []
        collect(node, into: &result)
        return result
    }

    init(_ node: Node) { self.node = node }

    /// Matches every row.
    public static var all: Filter<Entity> { Filter(.constant(true)) }
    /// Matches no row.
    public static var nothing: Filter<Entity> { Filter(.constant(false)) }

    /// Matches rows whose full-text indexed properties, taken together, match a full-text query:
    /// `Filter<Book>.matches("herbert dune")` finds a book whose title holds "Dune" and whose
    /// authors hold "Herbert". The query syntax is that of ``Field/matches(_:)``; sort by
    /// ``Field/relevance`` of any indexed field for the best matches first.
    ///
    /// - Parameter query: the full-text query.
    /// - Returns: the filter.
    public static func matches(_ query: String) -> Filter<Entity> {
        Filter(.fullText(column: nil, query: query))
    }

    /// Both filters match.
    ///
    /// - Parameters:
    ///   - lhs: a filter.
    ///   - rhs: another filter.
    /// - Returns: the conjunction.
    public static func && (lhs: Filter, rhs: Filter) -> Filter { Filter(.and(lhs.node, rhs.node)) }

    /// Either filter matches.
    ///
    /// - Parameters:
    ///   - lhs: a filter.
    ///   - rhs: another filter.
    /// - Returns: the disjunction.
    public static func || (lhs: Filter, rhs: Filter) -> Filter { Filter(.or(lhs.node, rhs.node)) }

    /// The filter does not match.
    ///
    /// - Parameter filter: a filter.
    /// - Returns: the negation (`NULL` values never match either side, as in SQL).
    public static prefix func ! (filter: Filter) -> Filter { Filter(.not(filter.node)) }
}

/// How a text filter compares.
enum TextMatch: Sendable {
    case equals, contains, prefix, suffix
}
