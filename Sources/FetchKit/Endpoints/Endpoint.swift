public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A request an API understands, described as values: adopt it with an enum of the API's endpoints.
///
/// Only ``baseURL`` and ``path`` are required; everything else has a default. A plain URL is
/// an endpoint too: ``URLEndpoint``, written `.url(link)`.
///
/// ```swift
/// enum TMDB: Endpoint {
///     case search(String)
///     case movie(id: Int64)
///
///     var baseURL: URL { URL(string: "https://api.themoviedb.org/3")! }
///     var path: String {
///         switch self {
///         case .search: "/search/movie"
///         case .movie(let id): "/movie/\(id)"
///         }
///     }
///     var queryItems: [URLQueryItem] {
///         switch self {
///         case .search(let title): [URLQueryItem(name: "query", value: title)]
///         case .movie: []
///         }
///     }
/// }
/// ```
///
/// Give values unencoded: ``path`` segments and ``queryItems`` are percent-encoded when
/// the request is built, with every reserved character escaped, so `Fast & Furious`,
/// `C++ = 100%`, `a+b` and `#1` arrive at the server intact. API keys do not belong here:
/// add them with a ``RequestAdapter`` such as ``APIKeyAdapter``.
///
/// An endpoint may also say what its response turns into, so a fetch infers the result
/// type (as kean/Get's `Request<Response>` does): declare ``Response`` and, unless the whole
/// JSON body decodes as it, ``extraction``. Without them the response is the body's bytes.
///
/// ```swift
/// struct MovieByID: Endpoint {
///     typealias Response = Movie
///     var id: Int64
///     var baseURL: URL { URL(string: "https://api.themoviedb.org/3")! }
///     var path: String { "/movie/\(id)" }
/// }
/// let movie = try await client.fetch(MovieByID(id: 550))  // a Movie
/// ```
///
/// An enum of endpoints whose cases answer with different types returns ``TypedRequest``
/// values from static functions instead.
public protocol Endpoint: Sendable {
    /// What a successful response turns into when the fetch names no ``Extraction``; `Data`
    /// (the body's bytes) unless the endpoint says otherwise.
    associatedtype Response: Sendable = Data

    /// The URL the ``path`` is appended to, such as `https://api.themoviedb.org/3`.
    /// Its own path and query items are kept.
    var baseURL: URL { get }
    /// The path below ``baseURL``, unencoded, such as `"/movie/550"`; each segment between
    /// slashes is percent-encoded.
    var path: String { get }
    /// The request method; ``HTTPMethod/get`` by default.
    var method: HTTPMethod { get }
    /// Query items to append, unencoded; none by default.
    var queryItems: [URLQueryItem] { get }
    /// Header fields to send; none by default.
    var headers: [String: String] { get }
    /// The body to send; none by default.
    var body: RequestBody? { get }
    /// This endpoint's timeout, or `nil` (the default) for the client's.
    var timeout: Duration? { get }
    /// How this endpoint uses the client's ``HTTPCache``; ``CachePolicy/useProtocol`` by default.
    ///
    /// Return ``CachePolicy/bypass`` for an endpoint whose answers must never be stored or
    /// served from the cache (a one-time code, a live price).
    var cachePolicy: CachePolicy { get }
    /// How the response becomes a ``Response`` when the fetch names no ``Extraction``: the
    /// body's bytes for `Data`, the whole JSON body decoded for a `Decodable` response.
    var extraction: Extraction<Response> { get }
}

extension Endpoint {
    /// The default method, ``HTTPMethod/get``; implement ``Endpoint/method`` to send another.
    public var method: HTTPMethod { .get }
    /// The default query: no items; implement ``Endpoint/queryItems`` to add some, unencoded.
    public var queryItems: [URLQueryItem] { [] }
    /// The default headers: none; implement ``Endpoint/headers`` to send some.
    public var headers: [String: String] { [:] }
    /// The default body: none; implement ``Endpoint/body`` to send one.
    public var body: RequestBody? { nil }
    /// The default timeout: `nil`, meaning the client's ``FetchClient/Configuration-swift.struct/timeout``.
    public var timeout: Duration? { nil }
    /// The default cache policy: ``CachePolicy/useProtocol``, the response's own headers decide.
    public var cachePolicy: CachePolicy { .useProtocol }

    /// The URL of this endpoint: ``baseURL`` with ``path`` appended and ``queryItems``
    /// added, all percent-encoded.
    ///
    /// - Parameter base: a base URL to use instead of ``baseURL``, such as a staging server
    ///   or a `StubServer` (a client's ``FetchClient/Configuration-swift.struct/baseURL``);
    ///   `nil` for the endpoint's own.
    /// - Returns: the URL.
    /// - Throws: ``FetchError`` with code ``FetchError/Code-swift.struct/invalidURL`` when
    ///   the parts do not make an http or https URL with a host.
    public func url(base: URL? = nil) throws(FetchError) -> URL {
        try located(base: base).url
    }

    /// The URL of ``url(base:)`` and, when its text shows it cheaply, its host key
    /// (``URLValidation/hostKey(of:)``); `nil` then means the key is to be read from the URL.
    func located(base: URL?) throws(FetchError) -> (url: URL, hostKey: String?) {
        if Self.self == URLEndpoint.self, let endpoint = self as? URLEndpoint {
            // A plain URL is fetched as it is: the client's base URL does not replace it.
            guard let url = endpoint.url else { throw FetchError(code: .invalidURL, detail: "the URL is nil") }
            try URLValidation.check(url)
            return (url, nil)
        }
        let root = base ?? baseURL
        if let joined = PercentEncoding.joined(root.absoluteString, path: path, query: queryItems) {
            if !joined.isHTTPWithHost { try URLValidation.check(joined.url) }
            return (joined.url, joined.hostKey)
        }
        guard var components = URLComponents(url: root, resolvingAgainstBaseURL: true) else {
            throw FetchError(code: .invalidURL, detail: "the base URL cannot be parsed")
        }
        var basePath = components.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        let encodedPath = PercentEncoding.encodePath(path)
        if encodedPath.isEmpty {
            components.percentEncodedPath = basePath
        } else {
            components.percentEncodedPath = basePath + (encodedPath.hasPrefix("/") ? "" : "/") + encodedPath
        }
        if !queryItems.isEmpty {
            let added = PercentEncoding.encodeQuery(queryItems)
            if let existing = components.percentEncodedQuery, !existing.isEmpty {
                components.percentEncodedQuery = existing + "&" + added
            } else {
                components.percentEncodedQuery = added
            }
        }
        guard let url = components.url else {
            throw FetchError(code: .invalidURL, detail: "the base URL and path do not make a URL")
        }
        try URLValidation.check(url)
        return (url, nil)
    }

    /// The `URLRequest` for this endpoint: its URL, method, headers, body and timeout.
    ///
    /// Request adapters are not applied here; the client applies them when it fetches. A
    /// ``RequestBody/file(_:contentType:)`` body becomes the request's `httpBodyStream`; a
    /// multipart form is encoded into `httpBody` (the client itself streams forms with files
    /// from disk instead).
    ///
    /// - Parameters:
    ///   - defaultTimeout: the timeout to use when ``timeout`` is `nil`.
    ///   - base: a base URL to use instead of ``baseURL``; `nil` for the endpoint's own.
    /// - Returns: the request.
    /// - Throws: ``FetchError`` with code ``FetchError/Code-swift.struct/invalidURL``,
    ///   ``FetchError/Code-swift.struct/invalidRequest`` (a body that could not be encoded) or
    ///   ``FetchError/Code-swift.struct/fileUnavailable`` (a body file that cannot be read).
    public func urlRequest(
        defaultTimeout: Duration = .seconds(60), base: URL? = nil
    ) throws(FetchError)
        -> URLRequest
    {
        try builtRequest(defaultTimeout: defaultTimeout, base: base, handling: .inline).request
    }
}

extension Endpoint where Response == Data {
    /// The default extraction of an endpoint with no ``Endpoint/Response``: the body's bytes.
    public var extraction: Extraction<Data> { .data }
}

extension Endpoint where Response: Decodable {
    /// The default extraction of a `Decodable` ``Endpoint/Response``: the whole JSON body, decoded.
    public var extraction: Extraction<Response> { .decode(Response.self) }
}
