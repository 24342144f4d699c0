/// A read ``ObjectTransaction/fetch(_:)`` runs: a ``Query``, an ``IncludingQuery`` (the rows of a
/// query with what each brings) or a ``SectionedQuery`` (rows in sections).
///
/// The store's own request types conform. A type of yours can conform by returning one of their
/// ``plan``s, to name a read your app makes often:
///
/// ```swift
/// struct TopRated: FetchRequest {
///     var plan: FetchPlan<[Book]> { Query<Book>(where: Book.rating >= 4).plan }
/// }
/// ```
public protocol FetchRequest<Result>: Sendable {
    /// What the read returns.
    associatedtype Result: Sendable
    /// How the store runs the read.
    var plan: FetchPlan<Result> { get }
}

extension Query: FetchRequest {
    /// Reads the query's entities, filtered, sorted and windowed in SQL.
    public var plan: FetchPlan<[Entity]> {
        FetchPlan { tx throws(PersistenceError) in try tx.fetchEntities(self) }
    }
}
