package import Foundation

/// An endpoint sent as its owner described it, with extra headers (winning over the endpoint's
/// own) and the HTTP cache bypassed: the requests an `EventSource` and a sync mirror make on a
/// user's endpoint, whose answers must never come from the cache.
package struct UncachedRequest: Endpoint {
    package let endpoint: any Endpoint
    package let extraHeaders: [String: String]

    package init(_ endpoint: any Endpoint, extraHeaders: [String: String]) {
        self.endpoint = endpoint
        self.extraHeaders = extraHeaders
    }

    package var baseURL: URL { endpoint.baseURL }
    package var path: String { endpoint.path }
    package var method: HTTPMethod { endpoint.method }
    package var queryItems: [URLQueryItem] { endpoint.queryItems }
    package var headers: [String: String] { endpoint.headers.merging(extraHeaders) { _, extra in extra } }
    package var body: RequestBody? { endpoint.body }
    package var timeout: Duration? { endpoint.timeout }
    package var cachePolicy: CachePolicy { .bypass }
}
