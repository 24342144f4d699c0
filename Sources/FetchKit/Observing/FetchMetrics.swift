/// How a finished request went: its outcome, attempts and timing.
public struct FetchMetrics: Sendable, CustomStringConvertible {
    /// What the client's ``HTTPCache`` did for a request.
    public enum CacheUse: Sendable, Hashable {
        /// The cache was not involved (no cache, not a `GET`, or nothing stored for it).
        case none
        /// A fresh stored response was served; nothing was sent.
        case hit
        /// A stored response was revalidated: the server answered `304 Not Modified` with no
        /// body, and the stored body was used.
        case notModified
        /// A stale stored response was served within its `stale-while-revalidate` window; a
        /// request refreshes it in the background.
        case staleWhileRevalidating
        /// A stale stored response was served because the server could not be reached or
        /// answered with a server error (`5xx`): its `stale-if-error` allowed it, or the
        /// cache's ``HTTPCache/OfflinePolicy-swift.enum/serveStored`` policy did.
        case staleAfterError
    }

    /// The error the request ended with, or `nil` when it succeeded.
    public let error: FetchError?
    /// The HTTP status of the last response, when one arrived.
    public let statusCode: Int?
    /// The number of attempts handed to the transport (0 when the request never started).
    public let attempts: Int
    /// The body bytes of the last response that came over the network: 0 for a cache hit
    /// and for a `304 Not Modified` revalidation.
    public let bytesReceived: Int
    /// What the cache did; ``CacheUse-swift.enum/none`` without a cache.
    public let cacheUse: CacheUse
    /// The time from the fetch call to the end of the request.
    public let duration: Duration
    /// The part of ``duration`` spent waiting for a free connection slot for the host.
    public let waitForConnection: Duration

    /// Creates metrics (FetchKit creates these; tests of observers may too).
    ///
    /// - Parameters:
    ///   - error: the error, or `nil` on success.
    ///   - statusCode: the last HTTP status.
    ///   - attempts: attempts handed to the transport.
    ///   - bytesReceived: the size of the last body.
    ///   - duration: the total time.
    ///   - waitForConnection: the time spent waiting for a slot.
    ///   - cacheUse: what the cache did.
    init(
        error: FetchError?, statusCode: Int?, attempts: Int, bytesReceived: Int, duration: Duration,
        waitForConnection: Duration, cacheUse: CacheUse = .none
    ) {
        self.cacheUse = cacheUse
        self.error = error
        self.statusCode = statusCode
        self.attempts = attempts
        self.bytesReceived = bytesReceived
        self.duration = duration
        self.waitForConnection = waitForConnection
    }

    /// Whether the request succeeded.
    public var succeeded: Bool { error == nil }

    /// `200, 1234 bytes, 1 attempt, 35 ms` or `failed (timedOut), 2 attempts, 1.2 s`.
    public var description: String {
        let plural = attempts == 1 ? "attempt" : "attempts"
        if let error {
            let status = statusCode.map { "HTTP \($0), " } ?? ""
            return "failed (\(error.code)), \(status)\(attempts) \(plural), \(duration.readable)"
        }
        let cache =
            switch cacheUse {
            case .none: ""
            case .hit: ", from the cache"
            case .notModified: ", not modified"
            case .staleWhileRevalidating: ", stale from the cache, refreshing"
            case .staleAfterError: ", stale from the cache after an error"
            }
        return
            "\(statusCode.map(String.init) ?? "-"), \(bytesReceived) bytes, \(attempts) \(plural), \(duration.readable)\(cache)"
    }
}
