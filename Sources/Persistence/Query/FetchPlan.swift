/// How the store runs a ``FetchRequest``: made by the store's own requests, run by
/// ``ObjectTransaction/fetch(_:)``.
public struct FetchPlan<Result: Sendable>: Sendable {
    let run: @Sendable (ObjectTransaction) throws(PersistenceError) -> Result

    /// A plan that runs `run`: the store's own requests, and those of the package's other
    /// modules that compose them (Sync's records with their sync state).
    package init(_ run: @escaping @Sendable (ObjectTransaction) throws(PersistenceError) -> Result) {
        self.run = run
    }
}
