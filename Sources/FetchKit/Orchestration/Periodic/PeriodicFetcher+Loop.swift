import Locking

extension PeriodicFetcher {
    /// What ended a wait of the loop.
    enum Wake: Sendable {
        case tick, trigger
    }

    /// The loop of one started schedule. It holds the fetcher's parts, not the fetcher, so
    /// releasing the fetcher cancels it (see `deinit`).
    struct LoopContext: Sendable {
        let interval: Duration
        let firstRunDelay: Duration
        let jitter: Duration
        let makeSchedule: @Sendable () -> ClockSchedule
        let job: @Sendable () async throws -> Outcome
        let onRun: @Sendable (PeriodicRun<Outcome>) -> Void
        let state: Locked<State>

        func loop(generation: Int) async {
            let schedule = makeSchedule()
            var tick = firstRunDelay
            var number = 0
            var skipped = 0
            while true {
                let wake: Wake
                do {
                    wake = try await waitForTickOrTrigger(schedule: schedule, deadline: tick + randomJitter())
                } catch {
                    return
                }
                let scheduledAt = wake == .tick ? tick : schedule.elapsed()
                let shouldRun = state.withLock { state -> Bool? in
                    guard state.generation == generation else { return nil }
                    guard state.status == .active else { return false }
                    state.isRunningJob = true
                    state.triggered = false  // This run answers any pending runNow().
                    return true
                }
                guard let shouldRun else { return }
                if shouldRun {
                    number += 1
                    let result: Result<Outcome, any Error>
                    do {
                        result = .success(try await job())
                    } catch {
                        result = .failure(error)
                    }
                    let current = state.withLock { state -> Bool in
                        state.isRunningJob = false
                        return state.generation == generation
                    }
                    guard current else { return }
                    let run = PeriodicRun(number: number, result: result, skippedTicks: skipped, scheduledAt: scheduledAt)
                    onRun(run)
                    for follower in state.withLock({ Array($0.followers.values) }) { follower.yield(run) }
                    skipped = 0
                }
                if wake == .tick { tick += interval }
                let now = schedule.elapsed()
                while tick < now {
                    tick += interval
                    if shouldRun { skipped += 1 }
                }
            }
        }

        /// Sleeps until `deadline` or until ``PeriodicFetcher/runNow()``, whichever comes first.
        private func waitForTickOrTrigger(schedule: ClockSchedule, deadline: Duration) async throws -> Wake {
            let pending = state.withLock { state -> Bool in
                defer { state.triggered = false }
                return state.triggered
            }
            if pending { return .trigger }
            return try await withThrowingTaskGroup(of: Wake.self) { group in
                group.addTask {
                    try await schedule.sleepUntil(deadline)
                    return .tick
                }
                group.addTask {
                    try await waitForTrigger()
                    return .trigger
                }
                defer { group.cancelAll() }
                guard let wake = try await group.next() else { throw CancellationError() }
                return wake
            }
        }

        /// Suspends until ``PeriodicFetcher/runNow()`` wakes it; throws when cancelled.
        private func waitForTrigger() async throws {
            let state = state
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let fireNow = state.withLock { state -> Bool in
                        if state.triggered {
                            state.triggered = false
                            return true
                        }
                        state.wake = continuation
                        return false
                    }
                    if fireNow {
                        continuation.resume()
                    } else if Task.isCancelled {
                        // Cancelled before the wake-up was stored: onCancel found nothing to resume.
                        Self.takeWake(from: state)?.resume()
                    }
                }
            } onCancel: {
                Self.takeWake(from: state)?.resume()
            }
            try Task.checkCancellation()
        }

        private static func takeWake(from state: Locked<State>) -> CheckedContinuation<Void, Never>? {
            state.withLock { state in
                defer { state.wake = nil }
                return state.wake
            }
        }

        private func randomJitter() -> Duration {
            guard jitter > .zero else { return .zero }
            let (seconds, attoseconds) = jitter.components
            let limit = Double(seconds) + Double(attoseconds) / 1e18
            return .seconds(Double.random(in: 0...limit))
        }
    }
}
