/// A handle to one fetch: cancel it, or ask whether it is finished.
///
/// Every callback-style `fetch` returns one. Cancelling a task whose request is still
/// running ends it at once: its completion runs with ``FetchError/Code-swift.struct/cancelled``,
/// the underlying transport task is cancelled, and no retry follows. Cancelling a finished
/// task does nothing. A task can be cancelled from any thread, any number of times.
///
/// ```swift
/// let task = client.fetch(url, extracting: .data) { result in … }
/// task.cancel()
/// ```
public final class FetchTask: Sendable {
    private let execution: any CancellableExecution

    init(execution: any CancellableExecution) {
        self.execution = execution
    }

    /// An identifier of the request, unique within its client (the ``RequestSummary/id`` observers see).
    public var id: Int { execution.id }

    /// Cancels the request if it is not finished yet.
    public func cancel() {
        execution.cancel()
    }

    /// Whether the request has finished (its completion has been scheduled), for any reason.
    public var isFinished: Bool { execution.isFinished }
}
