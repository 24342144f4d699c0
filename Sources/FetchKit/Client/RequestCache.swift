import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP cache as a ``RequestExecution`` uses it, behind two hooks: ``lookUp(_:built:)``
/// before the request is sent, and ``store(after:_:method:cacheUse:)`` after its response
/// (with ``refreshed(by:_:)`` for a `304` and ``staleAfterError(_:transportFailed:)`` for a
/// failed revalidation). A client without a cache makes every hook do nothing.
struct RequestCache: Sendable {
    let cache: HTTPCache?
    let redactor: Redactor

    /// What the look-up before sending decided.
    struct Lookup {
        /// The request to send, with the cache's conditional headers.
        var sent: URLRequest
        var cacheKey: String?
        var requestedAt: Date?
        var revalidating: CachedResponse?
        var backgroundRefresh: URLRequest?
        /// A stored response that answers the request, and how it was used.
        var served: (entry: CachedResponse, use: FetchMetrics.CacheUse)?
        /// `only-if-cached` with nothing stored: the cache answers 504.
        var unsatisfiable = false

        /// Whether the cache answers the request and nothing is sent.
        var answersLocally: Bool { served != nil || unsatisfiable }
    }

    /// Looks `request` (adapted from `built`) up before it is sent.
    func lookUp(_ request: URLRequest, built: BuiltRequest) -> Lookup {
        var lookup = Lookup(sent: request)
        guard let cache, let key = HTTPCache.key(for: request, policy: built.cachePolicy, redactor: redactor) else {
            return lookup
        }
        lookup.cacheKey = key
        let now = Date()
        lookup.requestedAt = now
        switch cache.lookup(key: key, request: request, policy: built.cachePolicy, now: now) {
        case .fresh(let entry):
            lookup.served = (entry, .hit)
        case .staleWhileRevalidate(let entry):
            lookup.served = (entry, .staleWhileRevalidating)
            // Built as the fetch was, before adapters: the refresh runs them itself.
            lookup.backgroundRefresh = built.request
        case .revalidate(let entry, let headers):
            for (name, value) in headers { lookup.sent.setValue(value, forHTTPHeaderField: name) }
            lookup.revalidating = entry
        case .miss(let headers):
            for (name, value) in headers { lookup.sent.setValue(value, forHTTPHeaderField: name) }
        case .unsatisfiable:
            lookup.unsatisfiable = true
        }
        return lookup
    }

    /// The stale response a failed revalidation leaves, when its `stale-if-error` or the
    /// cache's offline policy allows serving it; `nil` when the failure stands.
    func staleAfterError(_ adapted: AdaptedRequest, transportFailed: Bool) -> CachedResponse? {
        guard let entry = adapted.revalidating, let cache,
            cache.mayServeAfterError(entry, transportFailed: transportFailed, now: Date())
        else { return nil }
        return entry
    }

    /// The `504` the cache answers for `only-if-cached` with nothing stored (RFC 9111
    /// §5.2.1.7); `nil` when it cannot be built.
    static func unsatisfiable(_ adapted: AdaptedRequest) -> TransportResponse? {
        guard let url = adapted.request.url,
            let response = HTTPURLResponse(url: url, statusCode: 504, httpVersion: "HTTP/1.1", headerFields: [:])
        else { return nil }
        return TransportResponse(response: response, data: Data())
    }

    /// Whether a `304` answers the revalidation of a stored response.
    func revalidates(_ adapted: AdaptedRequest) -> Bool {
        adapted.revalidating != nil && cache != nil
    }

    /// Not modified: stores the stored body with the fresh headers of `response`, and returns
    /// that stored response (`nil` when it cannot be rebuilt).
    func refreshed(by response: TransportResponse, _ adapted: AdaptedRequest) -> TransportResponse? {
        guard let entry = adapted.revalidating, let cache else { return nil }
        let now = Date()
        let updated = entry.revalidated(with: response.response, requestedAt: adapted.requestedAt, at: now)
        cache.store(updated, secrets: adapted.secrets, redactor: redactor)
        guard let url = adapted.request.url, let stored = updated.response(for: url, at: now) else { return nil }
        return TransportResponse(response: stored, data: updated.body)
    }

    /// Stores a cacheable response, or drops the stored responses that a successful unsafe
    /// request (`POST`, `PUT`, `PATCH`, `DELETE`) changed. `response` carries the whole body.
    func store(
        after response: TransportResponse, _ adapted: AdaptedRequest, method: HTTPMethod,
        cacheUse: () -> FetchMetrics.CacheUse
    ) {
        guard let cache else { return }
        if let key = adapted.cacheKey {
            guard cacheUse() == .none else { return }
            cache.storeIfCacheable(
                key: key, request: adapted.request, response: response.response, body: response.data,
                redactor: redactor, secrets: adapted.secrets, requestedAt: adapted.requestedAt, now: Date())
        } else if !["GET", "HEAD", "OPTIONS", "TRACE"].contains(method.rawValue) {
            cache.afterUnsafeRequest(
                adapted.request, response: response.response, body: response.data, redactor: redactor,
                secrets: adapted.secrets, requestedAt: adapted.requestedAt, now: Date())
        }
    }
}

extension FetchClient {
    /// Refreshes a response that was served within its `stale-while-revalidate` window: sends
    /// `request` (conditional when the response has validators) once, whatever number of
    /// fetches served the response meanwhile, and stores what comes back.
    ///
    /// - Parameters:
    ///   - request: the request as the fetch built it, before adapters.
    ///   - key: the cache key it refreshes.
    func refreshInBackground(_ request: URLRequest, key: String) {
        guard let cache = configuration.cache, cache.beginRefresh(key) else { return }
        let method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        _ = execute(
            method: method, timeout: configuration.timeout,
            handoff: TaskHandoff(Extraction<Data>.data, completion: { _ in cache.endRefresh(key) }), group: nil,
            delivery: .immediate, build: { BuiltRequest(request, cachePolicy: .revalidate) })
    }
}
