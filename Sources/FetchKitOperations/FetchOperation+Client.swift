public import FetchKit
extension FetchOperation {
    /// Creates an operation that fetches an endpoint with a client and keeps the value.
    ///
    /// ```swift
    /// let update = FetchOperation(client: client, endpoint: TMDB.movie(id: movie.remoteID),
    ///                             extracting: .decode(Rating.self),
    ///                             changed: { $0.popularity != movie.popularity })
    /// ```
    ///
    /// - Parameters:
    ///   - client: the client to fetch with.
    ///   - endpoint: the endpoint to fetch.
    ///   - extraction: how to turn the response into a value.
    ///   - group: a group that cancels this fetch with others, if any.
    ///   - changed: whether the value changed anything; by default every success does.
    public convenience init(
        client: FetchClient, endpoint: some Endpoint, extracting extraction: Extraction<Value>,
        group: CancellationGroup? = nil,
        changed: @escaping @Sendable (Value) -> Bool = { _ in true }
    ) {
        self.init(changed: changed) {
            try await client.fetch(endpoint, extracting: extraction, group: group)
        }
    }
}
