package import Foundation

/// An endpoint sent as its owner described it, with query items and headers added (an added
/// header wins over the endpoint's own), and never stored in or served from the client's HTTP
/// cache: the requests an `EventSource` makes on a user's endpoint, and the requests a sync
/// sends (a listing or a read must see the server now).
package struct UncachedRequest: Endpoint {
    package let endpoint: any Endpoint
    package let queryItems: [URLQueryItem]
    package let headers: [String: String]

    /// - Parameters:
    ///   - endpoint: the request as its owner described it.
    ///   - queryItems: query items sent after the endpoint's own.
    ///   - headers: headers sent with the endpoint's own; an added one wins.
    package init(_ endpoint: any Endpoint, adding queryItems: [URLQueryItem] = [], headers: [String: String] = [:]) {
        self.endpoint = endpoint
        self.queryItems = queryItems.isEmpty ? endpoint.queryItems : endpoint.queryItems + queryItems
        self.headers = headers.isEmpty ? endpoint.headers : endpoint.headers.merging(headers) { _, added in added }
    }

    package var baseURL: URL { endpoint.baseURL }
    package var path: String { endpoint.path }
    package var method: HTTPMethod { endpoint.method }
    package var body: RequestBody? { endpoint.body }
    package var timeout: Duration? { endpoint.timeout }
    package var cachePolicy: CachePolicy { .bypass }
}
