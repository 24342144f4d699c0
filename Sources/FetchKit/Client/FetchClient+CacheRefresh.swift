import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
