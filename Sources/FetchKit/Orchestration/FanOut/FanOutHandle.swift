/// A running callback-form fan-out, which can be cancelled.
///
/// Returned by ``FanOut/start(_:changed:queue:progress:transform:completion:)``. Cancelling
/// stops new items from starting and cancels the running ones; the completion still runs,
/// exactly once, with a report whose ``FanOutReport/wasCancelled`` is `true`.
public final class FanOutHandle: Sendable {
    private let task: Task<Void, Never>

    init(task: Task<Void, Never>) {
        self.task = task
    }

    /// Cancels every item that has not finished. Calling it again has no effect.
    public func cancel() {
        task.cancel()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool {
        task.isCancelled
    }
}
