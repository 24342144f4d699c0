/// A handle to one exchange started by an ``HTTPTransport``.
public protocol TransportTask: Sendable {
    /// Cancels the exchange; the transport then completes it with a cancellation error
    /// (or with its result, if it had already finished).
    func cancel()

    /// How far the exchange has come, read by the client a few times a second while a
    /// caller follows its progress; `nil` (the default) when the transport cannot tell, in
    /// which case only the final report is sent. Must be safe to read from any thread.
    var progress: TransferProgress? { get }
}

extension TransportTask {
    /// `nil`: the transport does not report progress.
    public var progress: TransferProgress? { nil }
}
