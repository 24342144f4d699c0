/// A running callback-form fan-out or pagination, which can be cancelled.
///
/// Returned by the callback forms of ``FanOut/run(_:changed:isolation:progress:transform:completion:)``
/// and ``Paginator/collect(isolation:onPage:completion:)``. Cancelling stops new requests from
/// starting and cancels the ones in flight; the completion still runs, exactly once: a fan-out's
/// report says ``FanOutReport/wasCancelled``, a pagination's summary stops with
/// ``PaginationStop/cancelled``. Cancel the previous search's handle when a new search starts.
public final class RunHandle: Sendable {
    private let task: Task<Void, Never>

    init(task: Task<Void, Never>) {
        self.task = task
    }

    /// Cancels every request that has not finished. Calling it again, or after the run ended,
    /// has no effect.
    public func cancel() {
        task.cancel()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool {
        task.isCancelled
    }

    /// Returns once the run has ended: its last callback has been queued.
    func finished() async {
        await task.value
    }
}
