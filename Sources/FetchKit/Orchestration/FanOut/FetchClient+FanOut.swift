extension FetchClient {
    /// Fetches one endpoint per element with a ``FanOut`` and reports one outcome.
    ///
    /// At most `maximumConcurrency` requests per host are on the wire at once. When the
    /// fan-out's limit is at least the client's
    /// ``Configuration-swift.struct/maximumConnectionsPerHost`` and the transport limits its
    /// own connections (as the default one does), a few more are handed to the client ahead
    /// of time: they wait inside the transport for the next free kept-alive connection,
    /// their timeouts not yet running, so connections never idle between two items.
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
        let extra = fanOutLookAhead(forLimit: fanOut.maximumConcurrency)
        return await fanOut.run(elements, extraWorkers: extra, changed: changed, progress: progress) { element in
            try await self.fetch(endpoint(element), extracting: extraction, group: group)
        }
    }
}
