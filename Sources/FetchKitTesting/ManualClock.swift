import Foundation

/// A clock that moves only when told to: for tests of timed work that must not wait in real time.
///
/// It is a Swift `Clock`, so anything that takes `some Clock<Duration>` (such as FetchKit's
/// `PeriodicFetcher`) runs on it. ``advance(by:)`` is synchronous and only resumes the
/// sleepers it wakes; ``TestClock`` also lets the woken tasks run before it returns, which
/// most tests want. Sleepers wake when ``advance(by:)`` moves ``now`` to or
/// past their deadline; ``waitForSleepers(count:timeout:)`` lets a test wait until the code
/// under test has gone to sleep before advancing.
///
/// ```swift
/// let clock = ManualClock()
/// let fetcher = PeriodicFetcher(every: .seconds(900), clock: clock, job: refresh, onRun: record)
/// fetcher.start()
/// _ = await clock.waitForSleepers()
/// clock.advance(by: .seconds(900))   // the next run starts now, in no real time
/// ```
public final class ManualClock: Clock, Sendable {
    /// A point on a manual clock: the time since the clock was created.
    public struct Instant: InstantProtocol, Sendable {
        /// The time since the clock's origin.
        public var offset: Duration

        /// Creates an instant.
        ///
        /// - Parameter offset: the time since the clock's origin.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        ///
        /// - Parameter duration: the time to add.
        /// - Returns: the later instant.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        ///
        /// - Parameter other: another instant.
        /// - Returns: `other` minus this instant.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        ///
        /// - Parameters:
        ///   - lhs: an instant.
        ///   - rhs: another instant.
        /// - Returns: `true` when `lhs` is earlier.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [UUID: Sleeper] = [:]
    }

    private let state = Locked(State())

    /// Creates a clock at offset zero.
    public init() {}

    /// The clock's current instant.
    public var now: Instant {
        state.withLock { $0.now }
    }

    /// Zero: a manual clock is exact.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are asleep on this clock.
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// Suspends until the clock reaches `deadline` (returns at once if it has).
    ///
    /// - Parameters:
    ///   - deadline: the instant to wake at.
    ///   - tolerance: ignored; a manual clock is exact.
    /// - Throws: `CancellationError` when the sleeping task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let wakeNow = state.withLock { state -> Bool in
                    if deadline <= state.now { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if wakeNow {
                    continuation.resume()
                } else if Task.isCancelled {
                    // Cancelled before the sleeper was registered: onCancel found nothing to wake.
                    state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(
                        throwing: CancellationError())
                }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Moves the clock forward and wakes every sleeper whose deadline has come, earliest first.
    ///
    /// - Parameter duration: how far to move; negative values do nothing.
    public func advance(by duration: Duration) {
        guard duration > .zero else { return }
        let woken = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Waits, in real time, until at least `count` tasks are asleep on this clock.
    ///
    /// - Parameters:
    ///   - count: the number of sleepers to wait for.
    ///   - timeout: the longest real time to wait.
    /// - Returns: whether the count was reached before the timeout.
    public func waitForSleepers(count: Int = 1, timeout: Duration = .seconds(10)) async -> Bool {
        let realClock = ContinuousClock()
        let deadline = realClock.now.advanced(by: timeout)
        while sleeperCount < count {
            if realClock.now >= deadline { return false }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return true
    }
}
