/// A ``FetchObserver`` that writes one line per finished request (and per retry), with secrets redacted.
///
/// ```swift
/// configuration.observers = [FetchLogger()]
/// // GET https://api.themoviedb.org/3/movie/550?api_key=REDACTED → 200, 1234 bytes, 1 attempt, 35 ms
/// ```
public struct FetchLogger: FetchObserver {
    private let write: @Sendable (String) -> Void

    /// Creates a logger.
    ///
    /// - Parameter write: where lines go; standard output by default.
    public init(write: @escaping @Sendable (String) -> Void = { print($0) }) {
        self.write = write
    }

    /// Writes `↻ <request> retry in <delay> after <error code>`.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - delay: the wait before the next attempt.
    ///   - error: why the attempt failed.
    public func requestWillRetry(_ request: RequestSummary, after delay: Duration, because error: FetchError) {
        write("↻ \(request) retry \(request.attempt) in \(delay.readable) after \(error.code)")
    }

    /// Writes `<request> → <metrics>`.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - metrics: its outcome.
    public func requestDidFinish(_ request: RequestSummary, metrics: FetchMetrics) {
        write("\(request) → \(metrics)")
    }
}
