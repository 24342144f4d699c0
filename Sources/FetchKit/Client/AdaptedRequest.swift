import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``BuiltRequest`` once the client's adapters ran and the cache was looked up: the parts of
/// a ``RequestExecution``'s request that stay fixed while it is sent.
///
/// A class of constants: each transition of the request hands it to the actions it returns,
/// which costs one reference count instead of a copy of every field. A token given to a later
/// attempt makes a new one (``authorized(_:token:)``).
///
/// The redacted summary and the secret values are worked out only when something needs
/// them (an observer, a failure): describing a URL parses it again, which a request that
/// succeeds unobserved should not pay for.
final class AdaptedRequest: Sendable {
    let request: URLRequest
    let host: String
    let id: Int
    let method: HTTPMethod
    let redactor: Redactor
    let bodyFile: BuiltRequest.BodyFile?
    /// The cache key of a cacheable `GET`.
    let cacheKey: String?
    /// The stored response this request revalidates (it carries its conditions).
    let revalidating: CachedResponse?
    /// When a cacheable request was looked up and sent (RFC 9111's `request_time`).
    let requestedAt: Date?
    /// The request that refreshes a response served within its `stale-while-revalidate` window.
    let backgroundRefresh: URLRequest?
    /// Secret values that the redactor does not find by name (a token under a custom header).
    let extraSecrets: [String]

    init(
        request: URLRequest, host: String, id: Int, method: HTTPMethod, redactor: Redactor,
        bodyFile: BuiltRequest.BodyFile?, cacheKey: String? = nil, revalidating: CachedResponse? = nil,
        requestedAt: Date? = nil, backgroundRefresh: URLRequest? = nil, extraSecrets: [String] = []
    ) {
        self.request = request
        self.host = host
        self.id = id
        self.method = method
        self.redactor = redactor
        self.bodyFile = bodyFile
        self.cacheKey = cacheKey
        self.revalidating = revalidating
        self.requestedAt = requestedAt
        self.backgroundRefresh = backgroundRefresh
        self.extraSecrets = extraSecrets
    }

    /// The same request as `request`, which carries `token`; the token joins the secrets.
    func authorized(_ request: URLRequest, token: String) -> AdaptedRequest {
        AdaptedRequest(
            request: request, host: host, id: id, method: method, redactor: redactor, bodyFile: bodyFile,
            cacheKey: cacheKey, revalidating: revalidating, requestedAt: requestedAt,
            backgroundRefresh: backgroundRefresh,
            extraSecrets: extraSecrets.contains(token) ? extraSecrets : extraSecrets + [token])
    }

    /// The size of the request body.
    var bodySize: Int64 {
        if let bodyFile { return bodyFile.size }
        return Int64(request.httpBody?.count ?? 0)
    }

    var summary: RequestSummary {
        RequestSummary(
            id: id, method: method, url: request.url.map(redactor.describe) ?? "<no URL>",
            headers: redactor.redact(headers: request.allHTTPHeaderFields ?? [:]), attempt: 1)
    }

    var secrets: [String] {
        (redactor.secretValues(in: request) + extraSecrets).sorted { $0.count > $1.count }
    }
}
