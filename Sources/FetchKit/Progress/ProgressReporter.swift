import Dispatch
import Foundation
import Locking

/// Reports one request's progress: polls the running transport task at most every
/// `interval`, passes on what changed, and ends with exactly one finished report.
///
/// Every report goes through `queue` (serial), so the timer's reports and the final one
/// never overtake each other, and none follows the final one.
final class ProgressReporter: Sendable {
    private struct State {
        var last: TransferProgress?
        var finished = false
        /// Which exchange the ticks poll: a tick of an earlier one finds another number and stops.
        var generation = 0
        var poll: (@Sendable () -> TransferProgress?)?
        /// Whether anyone follows the reports: until then, nothing is polled (see ``listen()``).
        var listening: Bool
    }

    private let handler: @Sendable (TransferProgress) -> Void
    private let delivery: DispatchQueue?
    private let interval: Duration
    private let queue = DispatchQueue(label: "FetchKit.ProgressReporter")
    private let state: Locked<State>
    /// Marks `queue`, so ``finish(_:)`` called from a report's handler (which runs on it
    /// when there is no delivery queue) does not wait for itself.
    private static let onQueue = DispatchSpecificKey<Bool>()

    /// - Parameters:
    ///   - interval: the shortest time between two reports.
    ///   - delivery: the queue the handler runs on, or `nil` to run it on the reporter's own queue.
    ///   - listening: whether someone follows the reports from the start; otherwise nothing is
    ///     polled before ``listen()``, and the final report goes straight to the handler.
    ///   - handler: receives the reports.
    init(
        interval: Duration, delivery: DispatchQueue?, listening: Bool = true,
        handler: @escaping @Sendable (TransferProgress) -> Void
    ) {
        self.state = Locked(State(listening: listening))
        self.interval = max(interval, .milliseconds(1))
        self.delivery = delivery
        self.handler = handler
        queue.setSpecific(key: Self.onQueue, value: true)
    }

    /// Starts polling a new exchange (a retry replaces the previous one).
    func watch(_ poll: @escaping @Sendable () -> TransferProgress?) {
        let generation = state.withLock { state -> Int? in
            guard !state.finished else { return nil }
            state.generation += 1
            state.poll = poll
            return state.listening ? state.generation : nil
        }
        if let generation { queue.async { [self] in tick(generation) } }
    }

    /// Someone follows the reports from now on (a task's progress sequence was made): polls the
    /// exchange being watched, if any.
    func listen() {
        let generation = state.withLock { state -> Int? in
            guard !state.listening else { return nil }
            state.listening = true
            return state.finished || state.poll == nil ? nil : state.generation
        }
        if let generation { queue.async { [self] in tick(generation) } }
    }

    /// Stops polling (the exchange ended; a retry may watch again).
    func pause() {
        state.withLock { state in
            state.generation += 1
            state.poll = nil
        }
    }

    /// The last report sent, if any.
    var lastReport: TransferProgress? { state.withLock { $0.last } }

    /// Sends the final report (once; later calls do nothing) and stops polling.
    func finish(_ final: TransferProgress) {
        pause()
        // Followed by no one: no tick ran, so the final report needs no queue.
        let unfollowed = state.withLock { state -> Bool in
            guard !state.listening, !state.finished else { return false }
            state.finished = true
            state.last = final
            return true
        }
        if unfollowed {
            handler(final)
            return
        }
        let send = { [self] in
            let send = state.withLock { state -> Bool in
                guard !state.finished else { return false }
                state.finished = true
                state.last = final
                return true
            }
            if send { deliver(final) }
        }
        if DispatchQueue.getSpecific(key: Self.onQueue) == true {
            // Called from a report's handler (the caller cancelled from inside it): finish here.
            send()
        } else {
            queue.sync(execute: send)
        }
    }

    /// Runs on `queue`: reports the polled progress when it changed, and comes back after
    /// `interval` while the exchange is still the one watched.
    private func tick(_ generation: Int) {
        guard let poll = state.withLock({ $0.finished || $0.generation != generation ? nil : $0.poll }) else { return }
        if var progress = poll() {
            progress.isFinished = false
            let changed = state.withLock { state -> Bool in
                guard !state.finished, state.generation == generation, state.last != progress else { return false }
                state.last = progress
                return true
            }
            if changed { deliver(progress) }
        }
        queue.asyncAfter(deadline: interval.fromNow) { [weak self] in self?.tick(generation) }
    }

    private func deliver(_ progress: TransferProgress) {
        if let delivery {
            let handler = self.handler
            delivery.async { handler(progress) }
        } else {
            handler(progress)
        }
    }
}
