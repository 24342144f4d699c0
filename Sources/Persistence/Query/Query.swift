/// A filter, a sort order and a window over an entity's rows: what to fetch, observe, update or
/// delete.
///
/// ```swift
/// let firstPage = Query<Book>(where: Book.rating >= 4, sortedBy: [Book.title.ascending(caseInsensitive: true)])
///     .limit(20)
/// ```
///
/// Every read composes on a query: ``including(_:)`` adds related rows and aggregates of them to
/// each row, ``sectioned(by:)->SectionedQuery<Key,Entity>`` splits the rows into sections, and
/// ``ObjectTransaction/groups(_:by:aggregating:having:sortedBy:limit:)`` groups them.
/// ``ObjectTransaction/fetch(_:)`` runs a query and what composes on it.
public struct Query<Entity: StoredEntity>: Sendable {
    /// The condition rows must meet; `nil` matches all rows.
    public var filter: Filter<Entity>?
    /// The sort keys, most significant first; rows that tie keep insertion order.
    public var sort: [Sort<Entity>]
    /// The most rows to return, or `nil` for all.
    public var limit: Int?
    /// How many matching rows to skip first.
    public var offset: Int

    /// Creates a query.
    ///
    /// - Parameters:
    ///   - filter: the condition rows must meet; `nil` matches all.
    ///   - sort: the sort keys, most significant first.
    ///   - limit: the most rows to return.
    ///   - offset: how many rows to skip.
    public init(
        where filter: Filter<Entity>? = nil, sortedBy sort: [Sort<Entity>] = [], limit: Int? = nil, offset: Int = 0
    ) {
        self.filter = filter
        self.sort = sort
        self.limit = limit
        self.offset = offset
    }

    /// This query, also requiring `filter`.
    ///
    /// - Parameter filter: an additional condition.
    /// - Returns: the narrower query.
    public func filter(_ filter: Filter<Entity>) -> Query {
        var copy = self
        copy.filter = self.filter.map { $0 && filter } ?? filter
        return copy
    }

    /// This query with a new sort order.
    ///
    /// - Parameter sort: the sort keys, most significant first.
    /// - Returns: the re-sorted query.
    public func sorted(by sort: Sort<Entity>...) -> Query {
        var copy = self
        copy.sort = sort
        return copy
    }

    /// This query limited to a window of rows.
    ///
    /// - Parameters:
    ///   - limit: the most rows to return.
    ///   - offset: how many rows to skip.
    /// - Returns: the windowed query.
    public func limit(_ limit: Int, offset: Int = 0) -> Query {
        var copy = self
        copy.limit = limit
        copy.offset = offset
        return copy
    }

    /// Whether the query selects a window of its rows (a limit or an offset).
    var isWindowed: Bool { limit != nil || offset > 0 }

    /// The filter of the rows the query selects: its own, or, for a window, the rows of the window.
    var selection: Filter<Entity>? {
        isWindowed ? Filter(.window(self)) : filter
    }

    /// Throws unless a windowed query has a sort, for a write: which rows it changes would be arbitrary.
    func checkWindowSorted(_ use: String) throws(PersistenceError) {
        if isWindowed && sort.isEmpty {
            throw PersistenceError(
                .invalidQuery,
                "\(use) of \(Entity.entityName) with a limit or an offset needs a sort: which rows it changes would "
                    + "be arbitrary. Sort the query, such as Query<\(Entity.entityName)>(sortedBy: [...]).",
                entity: Entity.entityName)
        }
    }
}
