import FetchKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request of a collection's description as a sync sends it: the description's own, with query
/// items (a scope's) and headers (an idempotency key) added, and never stored in or served from
/// the client's HTTP cache (a listing or a read must see the server now).
struct SyncRequest: Endpoint {
    let request: any Endpoint
    let queryItems: [URLQueryItem]
    let headers: [String: String]

    init(_ request: any Endpoint, adding queryItems: [URLQueryItem] = [], headers: [String: String] = [:]) {
        self.request = request
        self.queryItems = request.queryItems + queryItems
        self.headers = request.headers.merging(headers) { _, added in added }
    }

    var baseURL: URL { request.baseURL }
    var path: String { request.path }
    var method: HTTPMethod { request.method }
    var body: RequestBody? { request.body }
    var timeout: Duration? { request.timeout }
    var cachePolicy: CachePolicy { .bypass }
}
