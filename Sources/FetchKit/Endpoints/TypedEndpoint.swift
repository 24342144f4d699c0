public import Dispatch
public import Foundation

/// An ``Endpoint`` that declares what its response turns into, so a fetch infers the
/// result type (as kean/Get's `Request<Response>` does).
///
/// ```swift
/// let movie = try await client.fetch(TMDB.movie(id: 550))  // a TMDBMovie
/// ```
///
/// A conforming type whose `Response` is `Decodable` decodes the whole JSON body by
/// default; implement ``extraction`` to decode at a path or to transform the body. An enum
/// of endpoints, whose cases answer with different types, returns ``TypedRequest`` values
/// from static functions instead of conforming itself.
public protocol TypedEndpoint: Endpoint {
    /// What a successful response turns into.
    associatedtype Response: Sendable

    /// How the response becomes a ``Response``.
    var extraction: Extraction<Response> { get }
}

extension TypedEndpoint where Response: Decodable {
    /// Decodes the whole JSON body as ``Response``.
    public var extraction: Extraction<Response> { .decode(Response.self) }
}

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
public struct TypedRequest<Response: Sendable>: TypedEndpoint {
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

extension FetchClient {
    /// Fetches a typed endpoint: the result type comes from the endpoint.
    ///
    /// - Parameters:
    ///   - endpoint: the request to send, with its response type.
    ///   - group: a group to cancel this fetch with, if any.
    /// - Returns: the endpoint's response value.
    /// - Throws: ``FetchError`` on every failure, as ``fetch(_:extracting:group:)-(Endpoint,_,_)`` does.
    public func fetch<Target: TypedEndpoint>(
        _ endpoint: Target, group: CancellationGroup? = nil
    )
        async throws(FetchError) -> Target.Response
    {
        try await fetch(endpoint, extracting: endpoint.extraction, group: group)
    }

    /// Fetches a typed endpoint and calls `completion` exactly once with its response value.
    ///
    /// - Parameters:
    ///   - endpoint: the request to send, with its response type.
    ///   - group: a group to cancel this fetch with, if any.
    ///   - queue: where the completion runs; the client's callback queue when `nil`.
    ///   - completion: runs exactly once with the value or the ``FetchError``.
    /// - Returns: a handle that can cancel the fetch.
    @discardableResult
    public func fetch<Target: TypedEndpoint>(
        _ endpoint: Target, group: CancellationGroup? = nil, queue: DispatchQueue? = nil,
        completion: @escaping @Sendable (Result<Target.Response, FetchError>) -> Void
    ) -> FetchTask {
        fetch(endpoint, extracting: endpoint.extraction, group: group, queue: queue, completion: completion)
    }
}
