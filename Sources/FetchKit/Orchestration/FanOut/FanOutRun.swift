import Foundation
import Locking

/// The shared state of one fan-out: the items not started yet and the results so far.
///
/// A fan-out runs at most `maximumConcurrency` worker tasks; each pulls the next item from
/// here when it finishes one, so no task waits for the parent between items and 10,000
/// items never mean more than `maximumConcurrency` tasks.
final class FanOutRun<Element: Sendable, Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `pending` and `store` are `Locked` values (each an `NSLock` around its state), so the iterator and
    // the results are only touched under their locks; `progressLock` serializes progress
    // calls; `total` is immutable.
    private struct Store {
        var results: [Result<Value, any Error>?]
        var outcomes: [ItemOutcome]
        var tally = OutcomeTally()
        var completed = 0

        mutating func record(_ result: Result<Value, any Error>, outcome: ItemOutcome, at index: Int) {
            results[index] = result
            outcomes[index] = outcome
            tally.record(outcome)
            completed += 1
        }
    }

    let total: Int
    private let pending: Locked<AnyIterator<(offset: Int, element: Element)>>
    private let store: Locked<Store>
    private let progressLock = NSLock()

    init(_ items: some Collection<Element>) {
        total = items.count
        pending = Locked(AnyIterator(items.enumerated().makeIterator()))
        store = Locked(
            Store(
                results: [Result<Value, any Error>?](repeating: nil, count: total),
                outcomes: [ItemOutcome](repeating: .failed, count: total)))
    }

    /// The next item to start, or `nil` when none is left or the calling task is cancelled.
    func next() -> (offset: Int, element: Element)? {
        guard !Task.isCancelled else { return nil }
        return pending.withLock { $0.next() }
    }

    /// Records one finished item, then reports progress (one call at a time, in order).
    func record(
        _ result: Result<Value, any Error>, outcome: ItemOutcome, at index: Int,
        progress: (@Sendable (FanOutProgress) -> Void)?
    ) {
        guard let progress else {
            store.withLock { $0.record(result, outcome: outcome, at: index) }
            return
        }
        progressLock.withLock {
            let snapshot = store.withLock { store -> FanOutProgress in
                store.record(result, outcome: outcome, at: index)
                return FanOutProgress(
                    completed: store.completed, total: total, changed: store.tally.changed,
                    unchanged: store.tally.unchanged, failed: store.tally.failed)
            }
            progress(snapshot)
        }
    }

    /// The report, with every item that never finished counted as cancelled.
    func report(under rule: FailureRule) -> FanOutReport<Value> {
        store.withLock { store in
            var tally = store.tally
            let results = store.results.map { result -> Result<Value, any Error> in
                if let result { return result }
                tally.record(.failed)
                return .failure(CancellationError())
            }
            return FanOutReport(
                outcome: tally.outcome(under: rule), results: results, itemOutcomes: store.outcomes,
                wasCancelled: store.completed < total)
        }
    }
}
