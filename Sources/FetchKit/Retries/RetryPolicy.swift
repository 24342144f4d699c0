public import Foundation

/// When and how soon a failed request is sent again: exponential backoff with jitter,
/// `Retry-After` on 429 and 503, idempotent methods only by default, and a limit.
///
/// A request is retried when all of these hold:
/// - it has been retried fewer than ``maximumRetries`` times;
/// - its method is idempotent (``HTTPMethod/isIdempotent``), or ``retriesNonIdempotentMethods`` is on;
/// - it failed with a status in ``retryableStatusCodes``, a timeout (when ``retriesTimeouts``),
///   a lost connection (when ``retriesConnectionLoss``),
///   or a transport error whose code is in ``retryableURLErrorCodes``;
/// - it was not cancelled. Cancellation during the wait ends the request at once.
///
/// The wait before retry *n* (from 1) is `baseDelay × multiplier^(n−1)`, capped at
/// ``maximumDelay``, then shortened by up to ``jitter`` of itself at random so that many
/// clients do not retry in step. A 429 or 503 response with `Retry-After` (seconds or an
/// HTTP-date) waits exactly that long instead; when that is longer than
/// ``maximumRetryAfter`` the request is not retried and fails with the status.
///
/// ```swift
/// let client = FetchClient { configuration in
///     configuration.retryPolicy = RetryPolicy(maximumRetries: 3, baseDelay: .milliseconds(200))
/// }
/// ```
public struct RetryPolicy: Sendable {
    /// How many times a request may be sent again after its first attempt.
    public var maximumRetries: Int
    /// The wait before the first retry.
    public var baseDelay: Duration
    /// The factor each further wait grows by.
    public var multiplier: Double
    /// The longest backoff wait.
    public var maximumDelay: Duration
    /// The largest fraction (0…1) of a backoff wait that is removed at random.
    public var jitter: Double
    /// The longest `Retry-After` that is honoured; a longer one ends the retries.
    public var maximumRetryAfter: Duration
    /// HTTP statuses that are worth another attempt.
    public var retryableStatusCodes: Set<Int>
    /// Transport errors that are worth another attempt.
    public var retryableURLErrorCodes: Set<URLError.Code>
    /// Whether a timeout is worth another attempt.
    public var retriesTimeouts: Bool
    /// Whether a lost connection (``FetchError/Code-swift.struct/connectionLost``) is retried;
    /// `true` by default. Only idempotent requests are, unless
    /// ``retriesNonIdempotentMethods`` is set: a `POST` whose connection dropped may have
    /// been processed.
    public var retriesConnectionLoss: Bool
    /// Whether `POST`, `PATCH` and other non-idempotent methods are retried too.
    public var retriesNonIdempotentMethods: Bool

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maximumRetries: retries after the first attempt (0 turns retrying off).
    ///   - baseDelay: the wait before the first retry.
    ///   - multiplier: the growth factor of later waits.
    ///   - maximumDelay: the longest backoff wait.
    ///   - jitter: the largest random fraction (0…1) taken off a backoff wait.
    ///   - maximumRetryAfter: the longest `Retry-After` honoured.
    ///   - retryableStatusCodes: statuses worth another attempt.
    ///   - retryableURLErrorCodes: transport errors worth another attempt.
    ///   - retriesTimeouts: whether timeouts are retried.
    ///   - retriesConnectionLoss: whether lost connections are retried.
    ///   - retriesNonIdempotentMethods: whether non-idempotent methods are retried.
    public init(
        maximumRetries: Int = 2,
        baseDelay: Duration = .milliseconds(500),
        multiplier: Double = 2,
        maximumDelay: Duration = .seconds(30),
        jitter: Double = 0.2,
        maximumRetryAfter: Duration = .seconds(60),
        retryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504],
        retryableURLErrorCodes: Set<URLError.Code> = [
            .timedOut, .networkConnectionLost, .cannotConnectToHost, .notConnectedToInternet, .dnsLookupFailed,
            .cannotFindHost, .badServerResponse,
        ],
        retriesTimeouts: Bool = true,
        retriesConnectionLoss: Bool = true,
        retriesNonIdempotentMethods: Bool = false
    ) {
        self.maximumRetries = max(0, maximumRetries)
        self.baseDelay = max(.zero, baseDelay)
        self.multiplier = max(1, multiplier)
        self.maximumDelay = max(.zero, maximumDelay)
        self.jitter = min(1, max(0, jitter))
        self.maximumRetryAfter = maximumRetryAfter
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableURLErrorCodes = retryableURLErrorCodes
        self.retriesTimeouts = retriesTimeouts
        self.retriesConnectionLoss = retriesConnectionLoss
        self.retriesNonIdempotentMethods = retriesNonIdempotentMethods
    }

    /// Two retries, starting at half a second and doubling, with 20% jitter.
    public static let `default` = RetryPolicy()

    /// A policy that never retries: every failure is final after the first attempt.
    public static let none = RetryPolicy(maximumRetries: 0)

    /// The backoff wait before retry number `retry` (from 1), with jitter drawn from `generator`.
    ///
    /// - Parameters:
    ///   - retry: which retry this is, from 1.
    ///   - generator: the source of the jitter.
    /// - Returns: the wait, between `(1 − jitter) ×` and `1 ×` the capped exponential delay.
    func backoff(beforeRetry retry: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let exponent = Double(max(0, retry - 1))
        let raw = baseDelay.timeInterval * pow(multiplier, exponent)
        let capped = min(raw.isFinite ? raw : .greatestFiniteMagnitude, maximumDelay.timeInterval)
        let cut = jitter > 0 ? Double.random(in: 0...jitter, using: &generator) : 0
        return .interval(capped * (1 - cut))
    }

    /// The backoff wait before retry number `retry` (from 1), with random jitter: what the client
    /// waits, for a queue of your own that retries on the same schedule.
    ///
    /// - Parameter retry: which retry this is, from 1.
    /// - Returns: the wait.
    public func backoff(beforeRetry retry: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return backoff(beforeRetry: retry, using: &generator)
    }

    /// Whether the client retries `error` itself, ignoring the retry count and method: the
    /// transient failures (``FetchError/isTransient``) this policy is set to retry.
    ///
    /// - Parameter error: a failure.
    /// - Returns: whether this policy retries it.
    public func isRetryable(_ error: FetchError) -> Bool {
        switch error.code {
        case .unacceptableStatus: return error.statusCode.map(retryableStatusCodes.contains) ?? false
        case .timedOut: return retriesTimeouts
        case .connectionLost: return retriesConnectionLoss
        case .transportFailed: return error.urlErrorCode.map(retryableURLErrorCodes.contains) ?? false
        default: return false
        }
    }

    /// The wait before the next attempt, or `nil` when the request must not be retried.
    ///
    /// - Parameters:
    ///   - error: the failure of the last attempt.
    ///   - method: the request's method.
    ///   - retriesSoFar: how many retries have been made.
    ///   - retryAfter: the response's `Retry-After` wait, when it had one.
    func delay(after error: FetchError, method: HTTPMethod, retriesSoFar: Int, retryAfter: Duration?) -> Duration? {
        guard retriesSoFar < maximumRetries, method.isIdempotent || retriesNonIdempotentMethods,
            isRetryable(error)
        else { return nil }
        if let retryAfter, error.statusCode == 429 || error.statusCode == 503 {
            return retryAfter <= maximumRetryAfter ? retryAfter : nil
        }
        return backoff(beforeRetry: retriesSoFar + 1)
    }
}

/// Parses the `Retry-After` header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
enum RetryAfter {
    /// The wait the header asks for, or `nil` when it is missing or unreadable. A date in the past means no wait.
    static func delay(from value: String?, now: Date = Date()) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            guard value.count <= 9, let seconds = Int(value) else { return nil }
            return .seconds(seconds)
        }
        guard let date = HTTPDate.parse(value) else { return nil }
        return .interval(date.timeIntervalSince(now))
    }
}
