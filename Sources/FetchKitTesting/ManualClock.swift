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
    /// A point on a manual clock: the time since the clock was created (the same instant
    /// type as ``TestClock``'s).
    public typealias Instant = TestClock.Instant

    /// The sleepers and the time; a manual clock differs from a test clock only in how it advances.
    private let base = TestClock()

    /// Creates a clock at offset zero with no sleepers.
    public init() {}

    /// The clock's current time.
    public var now: Instant { base.now }

    /// Zero: the clock moves exactly as far as it is told.
    public var minimumResolution: Duration { .zero }

    /// The number of tasks asleep on this clock.
    public var sleeperCount: Int { base.sleeperCount }

    /// Suspends until ``advance(by:)`` moves the clock to or past `deadline`.
    ///
    /// - Parameters:
    ///   - deadline: when to wake.
    ///   - tolerance: ignored.
    /// - Throws: `CancellationError` when the sleeping task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await base.sleep(until: deadline, tolerance: tolerance)
        try Task.checkCancellation()
    }

    /// Moves the clock forward and wakes every sleeper whose deadline has come, earliest first.
    ///
    /// - Parameter duration: how far to move; negative values do nothing.
    public func advance(by duration: Duration) {
        base.advanceWithoutYielding(by: duration)
    }

    /// Waits, in real time, until at least `count` tasks are asleep on this clock.
    ///
    /// - Parameters:
    ///   - count: the number of sleepers to wait for.
    ///   - timeout: the longest real time to wait; the default, five minutes, outlasts a whole
    ///     test suite that keeps a two-core machine busy, so it is reached only when something hangs.
    /// - Returns: whether the count was reached before the timeout.
    public func waitForSleepers(count: Int = 1, timeout: Duration = .seconds(300)) async -> Bool {
        await base.sleepers(count: count, timeout: timeout)
    }
}
