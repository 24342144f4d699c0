public import Dispatch
import Locking

/// Runs many asynchronous jobs with a concurrency limit and reports one outcome, once.
///
/// A fan-out takes a collection of elements and an asynchronous transform (usually a fetch),
/// runs at most ``maximumConcurrency`` transforms at a time, and keeps each item's result.
/// A caller-given rule says whether an item's value changed anything; the items' outcomes
/// combine under ``failureRule`` into one ``RefreshOutcome``. Work starts as slots free up:
/// the fan-out runs ``maximumConcurrency`` worker tasks, each taking the next item as soon
/// as it finishes one, so 10,000 items never mean more than ``maximumConcurrency`` tasks.
///
/// For example, MustC's background refresh:
///
/// ```swift
/// let report = await FanOut().run(movies, changed: { movie, rating in
///     rating != movie.popularity
/// }) { movie in
///     try await client.fetch(TMDB.movie(id: movie.remoteID), extracting: .decode(Double.self, at: "popularity"))
/// }
/// completionHandler(report.outcome)   // .newData, .noData or .failed
/// ```
///
/// The async form stops when its task is cancelled; the callback form
/// (``run(_:changed:isolation:progress:transform:completion:)``) returns a ``RunHandle``.
public struct FanOut: Sendable {
    /// The default concurrency limit: 6, libcurl's and URLSession's usual limit of
    /// connections per host, so a fan-out against one API does not queue requests
    /// behind the transport's own limit (where their timeouts would run while they wait).
    public static let defaultMaximumConcurrency = 6

    /// The most transforms that run at the same time; values below 1 mean 1.
    public var maximumConcurrency: Int
    /// How failed items combine into the outcome.
    public var failureRule: FailureRule
    /// Where ``run(_:changed:isolation:progress:transform:completion:)`` runs its callbacks for a
    /// caller isolated to no actor; `nil` (the default) for a serial queue of each run's own.
    /// Callers on the main actor or another actor get their callbacks there, whatever this says.
    public var callbackQueue: DispatchQueue?

    /// Creates a fan-out configuration.
    ///
    /// - Parameters:
    ///   - maximumConcurrency: the most transforms that run at once; values below 1 mean 1.
    ///   - failureRule: how failed items combine into the outcome.
    ///   - callbackQueue: where the callback form's callbacks run for a caller isolated to no
    ///     actor; `nil` for a serial queue of each run's own.
    public init(
        maximumConcurrency: Int = FanOut.defaultMaximumConcurrency, failureRule: FailureRule = .strict,
        callbackQueue: DispatchQueue? = nil
    ) {
        self.maximumConcurrency = max(1, maximumConcurrency)
        self.failureRule = failureRule
        self.callbackQueue = callbackQueue
    }

    /// Runs `transform` over every element and returns the report when all have finished.
    ///
    /// Items start in input order as slots free up. If the calling task is cancelled, no
    /// further item starts, the running ones are cancelled, and the report counts every
    /// unfinished item as failed with a `CancellationError`.
    ///
    /// - Parameters:
    ///   - elements: the items to process.
    ///   - changed: whether an item's value changed anything (for example, a new rating).
    ///   - progress: called after each item finishes, one call at a time, in order, on the
    ///     task that finished the item; keep it short.
    ///   - transform: the work for one item, such as a fetch.
    /// - Returns: the aggregate outcome and every item's result, in input order.
    public func run<Element: Sendable, Value: Sendable>(
        _ elements: some Collection<Element>,
        changed: @escaping @Sendable (Element, Value) -> Bool,
        progress: (@Sendable (FanOutProgress) -> Void)? = nil,
        transform: @escaping @Sendable (Element) async throws -> Value
    ) async -> FanOutReport<Value> {
        await run(elements, extraWorkers: 0, changed: changed, progress: progress, transform: transform)
    }

    /// ``run(_:changed:progress:transform:)`` with `extraWorkers` more items in flight than
    /// ``maximumConcurrency``, for `fetchAll`, whose client keeps the wire within the limit.
    func run<Element: Sendable, Value: Sendable>(
        _ elements: some Collection<Element>,
        extraWorkers: Int,
        changed: @escaping @Sendable (Element, Value) -> Bool,
        progress: (@Sendable (FanOutProgress) -> Void)?,
        transform: @escaping @Sendable (Element) async throws -> Value
    ) async -> FanOutReport<Value> {
        var events: (@Sendable (FanOutEvent<Value>) -> Void)?
        if let progress {
            events = { event in
                if case .item(_, _, _, let report) = event { progress(report) }
            }
        }
        return await run(elements, extraWorkers: extraWorkers, changed: changed, events: events, transform: transform)
    }

    /// Runs the fan-out, telling `events` of each item as it finishes.
    func run<Element: Sendable, Value: Sendable>(
        _ elements: some Collection<Element>,
        extraWorkers: Int,
        changed: @escaping @Sendable (Element, Value) -> Bool,
        events: (@Sendable (FanOutEvent<Value>) -> Void)?,
        transform: @escaping @Sendable (Element) async throws -> Value
    ) async -> FanOutReport<Value> {
        let run = FanOutRun<Element, Value>(elements)
        let workers = min(max(1, maximumConcurrency) + max(0, extraWorkers), run.total)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<workers {
                group.addTask {
                    while let (index, element) = run.next() {
                        let (result, outcome) = await Self.process(element, changed: changed, transform: transform)
                        run.record(result, outcome: outcome, at: index, events: events)
                    }
                }
            }
        }
        return run.report(under: failureRule)
    }

    /// Runs `transform` over every element and yields each item as it finishes, then the report.
    ///
    /// The sequence is the fan-out as an `AsyncSequence`: one ``FanOutEvent/item(index:result:outcome:progress:)``
    /// per element, in the order they finish, then one ``FanOutEvent/finished(_:)`` with the
    /// report, and it ends. The run starts when the sequence is made; it stops (running items
    /// cancelled, the report counting them as failed) when the task iterating it is cancelled
    /// or the sequence is dropped before its end.
    ///
    /// ```swift
    /// for await event in FanOut().results(movies, changed: { $0.popularity != $1 }, transform: refresh) {
    ///     if case .finished(let report) = event { completionHandler(report.outcome) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - elements: the items to process.
    ///   - changed: whether an item's value changed anything.
    ///   - transform: the work for one item, such as a fetch.
    /// - Returns: the items as they finish, then the report.
    public func results<Element: Sendable, Value: Sendable>(
        _ elements: some Collection<Element> & Sendable,
        changed: @escaping @Sendable (Element, Value) -> Bool,
        transform: @escaping @Sendable (Element) async throws -> Value
    ) -> AsyncStream<FanOutEvent<Value>> {
        let (stream, continuation) = AsyncStream.makeStream(of: FanOutEvent<Value>.self)
        let fanOut = self
        let task = Task {
            let report = await fanOut.run(
                elements, extraWorkers: 0, changed: changed, events: { continuation.yield($0) }, transform: transform)
            continuation.yield(.finished(report))
            continuation.finish()
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        return stream
    }

    /// Runs independent jobs, such as one fetch each, and returns the report when all finished.
    ///
    /// The same as ``run(_:changed:progress:transform:)`` with each job as its own element.
    ///
    /// - Parameters:
    ///   - jobs: the work to run.
    ///   - changed: whether a job's value changed anything.
    ///   - progress: called after each job finishes, one call at a time, in order.
    /// - Returns: the aggregate outcome and every job's result, in the order of `jobs`.
    public func run<Value: Sendable>(
        jobs: [@Sendable () async throws -> Value],
        changed: @escaping @Sendable (Value) -> Bool,
        progress: (@Sendable (FanOutProgress) -> Void)? = nil
    ) async -> FanOutReport<Value> {
        await run(jobs.indices, changed: { _, value in changed(value) }, progress: progress) { index in
            try await jobs[index]()
        }
    }

    /// Starts a fan-out and calls `completion` exactly once when every item has finished.
    ///
    /// Progress and the completion run in the caller's isolation, in order (every progress
    /// call before the completion): on the main actor from a `@MainActor` class, on an actor
    /// from its method, and, from code isolated to no actor, on ``callbackQueue`` (by default a
    /// serial queue of the run's own).
    /// Cancel through the returned handle; the completion still runs, with a cancelled report.
    ///
    /// ```swift
    /// @MainActor final class RefreshModel {
    ///     var status = ""
    ///     func refresh(_ movies: [Movie], client: FetchClient) {
    ///         FanOut().run(movies, changed: { $0.popularity != $1 }) { movie in
    ///             try await client.fetch(TMDB.movie(id: movie.id), extracting: .decode(Double.self, at: "popularity"))
    ///         } completion: { report in
    ///             self.status = "\(report.outcome)"
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - elements: the items to process.
    ///   - changed: whether an item's value changed anything.
    ///   - isolation: where the callbacks run; the caller's isolation (leave it out).
    ///   - progress: called after each item finishes.
    ///   - transform: the work for one item.
    ///   - completion: receives the report, exactly once.
    /// - Returns: a handle that cancels the fan-out.
    @discardableResult
    public func run<Element: Sendable, Value: Sendable>(
        _ elements: some Collection<Element> & Sendable,
        changed: @escaping @Sendable (Element, Value) -> Bool,
        isolation: isolated (any Actor)? = #isolation,
        progress: ((FanOutProgress) -> Void)? = nil,
        transform: @escaping @Sendable (Element) async throws -> Value,
        completion: @escaping (FanOutReport<Value>) -> Void
    ) -> RunHandle {
        run(
            elements, changed: changed,
            caller: CallerIsolation(isolation: isolation, queue: callbackQueue ?? DispatchQueue(label: "FetchKit.FanOut")),
            progress: progress, transform: transform, completion: completion)
    }

    /// The callback forms' one body: the callbacks run where `caller` says.
    private func run<Element: Sendable, Value: Sendable>(
        _ elements: some Collection<Element> & Sendable,
        changed: @escaping @Sendable (Element, Value) -> Bool,
        caller: CallerIsolation,
        progress: ((FanOutProgress) -> Void)?,
        transform: @escaping @Sendable (Element) async throws -> Value,
        completion: @escaping (FanOutReport<Value>) -> Void
    ) -> RunHandle {
        let callbacks = caller.queue
        var forward: (@Sendable (FanOutProgress) -> Void)?
        if let progress = progress.map(caller.wrap) {
            forward = { @Sendable value in callbacks.async { progress(value) } }
        }
        let completion = caller.wrap(completion)
        let fanOut = self
        let forwardProgress = forward
        let task = Task<Void, Never> {
            let report: FanOutReport<Value> = await fanOut.run(
                elements, changed: changed, progress: forwardProgress, transform: transform)
            callbacks.async { completion(report) }
        }
        return RunHandle(task: task)
    }

    private static func process<Element: Sendable, Value: Sendable>(
        _ element: Element,
        changed: @Sendable (Element, Value) -> Bool,
        transform: @Sendable (Element) async throws -> Value
    ) async -> (Result<Value, any Error>, ItemOutcome) {
        do {
            try Task.checkCancellation()
            let value = try await transform(element)
            return (.success(value), changed(element, value) ? .changed : .unchanged)
        } catch {
            return (.failure(error), .failed)
        }
    }
}
