public import FetchKit
public import Logging

/// A `FetchObserver` that writes FetchKit's request lifecycle to a swift-log `Logger`, at the
/// levels swift-log's guidelines give a library.
///
/// ```swift
/// let client = FetchClient { $0.observers = [LoggingObserver(logger)] }
/// ```
///
/// | event | level | message |
/// |---|---|---|
/// | an attempt starts | `trace` | `request started` |
/// | an attempt failed and will be sent again | `info` | `request will be retried` |
/// | a request finished | `debug` | `request finished` or `request failed` |
/// | a token refresh finished | `debug` | `token refreshed` or `token refresh failed` |
///
/// A failure is logged at `debug`: the caller receives it as a thrown `FetchError` and decides
/// what it means; a retry is the one event a caller sees no other way. Each entry carries
/// metadata a log pipeline can index, named after OpenTelemetry's semantic conventions:
/// `http.request.method`, `url.full`, `http.response.status_code`, `fetch.request.id`,
/// `fetch.attempt`, `fetch.attempts`, `fetch.duration_ms`, `fetch.cache`,
/// `fetch.bytes_received`, `error.type` and `error.message`; and `trace_id` and `span_id` when the
/// request carries a `traceparent` (see `TraceContextAdapter`).
///
/// What is logged of a request is what the client's `Redactor` lets through: the URL with secret
/// query values redacted (a secret in a URL's path is not recognised: keep tokens out of paths, or
/// out of the logs), the error's text redacted by FetchKit, and no header but the trace context.
/// The body of an error response is never logged: for a refused status, `error.message` is left
/// out (`error.type` and `http.response.status_code` say what happened).
public struct LoggingObserver: FetchObserver {
    private let logger: Logger

    /// Creates an observer that writes to `logger` (its level and handler decide what is kept).
    ///
    /// - Parameter logger: the application's logger.
    public init(_ logger: Logger) {
        self.logger = logger
    }

    /// Logs `request started` at `trace`.
    ///
    /// - Parameter request: the request, redacted.
    public func requestWillStart(_ request: RequestSummary) {
        logger.trace("request started", metadata: metadata(of: request))
    }

    /// Logs `request will be retried` at `info`.
    ///
    /// - Parameters:
    ///   - request: the request, redacted; its attempt is the one that failed.
    ///   - delay: the wait before the next attempt.
    ///   - error: why the attempt failed.
    public func requestWillRetry(_ request: RequestSummary, after delay: Duration, because error: FetchError) {
        var metadata = metadata(of: request)
        metadata["fetch.retry_delay_ms"] = "\(Self.milliseconds(delay))"
        Self.describe(error, into: &metadata)
        logger.info("request will be retried", metadata: metadata)
    }

    /// Logs `request finished` or `request failed` at `debug`.
    ///
    /// - Parameters:
    ///   - request: the request, redacted.
    ///   - metrics: its outcome.
    public func requestDidFinish(_ request: RequestSummary, metrics: FetchMetrics) {
        var metadata = metadata(of: request)
        metadata["fetch.attempts"] = "\(metrics.attempts)"
        metadata["fetch.duration_ms"] = "\(Self.milliseconds(metrics.duration))"
        metadata["fetch.cache"] = "\(CacheName.of(metrics.cacheUse))"
        metadata["fetch.bytes_received"] = "\(metrics.bytesReceived)"
        if let status = metrics.statusCode { metadata["http.response.status_code"] = "\(status)" }
        if let error = metrics.error {
            Self.describe(error, into: &metadata)
            logger.debug("request failed", metadata: metadata)
        } else {
            logger.debug("request finished", metadata: metadata)
        }
    }

    /// Logs `token refreshed` or `token refresh failed` at `debug`.
    ///
    /// - Parameters:
    ///   - duration: how long the refresh took.
    ///   - error: why it failed, or `nil`.
    public func tokenRefreshDidFinish(after duration: Duration, error: FetchError?) {
        var metadata: Logger.Metadata = ["fetch.duration_ms": "\(Self.milliseconds(duration))"]
        if let error {
            Self.describe(error, into: &metadata)
            logger.debug("token refresh failed", metadata: metadata)
        } else {
            logger.debug("token refreshed", metadata: metadata)
        }
    }

    private func metadata(of request: RequestSummary) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "http.request.method": "\(request.method.rawValue)",
            "url.full": "\(request.url)",
            "fetch.request.id": "\(request.id)",
            "fetch.attempt": "\(request.attempt)",
        ]
        if let trace = TraceHeader.of(request) {
            metadata["trace_id"] = "\(trace.traceID)"
            metadata["span_id"] = "\(trace.parentID)"
        }
        return metadata
    }

    /// The error's type, and its text unless it quotes the server (a body excerpt, an API's message).
    private static func describe(_ error: FetchError, into metadata: inout Logger.Metadata) {
        metadata["error.type"] = "\(error.code)"
        if error.bodyExcerpt == nil, error.reportedFailure == nil { metadata["error.message"] = "\(error.description)" }
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}

/// The trace context a request carries, read from its (redacted, not secret) headers.
enum TraceHeader {
    static func of(_ request: RequestSummary) -> TraceParent? {
        request.headers.first { $0.key.lowercased() == "traceparent" }.flatMap { TraceParent($0.value) }
    }
}

/// A cache use's name in logs and metrics: `none`, `hit`, `notModified`, `staleWhileRevalidating`,
/// `staleAfterError`.
enum CacheName {
    static func of(_ use: FetchMetrics.CacheUse) -> String {
        switch use {
        case .none: "none"
        case .hit: "hit"
        case .notModified: "notModified"
        case .staleWhileRevalidating: "staleWhileRevalidating"
        case .staleAfterError: "staleAfterError"
        }
    }
}
