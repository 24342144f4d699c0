/// How the store runs a ``FetchRequest``: made by the store's own requests, run by
/// ``ObjectTransaction/fetch(_:)``.
public struct FetchPlan<Result: Sendable>: Sendable {
    let run: @Sendable (ObjectTransaction) throws(PersistenceError) -> Result
}
