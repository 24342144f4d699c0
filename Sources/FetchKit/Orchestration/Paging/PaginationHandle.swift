/// A running callback-form pagination, which can be cancelled.
///
/// Cancel the previous search's handle when a new search starts: no further page is
/// requested, the page in flight is cancelled, and the completion runs once with
/// ``PaginationStop/cancelled``.
public final class PaginationHandle: Sendable {
    private let task: Task<Void, Never>

    init(task: Task<Void, Never>) {
        self.task = task
    }

    /// Stops the run. Calling it again, or after the run ended, has no effect.
    public func cancel() {
        task.cancel()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool {
        task.isCancelled
    }
}
