public import Foundation

/// A plain URL as an ``Endpoint``: a request to exactly that URL (a `GET` unless it says
/// otherwise), which the client's ``FetchClient/Configuration-swift.struct/baseURL`` does not change.
///
/// Write it as `.url(link)` wherever an endpoint goes:
///
/// ```swift
/// let page = try await client.fetch(.url(link), extracting: .string)
/// client.fetch(.url(URL(string: text)), extracting: .data) { result in … }
/// ```
///
/// With a method and a body it sends any request: `.url(upload, method: .put, body: .file(movie))`.
/// Its path and query are sent as they are, already percent-encoded: a URL another layer built
/// (a generated client's, a `Link` header's) goes out unchanged. A `nil` URL, or one that is not
/// http(s) with a host, is not a silent return: the fetch fails with
/// ``FetchError/Code-swift.struct/invalidURL``.
public struct URLEndpoint: Endpoint {
    /// The URL to fetch; `nil` fails the fetch with ``FetchError/Code-swift.struct/invalidURL``.
    public var url: URL?
    /// The request method; ``HTTPMethod/get`` unless set.
    public var method: HTTPMethod
    /// Header fields to send.
    public var headers: [String: String]
    /// The body to send; none unless set.
    public var body: RequestBody?

    /// Creates the endpoint of a URL.
    ///
    /// - Parameters:
    ///   - url: the URL to fetch.
    ///   - method: the request method; `GET` by default.
    ///   - headers: header fields to send; none by default.
    ///   - body: the body to send; none by default.
    public init(_ url: URL?, method: HTTPMethod = .get, headers: [String: String] = [:], body: RequestBody? = nil) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
    }

    /// The URL itself (or an invalid placeholder for `nil`, which the fetch rejects).
    public var baseURL: URL { url ?? URL(fileURLWithPath: "/") }
    /// Empty: the URL is used as it is.
    public var path: String { "" }
}

extension Endpoint where Self == URLEndpoint {
    /// The endpoint of a plain URL: `client.fetch(.url(link), extracting: .data)`.
    ///
    /// - Parameters:
    ///   - url: the URL to fetch; `nil` fails with ``FetchError/Code-swift.struct/invalidURL``.
    ///   - method: the request method; `GET` by default.
    ///   - headers: header fields to send; none by default.
    ///   - body: the body to send; none by default.
    /// - Returns: the endpoint.
    public static func url(
        _ url: URL?, method: HTTPMethod = .get, headers: [String: String] = [:], body: RequestBody? = nil
    ) -> URLEndpoint {
        URLEndpoint(url, method: method, headers: headers, body: body)
    }
}
