extension FetchClient {
    /// A ``Paginator`` that fetches each page from an endpoint built for its ``PageRequest``.
    ///
    /// For example, Google Books' search, 40 results a page, at most 10 requests:
    ///
    /// ```swift
    /// let pages = client.pages(style: .offset(pageSize: 40), limits: .init(maximumPages: 10),
    ///                          endpoint: { Books.search(name, query: $0.offsetQueryItems(offsetName: "startIndex", sizeName: "maxResults")) },
    ///                          extracting: .decode(Volumes.self)) { volumes in
    ///     Page(items: volumes.items ?? [], totalItems: volumes.totalItems)
    /// }
    /// for try await page in pages { show(page.items) }
    /// ```
    ///
    /// - Parameters:
    ///   - style: how the API addresses its pages.
    ///   - limits: where the run stops at the latest.
    ///   - endpoint: the endpoint for one page.
    ///   - extraction: how to turn a page's response into a value.
    ///   - group: a group that cancels the page requests with others, if any (cancelling it
    ///     fails the page in flight, which ends the run).
    ///   - page: turns that value into a ``Page``; an error it throws fails the page.
    /// - Returns: the paginator (its callback form runs, for a caller isolated to no actor, on the
    ///   client's callback queue); nothing is fetched until it is iterated.
    public func pages<Item: Sendable, Response: Sendable, Target: Endpoint>(
        style: PagingStyle, limits: PaginationLimits = .none,
        endpoint: @escaping @Sendable (PageRequest) -> Target,
        extracting extraction: Extraction<Response>,
        group: CancellationGroup? = nil,
        page: @escaping @Sendable (Response) throws -> Page<Item>
    ) -> Paginator<Item> {
        // The callback form runs, for a caller isolated to no actor, on the client's callback queue.
        Paginator(style: style, limits: limits, callbackQueue: callbackQueue) { request in
            try page(try await self.fetch(endpoint(request), extracting: extraction, group: group))
        }
    }
}
