public import Foundation

/// An endpoint together with the type of its response: what static functions of an
/// endpoint enum return so each call site gets its result type for free.
///
/// ```swift
/// enum TMDBRoute: Endpoint {
///     case movie(Int)
///     var baseURL: URL { URL(string: "https://api.themoviedb.org/3")! }
///     var path: String {
///         switch self {
///         case .movie(let id): "/movie/\(id)"
///         }
///     }
/// }
///
/// enum TMDB {
///     static func movie(id: Int) -> TypedRequest<TMDBMovie> { TypedRequest(TMDBRoute.movie(id)) }
/// }
///
/// let movie = try await client.fetch(TMDB.movie(id: 550))  // a TMDBMovie
/// ```
public struct TypedRequest<Response: Sendable>: Endpoint {
    /// The endpoint that is sent.
    public let endpoint: any Endpoint
    /// How the response becomes a `Response`.
    public let extraction: Extraction<Response>

    /// Pairs an endpoint with an extraction strategy.
    ///
    /// - Parameters:
    ///   - endpoint: the endpoint to send.
    ///   - extraction: how its response becomes a `Response`.
    public init(_ endpoint: some Endpoint, extracting extraction: Extraction<Response>) {
        self.endpoint = endpoint
        self.extraction = extraction
    }

    /// The endpoint's base URL.
    public var baseURL: URL { endpoint.baseURL }
    /// The endpoint's path.
    public var path: String { endpoint.path }
    /// The endpoint's method.
    public var method: HTTPMethod { endpoint.method }
    /// The endpoint's query items.
    public var queryItems: [URLQueryItem] { endpoint.queryItems }
    /// The endpoint's headers.
    public var headers: [String: String] { endpoint.headers }
    /// The endpoint's body.
    public var body: RequestBody? { endpoint.body }
    /// The endpoint's timeout.
    public var timeout: Duration? { endpoint.timeout }
    /// The endpoint's cache policy.
    public var cachePolicy: CachePolicy { endpoint.cachePolicy }
}

extension TypedRequest where Response: Decodable {
    /// Pairs an endpoint with its response type, decoding the JSON body (at `path`, if given).
    ///
    /// - Parameters:
    ///   - endpoint: the endpoint to send.
    ///   - path: where the value is in the body, such as `"results"`; `nil` for the whole body.
    public init(_ endpoint: some Endpoint, at path: String? = nil) {
        self.init(endpoint, extracting: .decode(Response.self, at: path))
    }
}
