/// A handle to one request started with a completion: cancel it, ask whether it is
/// finished, or await its value.
///
/// Every callback `fetch` returns one. Cancelling a task whose request is still running ends
/// it at once: its completion runs with ``FetchError/Code-swift.struct/cancelled``, the
/// transport's task is cancelled, and no retry follows. Cancelling a finished task does
/// nothing. A task can be cancelled from any thread, any number of times.
///
/// ```swift
/// let task = client.fetch(.url(link), extracting: .data) { result in … }
/// task.cancel()
/// let data = try await task.value  // or await the same result the completion gets
/// ```
public final class FetchTask<Value: Sendable>: Sendable {
    private let execution: any CancellableExecution
    private let handoff: TaskHandoff<Value>

    init(execution: any CancellableExecution, handoff: TaskHandoff<Value>) {
        self.execution = execution
        self.handoff = handoff
    }

    /// An identifier of the request, unique within its client (the ``RequestSummary/id`` observers see).
    public var id: Int { execution.id }

    /// Cancels the request if it is not finished yet.
    public func cancel() {
        execution.cancel()
    }

    /// Whether the request has finished (its completion has been scheduled), for any reason.
    public var isFinished: Bool { execution.isFinished }

    /// The request's result, once it has ended: the same one its completion receives.
    ///
    /// Cancelling the task that awaits it stops the waiting, not the request (call
    /// ``cancel()`` for that).
    public var result: Result<Value, FetchError> {
        get async { await handoff.result }
    }

    /// The request's value, once it has succeeded.
    ///
    /// - Throws: the request's ``FetchError``.
    public var value: Value {
        get async throws(FetchError) { try await handoff.result.get() }
    }

    /// The transfer's progress as it goes, for `async` code: the reports a `progress` closure
    /// gets, at most every ``FetchClient/Configuration-swift.struct/progressInterval``, the last
    /// one with ``TransferProgress/isFinished`` set; the sequence ends after it.
    ///
    /// ```swift
    /// let download = client.fetch(Trailers.movie(550), extracting: .file(to: file), completion: nil)
    /// for await progress in download.progress {
    ///     print(progress.fractionCompleted ?? 0)
    /// }
    /// let trailer = try await download.value
    /// ```
    ///
    /// Each access makes a new sequence, which starts with the last report so far (a request
    /// that has ended gives its finished report and ends). The transfer is polled only once a
    /// sequence is made (or when the fetch has a `progress` closure). A fetch that joined a
    /// request another caller started with the same `sharing:` key reports no progress: its
    /// sequence ends when the request does. Leaving the loop early does not cancel the request.
    public var progress: AsyncStream<TransferProgress> {
        handoff.progressChannel.stream()
    }
}

/// What a `FetchTask` needs from the request it controls.
protocol CancellableExecution: AnyObject, Sendable {
    var id: Int { get }
    var isFinished: Bool { get }
    func cancel()
    /// Marks the request cancelled and returns the rest of the work of cancelling it
    /// (`nil` when it had already finished).
    func markCancelled() -> (() -> Void)?
    /// Lets the attempt in progress finish and starts no other attempt.
    func stopRetrying()
}
