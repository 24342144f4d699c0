import Dispatch
import Locking

/// An action that runs once after a delay on a clock, unless it is cancelled first.
///
/// On `ContinuousClock` (the default) it is a Dispatch timer, which costs no task; on any
/// other clock, such as a test clock, a task sleeps on the clock, so the action runs when
/// the clock says the time has come, not when real time has passed. It may be cancelled
/// before it is started: starting it then does nothing.
final class ScheduledAction: Sendable {
    private struct State {
        var cancelled = false
        var task: Task<Void, Never>?
    }

    private let state = Locked(State())

    /// Starts waiting `delay` on `clock`, then runs `action`; does nothing when cancelled already.
    func start(after delay: Duration, on clock: any Clock<Duration>, _ action: @escaping @Sendable () -> Void) {
        if clock is ContinuousClock || clock is SuspendingClock {
            guard !isCancelled else { return }
            // Nothing to keep: a cancelled action's timer still fires, and finds the flag set.
            DispatchQueue.global().asyncAfter(deadline: delay.fromNow) { [self] in
                if !isCancelled { action() }
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
        let task = state.withLock { state -> Task<Void, Never>? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }

    private var isCancelled: Bool { state.withLock { $0.cancelled } }

    private static func sleep<C: Clock<Duration>>(_ clock: C, for delay: Duration) async throws {
        try await clock.sleep(until: clock.now.advanced(by: delay), tolerance: nil)
    }
}
