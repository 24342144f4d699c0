/// How the store runs a ``FetchRequest``: made by the store's own requests, run by
/// ``ObjectTransaction/fetch(_:)``.
public struct FetchPlan<Result: Sendable>: Sendable {
    let run: @Sendable (ObjectTransaction) throws(PersistenceError) -> Result

    /// A plan that runs `run` in the transaction that fetches the request: a request of your own
    /// that composes the store's (rows with what another table says of them, as Sync's records
    /// with their sync state).
    ///
    /// ```swift
    /// var plan: FetchPlan<[Book]> { FetchPlan { tx in try tx.fetch(Query<Book>(where: Book.rating >= 4)) } }
    /// ```
    ///
    /// - Parameter run: reads the result.
    public init(_ run: @escaping @Sendable (ObjectTransaction) throws(PersistenceError) -> Result) {
        self.run = run
    }
}
