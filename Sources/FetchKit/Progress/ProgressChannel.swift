import Locking

/// A task's progress as `AsyncSequence`s (``FetchTask/progress``): the reports its request's
/// ``ProgressReporter`` sends, passed to every sequence made from the task. A sequence made late
/// starts with the last report; every sequence ends after the finished report, or when the
/// request ends without one (a caller that joined a request shared by a key gets none).
///
/// The reporter polls the transfer only once a sequence is made (or when the caller passed a
/// `progress` closure): a fetch nobody follows costs no polling.
final class ProgressChannel: Sendable {
    private typealias Continuation = AsyncStream<TransferProgress>.Continuation

    private struct State {
        var last: TransferProgress?
        var ended = false
        var listeners: [Int: Continuation] = [:]
        var nextID = 0
        /// Whether a sequence was made: the reporter is told to poll as soon as it is known.
        var wanted = false
        var listen: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    /// Sets what starts the polling when the first sequence is made (the reporter's `listen()`);
    /// runs it at once when a sequence was made already.
    func onListen(_ listen: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard !state.wanted else { return true }
            state.listen = listen
            return false
        }
        if now { listen() }
    }

    /// Passes a report to every sequence; the finished one ends them.
    func send(_ progress: TransferProgress) {
        let ended = state.withLock { state -> [Continuation] in
            guard !state.ended else { return [] }
            state.last = progress
            // Under the lock, so that reports reach every sequence in order.
            for listener in state.listeners.values { listener.yield(progress) }
            return progress.isFinished ? Self.end(&state) : []
        }
        // Outside the lock: finishing runs a sequence's termination handler, which takes it.
        for listener in ended { listener.finish() }
    }

    /// Ends every sequence (the request ended); a later report is dropped.
    func end() {
        for listener in state.withLock({ Self.end(&$0) }) { listener.finish() }
    }

    /// Marks the channel ended and returns the sequences to finish.
    private static func end(_ state: inout State) -> [Continuation] {
        guard !state.ended else { return [] }
        state.ended = true
        state.listen = nil
        defer { state.listeners = [:] }
        return Array(state.listeners.values)
    }

    /// A new sequence of the reports: the last one so far first, then each one as it comes.
    func stream() -> AsyncStream<TransferProgress> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: TransferProgress.self, bufferingPolicy: .bufferingNewest(16))
        let listen = state.withLock { state -> (@Sendable () -> Void)? in
            // Under the lock, so that no newer report overtakes the last one.
            if let last = state.last { continuation.yield(last) }
            if state.ended {
                continuation.finish()
                return nil
            }
            let id = state.nextID
            state.nextID += 1
            state.listeners[id] = continuation
            continuation.onTermination = { [weak self] _ in
                self?.state.withLock { _ = $0.listeners.removeValue(forKey: id) }
            }
            defer {
                state.wanted = true
                state.listen = nil
            }
            return state.wanted ? nil : state.listen
        }
        listen?()
        return stream
    }
}
