import Dispatch
import Locking

/// An action that runs once after a delay on a clock, unless it is cancelled first.
///
/// On `ContinuousClock` (the default) it is an entry of the process's ``DeadlineTimer``,
/// which costs no task and no timer of its own; on any other clock, such as a test clock, a
/// task sleeps on the clock, so the action runs when the clock says the time has come, not
/// when real time has passed. It may be cancelled before it is started: starting it then
/// does nothing.
final class ScheduledAction: Sendable {
    private struct State {
        var cancelled = false
        var task: Task<Void, Never>?
        var entry: UInt64?
    }

    private let state = Locked(State())

    /// Starts waiting `delay` on `clock`, then runs `action`; does nothing when cancelled already.
    func start(after delay: Duration, on clock: any Clock<Duration>, _ action: @escaping @Sendable () -> Void) {
        if clock is ContinuousClock || clock is SuspendingClock {
            let timer = DeadlineTimer.shared
            state.withLock { state in
                // Scheduled under the lock, so a `cancel()` on another thread finds the entry.
                guard !state.cancelled else { return }
                state.entry = timer.schedule(after: delay) { [self] in
                    if !isCancelled { action() }
                }
            }
            return
        }
        let task = Task { [self] in
            do {
                try await Self.sleep(clock, for: delay)
            } catch {
                return
            }
            if !isCancelled { action() }
        }
        let cancelled = state.withLock { state -> Bool in
            if !state.cancelled { state.task = task }
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    /// Keeps the action from running, if it has not run yet.
    func cancel() {
        let (task, entry) = state.withLock { state -> (Task<Void, Never>?, UInt64?) in
            state.cancelled = true
            defer { state.entry = nil }
            return (state.task, state.entry)
        }
        task?.cancel()
        if let entry { DeadlineTimer.shared.cancel(entry) }
    }

    private var isCancelled: Bool { state.withLock { $0.cancelled } }

    private static func sleep<C: Clock<Duration>>(_ clock: C, for delay: Duration) async throws {
        try await clock.sleep(until: clock.now.advanced(by: delay), tolerance: nil)
    }
}
