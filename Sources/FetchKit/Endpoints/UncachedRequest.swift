import Foundation

/// An endpoint sent as its owner described it, with extra headers (winning over the endpoint's
/// own) and the HTTP cache bypassed: the requests an `EventSource` makes on a user's endpoint,
/// whose answers must never come from the cache.
struct UncachedRequest: Endpoint {
    let endpoint: any Endpoint
    let extraHeaders: [String: String]

    init(_ endpoint: any Endpoint, extraHeaders: [String: String]) {
        self.endpoint = endpoint
        self.extraHeaders = extraHeaders
    }

    var baseURL: URL { endpoint.baseURL }
    var path: String { endpoint.path }
    var method: HTTPMethod { endpoint.method }
    var queryItems: [URLQueryItem] { endpoint.queryItems }
    var headers: [String: String] { endpoint.headers.merging(extraHeaders) { _, extra in extra } }
    var body: RequestBody? { endpoint.body }
    var timeout: Duration? { endpoint.timeout }
    var cachePolicy: CachePolicy { .bypass }
}
