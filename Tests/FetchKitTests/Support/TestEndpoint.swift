import FetchKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An endpoint whose parts a test sets directly.
struct TestEndpoint: Endpoint {
    var baseURL: URL
    var path: String
    var method: HTTPMethod = .get
    var queryItems: [URLQueryItem] = []
    var headers: [String: String] = [:]
    var body: RequestBody?
    var timeout: Duration?
    var cachePolicy: CachePolicy = .useProtocol
}
