/// How a finished request went: its outcome, attempts and timing.
public struct FetchMetrics: Sendable, CustomStringConvertible {
    /// The error the request ended with, or `nil` when it succeeded.
    public let error: FetchError?
    /// The HTTP status of the last response, when one arrived.
    public let statusCode: Int?
    /// The number of attempts handed to the transport (0 when the request never started).
    public let attempts: Int
    /// The size of the last response body.
    public let bytesReceived: Int
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
    public init(
        error: FetchError?, statusCode: Int?, attempts: Int, bytesReceived: Int, duration: Duration,
        waitForConnection: Duration
    ) {
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
        return
            "\(statusCode.map(String.init) ?? "-"), \(bytesReceived) bytes, \(attempts) \(plural), \(duration.readable)"
    }
}
