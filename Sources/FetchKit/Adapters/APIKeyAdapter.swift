#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// Adds an API key to every request, as a query item or a header.
///
/// The key comes from configuration (an environment variable, a parameter), never from
/// source code, and it is redacted from every description FetchKit produces, under whatever
/// name it travels (the client adds the name to its ``Redactor``'s secret names, so TMDB's
/// `session_id` reads `REDACTED` as `api_key` does):
///
/// ```swift
/// let key = ProcessInfo.processInfo.environment["TMDB_API_KEY"] ?? ""
/// let client = FetchClient { configuration in
///     configuration.adapters = [APIKeyAdapter(.query(name: "api_key"), value: key)]
/// }
/// ```
///
/// An empty key fails each request with ``FetchError/Code-swift.struct/invalidRequest``
/// and a message that names the missing item, instead of sending a request the API will refuse.
public struct APIKeyAdapter: RequestAdapter, CustomStringConvertible, CustomReflectable {
    /// Where the key goes.
    public enum Placement: Sendable, Hashable {
        /// A query item with this name, such as `api_key`.
        case query(name: String)
        /// A header field with this name, such as `X-Api-Key`.
        case header(name: String)
    }

    /// Where the key goes.
    public let placement: Placement
    private let value: String

    /// The query-item or header name the key travels under: the client adds it to its
    /// redactor's secret names, so a key under any name is redacted.
    var secretName: String {
        switch placement {
        case .query(let name), .header(let name): name
        }
    }

    /// Creates an adapter.
    ///
    /// - Parameters:
    ///   - placement: where the key goes.
    ///   - value: the key.
    public init(_ placement: Placement, value: String) {
        self.placement = placement
        self.value = value
    }

    /// Adds the key.
    ///
    /// - Parameter request: the request.
    /// - Returns: the request with the key.
    /// - Throws: ``FetchError`` with code ``FetchError/Code-swift.struct/invalidRequest``
    ///   when the key is empty or the request has no URL.
    public func adapt(_ request: URLRequest) throws(FetchError) -> URLRequest {
        var request = request
        switch placement {
        case .query(let name):
            guard !value.isEmpty else {
                throw FetchError(
                    code: .invalidRequest, detail: "the API key for query item `\(name)` is empty. Configure the key")
            }
            guard let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
            else { throw FetchError(code: .invalidURL, detail: "the request has no URL to add a key to") }
            let item = PercentEncoding.encodeQuery([URLQueryItem(name: name, value: value)])
            if let query = components.percentEncodedQuery, !query.isEmpty {
                components.percentEncodedQuery = query + "&" + item
            } else {
                components.percentEncodedQuery = item
            }
            request.url = components.url
        case .header(let name):
            guard !value.isEmpty else {
                throw FetchError(
                    code: .invalidRequest, detail: "the API key for header `\(name)` is empty. Configure the key")
            }
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }

    /// Where the key goes, without the key: `APIKeyAdapter(query api_key)`.
    public var description: String {
        switch placement {
        case .query(let name): "APIKeyAdapter(query \(name))"
        case .header(let name): "APIKeyAdapter(header \(name))"
        }
    }

    /// What `dump()`, `String(reflecting:)` and debuggers show: the placement, and the key as
    /// `REDACTED`.
    public var customMirror: Mirror {
        Mirror(self, children: ["placement": placement, "value": Redactor.placeholder], displayStyle: .struct)
    }
}
