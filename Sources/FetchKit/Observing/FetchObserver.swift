/// Watches a client's requests, for logging and metrics.
///
/// Every method has an empty default implementation; implement the ones you need. The
/// methods are called synchronously on FetchKit's threads, so keep them quick. What they
/// receive is described with secrets redacted.
///
/// ```swift
/// struct SlowRequestReporter: FetchObserver {
///     func requestDidFinish(_ request: RequestSummary, metrics: FetchMetrics) {
///         if metrics.duration > .seconds(2) { print("slow: \(request) \(metrics)") }
///     }
/// }
/// ```
public protocol FetchObserver: Sendable {
    /// An attempt of a request is handed to the transport (once per attempt; ``RequestSummary/attempt`` counts from 1).
    ///
    /// - Parameter request: the request, redacted.
    func requestWillStart(_ request: RequestSummary)

    /// An attempt failed and the request will be sent again after `delay`.
    ///
    /// - Parameters:
    ///   - request: the request, redacted; ``RequestSummary/attempt`` is the attempt that failed.
    ///   - delay: the wait before the next attempt.
    ///   - error: why the attempt failed.
    func requestWillRetry(_ request: RequestSummary, after delay: Duration, because error: FetchError)

    /// The request is finished, successfully or not, just before its completion runs.
    ///
    /// - Parameters:
    ///   - request: the request, redacted.
    ///   - metrics: its outcome, attempts and timing.
    func requestDidFinish(_ request: RequestSummary, metrics: FetchMetrics)

    /// The client's ``TokenAuthenticator`` finished a refresh that a request of this client
    /// started: once per refresh, however many requests waited for it (a refresh another client
    /// sharing the authenticator started is reported to that client's observers).
    ///
    /// - Parameters:
    ///   - duration: how long the refresh took.
    ///   - error: why it failed (``FetchError/Code-swift.struct/authenticationFailed``), or `nil`
    ///     when it brought a new token.
    func tokenRefreshDidFinish(after duration: Duration, error: FetchError?)
}

extension FetchObserver {
    /// Does nothing.
    ///
    /// - Parameter request: the request.
    public func requestWillStart(_ request: RequestSummary) {}

    /// Does nothing.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - delay: the wait before the next attempt.
    ///   - error: why the attempt failed.
    public func requestWillRetry(_ request: RequestSummary, after delay: Duration, because error: FetchError) {}

    /// Does nothing.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - metrics: its outcome.
    public func requestDidFinish(_ request: RequestSummary, metrics: FetchMetrics) {}

    /// Does nothing.
    ///
    /// - Parameters:
    ///   - duration: how long the refresh took.
    ///   - error: why it failed, or `nil`.
    public func tokenRefreshDidFinish(after duration: Duration, error: FetchError?) {}
}
