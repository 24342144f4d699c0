import Locking

/// Runs a job every interval, never two runs at once, reporting each run's outcome.
///
/// The schedule is a fixed grid of ticks: the first at the start (or after a delay), then one
/// every `interval`. A run starts at its tick (plus a random jitter of up to `jitter`, if
/// set). **A tick that comes while a run is still going is skipped**, not queued: the next
/// run waits for the next tick after the run ends, and its ``PeriodicRun/skippedTicks``
/// says how many were skipped. While paused, ticks pass without runs. ``runNow()`` starts
/// a run between ticks, unless one is going (then it is refused, like a tick).
///
/// The clock is any Swift `Clock` measured in `Duration`: `ContinuousClock` by default,
/// a `TestClock` from FetchKitTesting in tests, so no test waits in real time.
///
/// For example, the Flickr lab's "a few times an hour":
///
/// ```swift
/// let fetcher = PeriodicFetcher(every: .seconds(20 * 60)) {
///     try await refreshRecentPhotos()
/// } onRun: { run in
///     log("run \(run.number): \(run.result)")
/// }
/// fetcher.start()
/// ```
public final class PeriodicFetcher<Outcome: Sendable>: Sendable {
    /// Where a fetcher is in its life.
    public enum Status: Sendable, Hashable {
        /// Not started, or stopped: no ticks.
        case stopped
        /// Ticking and running the job at each tick.
        case active
        /// Ticking, but ticks pass without runs until ``PeriodicFetcher/resume()``.
        case paused
    }

    struct State {
        var status = Status.stopped
        var generation = 0
        var loop: Task<Void, Never>?
        var isRunningJob = false
        /// The sleeping loop's wake-up for ``PeriodicFetcher/runNow()``.
        var wake: CheckedContinuation<Void, Never>?
        /// A ``PeriodicFetcher/runNow()`` that came while the loop was between waits.
        var triggered = false
        /// The readers of ``PeriodicFetcher/runs()``, by number.
        var followers: [Int: AsyncStream<PeriodicRun<Outcome>>.Continuation] = [:]
        var nextFollower = 0
    }

    /// The time between ticks.
    public let interval: Duration
    /// The time from ``start()`` to the first tick (zero: at once).
    public let firstRunDelay: Duration
    /// The most random delay added to each run's start (zero: none).
    public let jitter: Duration
    private let makeSchedule: @Sendable () -> ClockSchedule
    private let job: @Sendable () async throws -> Outcome
    private let onRun: @Sendable (PeriodicRun<Outcome>) -> Void
    private let state = Locked(State())

    /// Creates a stopped fetcher; call ``start()`` to begin.
    ///
    /// - Parameters:
    ///   - interval: the time between ticks; values below one millisecond mean one millisecond.
    ///   - firstRunDelay: the time from ``start()`` to the first tick; zero runs at once.
    ///   - jitter: the most random delay added to each run, to spread clients' requests.
    ///   - clock: the clock to measure time on; `ContinuousClock()` by default.
    ///   - job: the work of one run, such as a fan-out refresh.
    ///   - onRun: called after each run with its outcome, one call at a time; none by default
    ///     (follow the runs with ``runs()`` instead).
    public init<C: Clock>(
        every interval: Duration, firstRunDelay: Duration = .zero, jitter: Duration = .zero,
        clock: C = ContinuousClock(), job: @escaping @Sendable () async throws -> Outcome,
        onRun: @escaping @Sendable (PeriodicRun<Outcome>) -> Void = { _ in }
    ) where C.Duration == Duration {
        self.interval = max(interval, .milliseconds(1))
        self.firstRunDelay = max(firstRunDelay, .zero)
        self.jitter = max(jitter, .zero)
        self.makeSchedule = { ClockSchedule.starting(on: clock) }
        self.job = job
        self.onRun = onRun
    }

    deinit {
        state.withLock { $0.loop }?.cancel()
    }

    /// Where the fetcher is in its life.
    public var status: Status {
        state.withLock { $0.status }
    }

    /// Whether a run is going on now.
    public var isRunningJob: Bool {
        state.withLock { $0.isRunningJob }
    }

    /// Starts ticking: the first tick comes after ``firstRunDelay``. Does nothing if started.
    ///
    /// After ``stop()``, starting again begins a new schedule and numbers runs from 1; the
    /// first new run waits until a run cancelled by the stop has ended.
    public func start() {
        state.withLock { state in
            guard state.status == .stopped else { return }
            state.status = .active
            state.generation += 1
            let previous = state.loop
            let generation = state.generation
            // The loop holds the fetcher's parts, not the fetcher, so dropping the fetcher stops it.
            let context = LoopContext(
                interval: interval, firstRunDelay: firstRunDelay, jitter: jitter, makeSchedule: makeSchedule, job: job,
                onRun: onRun, state: self.state)
            state.loop = Task {
                await previous?.value
                await context.loop(generation: generation)
            }
        }
    }

    /// Stops ticking and cancels the run going on, if any.
    ///
    /// No run starts after it returns, and a run it cancels is not reported (unless that run
    /// ended just as `stop()` was called). A fetcher that is released also stops.
    public func stop() {
        let (loop, followers) = state.withLock {
            state -> (Task<Void, Never>?, [AsyncStream<PeriodicRun<Outcome>>.Continuation]) in
            let followers = Array(state.followers.values)
            state.followers = [:]
            guard state.status != .stopped else { return (nil, followers) }
            state.status = .stopped
            state.generation += 1
            return (state.loop, followers)
        }
        loop?.cancel()
        for follower in followers { follower.finish() }
    }

    /// The runs as an `AsyncSequence`: each run's ``PeriodicRun`` as it ends, from now until
    /// ``stop()``, when the sequence ends.
    ///
    /// ```swift
    /// let fetcher = PeriodicFetcher(every: .seconds(20 * 60)) { try await refreshRecentPhotos() }
    /// fetcher.start()
    /// for await run in fetcher.runs() {
    ///     print("run \(run.number): \(run.result)")
    /// }
    /// ```
    ///
    /// Each call makes a sequence of its own, for one reader; a reader that stops reading
    /// (its task cancelled) stops following without stopping the fetcher. A sequence made while
    /// the fetcher is stopped ends at once.
    ///
    /// - Returns: the runs, ending when the fetcher stops.
    public func runs() -> AsyncStream<PeriodicRun<Outcome>> {
        let (stream, continuation) = AsyncStream.makeStream(of: PeriodicRun<Outcome>.self)
        let id = state.withLock { state -> Int? in
            guard state.status != .stopped else { return nil }
            state.nextFollower += 1
            state.followers[state.nextFollower] = continuation
            return state.nextFollower
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        let state = state
        continuation.onTermination = { _ in
            _ = state.withLock { $0.followers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Starts a run now, between ticks, unless a run is going or the fetcher is not active.
    ///
    /// The grid of ticks stays as it was: the next tick still comes when it was due (and is
    /// skipped if this run is still going then).
    ///
    /// - Returns: `true` if a run starts, `false` if it was refused because a run is going,
    ///   or the fetcher is paused or stopped.
    @discardableResult
    public func runNow() -> Bool {
        let (accepted, wake) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            guard state.status == .active, !state.isRunningJob else { return (false, nil) }
            if let wake = state.wake {
                state.wake = nil
                return (true, wake)
            }
            state.triggered = true
            return (true, nil)
        }
        wake?.resume()
        return accepted
    }

    /// Lets ticks pass without runs until ``resume()``; a run going on finishes normally.
    public func pause() {
        state.withLock { state in
            if state.status == .active { state.status = .paused }
        }
    }

    /// Runs the job again from the next tick on.
    public func resume() {
        state.withLock { state in
            if state.status == .paused { state.status = .active }
        }
    }
}
