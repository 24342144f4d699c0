import Dispatch

/// An action that runs once after a delay on a clock, unless it is cancelled first.
///
/// On `ContinuousClock` (the default) it is a Dispatch timer, which costs no task; on any
/// other clock, such as a test clock, a task sleeps on the clock, so the action runs when
/// the clock says the time has come, not when real time has passed. It may be cancelled
/// before it is started: starting it then does nothing.
final class ScheduledAction: Sendable {
    private enum Handle {
        case dispatch(DispatchWorkItem)
        case task(Task<Void, Never>)
    }

    private let state = Locked<(cancelled: Bool, handle: Handle?)>((false, nil))

    /// Starts waiting `delay` on `clock`, then runs `action`; does nothing when cancelled already.
    func start(after delay: Duration, on clock: any Clock<Duration>, _ action: @escaping @Sendable () -> Void) {
        let handle: Handle
        if clock is ContinuousClock || clock is SuspendingClock {
            handle = .dispatch(DispatchWorkItem(block: action))
        } else {
            handle = .task(
                Task {
                    do {
                        try await Self.sleep(clock, for: delay)
                    } catch {
                        return
                    }
                    action()
                })
        }
        let cancelled = state.withLock { state -> Bool in
            if !state.cancelled { state.handle = handle }
            return state.cancelled
        }
        switch handle {
        case .dispatch(let item):
            if !cancelled { DispatchQueue.global().asyncAfter(deadline: delay.fromNow, execute: item) }
        case .task(let task):
            if cancelled { task.cancel() }
        }
    }

    /// Keeps the action from running, if it has not run yet.
    func cancel() {
        let handle = state.withLock { state -> Handle? in
            state.cancelled = true
            return state.handle
        }
        switch handle {
        case .dispatch(let item): item.cancel()
        case .task(let task): task.cancel()
        case nil: break
        }
    }

    private static func sleep<C: Clock<Duration>>(_ clock: C, for delay: Duration) async throws {
        try await clock.sleep(until: clock.now.advanced(by: delay), tolerance: nil)
    }
}
