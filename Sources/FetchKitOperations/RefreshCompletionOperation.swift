public import FetchKit
public import Dispatch
import Foundation
import Locking

/// An operation that runs after its dependencies and reports their aggregate outcome, once.
///
/// It reads every dependency that adopts ``ItemOutcomeReporting`` (such as
/// ``FetchOperation``), combines their outcomes under a `FailureRule` and calls its
/// handler with the `RefreshOutcome`. Other dependencies only order it. The handler runs
/// exactly once: with the aggregate when the operation runs, or with
/// `RefreshOutcome.failed` if the operation is cancelled before it starts.
///
/// A background refresh as an Operation pipeline:
///
/// ```swift
/// let queue = OperationQueue()
/// queue.maxConcurrentOperationCount = FanOut.defaultMaximumConcurrency
/// let updates = movies.map { movie in
///     FetchOperation(changed: { $0 != movie.popularity }) { try await fetchRating(of: movie) }
/// }
/// queue.addRefresh(updates) { outcome in completionHandler(outcome) }
/// ```
public final class RefreshCompletionOperation: AsyncOperation, @unchecked Sendable {
    // @unchecked Sendable: `reported` is a `Locked` (an `NSLock` around it); the other properties are immutable.
    private let failureRule: FailureRule
    private let queue: DispatchQueue?
    private let handler: @Sendable (RefreshOutcome) -> Void
    private let reported = Locked<RefreshOutcome?>(nil)

    /// Creates a completion operation; add the operations it waits for as dependencies.
    ///
    /// - Parameters:
    ///   - failureRule: how failed dependencies combine into the outcome.
    ///   - queue: where `handler` runs; when `nil`, inside this operation, so it finishes only
    ///     after `handler` has returned.
    ///   - handler: receives the outcome, exactly once.
    public init(
        failureRule: FailureRule = .strict, queue: DispatchQueue? = nil,
        handler: @escaping @Sendable (RefreshOutcome) -> Void
    ) {
        self.failureRule = failureRule
        self.queue = queue
        self.handler = handler
        super.init()
    }

    /// The outcome reported, or `nil` before the operation has run.
    public var outcome: RefreshOutcome? {
        reported.withLock { $0 }
    }

    /// Combines the dependencies' outcomes, reports the aggregate and finishes.
    public override func execute() {
        let outcomes = dependencies.compactMap { dependency -> ItemOutcome? in
            guard let reporting = dependency as? any ItemOutcomeReporting else { return nil }
            return reporting.itemOutcome ?? .failed
        }
        report(failureRule.outcome(of: outcomes))
        finish()
    }

    /// Reports `RefreshOutcome.failed`: a refresh cancelled before it completes could not run.
    public override func cancelledBeforeStart() {
        report(.failed)
    }

    private func report(_ outcome: RefreshOutcome) {
        let isFirst = reported.withLock { stored in
            guard stored == nil else { return false }
            stored = outcome
            return true
        }
        guard isFirst else { return }
        if let queue {
            queue.async { [handler] in handler(outcome) }
        } else {
            handler(outcome)
        }
    }
}
