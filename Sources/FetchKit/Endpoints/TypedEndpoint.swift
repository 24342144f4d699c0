public import Dispatch

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
