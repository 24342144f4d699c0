/// Everything a finished fan-out learned: the aggregate outcome and each item's result.
///
/// `results` and `itemOutcomes` are in the order of the input, whatever order the items
/// finished in.
public struct FanOutReport<Value: Sendable>: Sendable {
    /// The one outcome of the whole fan-out, decided by its ``FailureRule``.
    public var outcome: RefreshOutcome
    /// Each item's value or error, in input order. Items never started because the fan-out
    /// was cancelled hold a `CancellationError`.
    public var results: [Result<Value, any Error>]
    /// Each item's outcome, in input order.
    public var itemOutcomes: [ItemOutcome]
    /// Whether the fan-out was cancelled before every item finished.
    public var wasCancelled: Bool

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - outcome: the aggregate outcome.
    ///   - results: each item's value or error, in input order.
    ///   - itemOutcomes: each item's outcome, in input order.
    ///   - wasCancelled: whether the fan-out was cancelled before it finished.
    init(
        outcome: RefreshOutcome, results: [Result<Value, any Error>], itemOutcomes: [ItemOutcome],
        wasCancelled: Bool
    ) {
        self.outcome = outcome
        self.results = results
        self.itemOutcomes = itemOutcomes
        self.wasCancelled = wasCancelled
    }

    /// The values of the items that succeeded, in input order.
    public var values: [Value] {
        results.compactMap { try? $0.get() }
    }

    /// The errors of the items that failed, in input order.
    public var errors: [any Error] {
        results.compactMap { result in
            if case .failure(let error) = result { return error }
            return nil
        }
    }

    /// One item's value, with the item's position in the input.
    public struct Item: Sendable {
        /// The item's index in the input (and in ``FanOutReport/results``).
        public let index: Int
        /// The value fetched for the item.
        public let value: Value
    }

    /// The items whose value changed something (the `changed` closure said so), in input
    /// order, each with its value: what a refresh writes back, without comparing anything again.
    ///
    /// ```swift
    /// let report = await client.fetchAll(movies, endpoint: { TMDB.movie(id: $0.id) },
    ///                                    extracting: .decode(Rating.self),
    ///                                    changed: { movie, rating in rating.popularity != movie.popularity })
    /// for item in report.changedItems {
    ///     print(movies[item.index].title, item.value.popularity)
    /// }
    /// ```
    public var changedItems: [Item] {
        zip(itemOutcomes.indices, itemOutcomes).compactMap { index, outcome in
            guard outcome == .changed, case .success(let value) = results[index] else { return nil }
            return Item(index: index, value: value)
        }
    }

    /// How many items changed something.
    public var changedCount: Int { itemOutcomes.lazy.filter { $0 == .changed }.count }
    /// How many items changed nothing.
    public var unchangedCount: Int { itemOutcomes.lazy.filter { $0 == .unchanged }.count }
    /// How many items failed, including those cancelled.
    public var failedCount: Int { itemOutcomes.lazy.filter { $0 == .failed }.count }
}
