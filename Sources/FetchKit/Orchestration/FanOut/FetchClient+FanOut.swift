extension FetchClient {
    /// Fetches one endpoint per element with a ``FanOut`` and reports one outcome.
    ///
    /// For example, MustC's background refresh:
    ///
    /// ```swift
    /// let report = await client.fetchAll(movies, endpoint: { TMDB.movie(id: $0.remoteID) },
    ///                                    extracting: .decode(Rating.self),
    ///                                    changed: { movie, rating in rating.popularity != movie.popularity })
    /// completionHandler(report.outcome)
    /// ```
    ///
    /// - Parameters:
    ///   - elements: the items to fetch for.
    ///   - endpoint: the endpoint to fetch for one item.
    ///   - extraction: how to turn each response into a value.
    ///   - fanOut: the concurrency limit and failure rule; by default the client's
    ///     connections per host (at most ``FanOut/defaultMaximumConcurrency``) and ``FailureRule/strict``.
    ///   - group: a group that cancels these fetches with others, if any.
    ///   - changed: whether an item's value changed anything.
    ///   - progress: called after each item finishes, one call at a time, in order.
    /// - Returns: the aggregate outcome and every item's value or ``FetchError``, in input order.
    public func fetchAll<Element: Sendable, Value: Sendable, Target: Endpoint>(
        _ elements: some Collection<Element>,
        endpoint: @escaping @Sendable (Element) -> Target,
        extracting extraction: Extraction<Value>,
        using fanOut: FanOut? = nil,
        group: CancellationGroup? = nil,
        changed: @escaping @Sendable (Element, Value) -> Bool,
        progress: (@Sendable (FanOutProgress) -> Void)? = nil
    ) async -> FanOutReport<Value> {
        let fanOut =
            fanOut
            ?? FanOut(
                maximumConcurrency: min(FanOut.defaultMaximumConcurrency, configuration.maximumConnectionsPerHost))
        return await fanOut.run(elements, changed: changed, progress: progress) { element in
            try await self.fetch(endpoint(element), extracting: extraction, group: group)
        }
    }
}
