/// One run of a ``PeriodicFetcher`` and what it came to.
public struct PeriodicRun<Outcome: Sendable>: Sendable {
    /// The run's number since ``PeriodicFetcher/start()``, from 1.
    public var number: Int
    /// The job's outcome, or its error (`CancellationError` if ``PeriodicFetcher/stop()``
    /// cancelled it).
    public var result: Result<Outcome, any Error>
    /// Ticks that passed without a run since the previous run because that run was still
    /// going when they came.
    public var skippedTicks: Int
    /// When the run's tick was due, measured from ``PeriodicFetcher/start()`` on the fetcher's clock.
    public var scheduledAt: Duration

    /// Creates a run record.
    ///
    /// - Parameters:
    ///   - number: the run's number, from 1.
    ///   - result: the job's outcome or error.
    ///   - skippedTicks: ticks skipped since the previous run.
    ///   - scheduledAt: when the run's tick was due, from the start.
    init(number: Int, result: Result<Outcome, any Error>, skippedTicks: Int, scheduledAt: Duration) {
        self.number = number
        self.result = result
        self.skippedTicks = skippedTicks
        self.scheduledAt = scheduledAt
    }
}
