import Foundation
import Locking

/// The shared state of one fan-out: the items not started yet and the results so far.
///
/// A fan-out runs at most `maximumConcurrency` worker tasks; each pulls the next item from
/// here when it finishes one, so no task waits for the parent between items and 10,000
/// items never mean more than `maximumConcurrency` tasks.
final class FanOutRun<Element: Sendable, Value: Sendable>: Sendable {
    private struct Store {
        var results: [Result<Value, any Error>?]
        var outcomes: [ItemOutcome]
        var tally = OutcomeTally()
        var completed = 0
        /// Item events not delivered yet, oldest first, and whether a thread delivers them.
        var reports: [FanOutEvent<Value>] = []
        var delivering = false

        mutating func record(_ result: Result<Value, any Error>, outcome: ItemOutcome, at index: Int) {
            results[index] = result
            outcomes[index] = outcome
            tally.record(outcome)
            completed += 1
        }
    }

    let total: Int
    private let items: [Element]
    /// The offset of the next item to start.
    private let nextOffset = Locked(0)
    private let store: Locked<Store>

    init(_ items: some Collection<Element>) {
        self.items = Array(items)
        total = self.items.count
        store = Locked(
            Store(
                results: [Result<Value, any Error>?](repeating: nil, count: total),
                outcomes: [ItemOutcome](repeating: .failed, count: total)))
    }

    /// The next item to start, or `nil` when none is left or the calling task is cancelled.
    func next() -> (offset: Int, element: Element)? {
        guard !Task.isCancelled else { return nil }
        let offset = nextOffset.withLock { offset -> Int? in
            guard offset < total else { return nil }
            defer { offset += 1 }
            return offset
        }
        return offset.map { ($0, items[$0]) }
    }

    /// Records one finished item, then reports it to `events`: one call at a time, in order, and
    /// with no lock held while `events` runs (the thread that finds nobody delivering delivers
    /// every event queued until none is left).
    func record(
        _ result: Result<Value, any Error>, outcome: ItemOutcome, at index: Int,
        events: (@Sendable (FanOutEvent<Value>) -> Void)?
    ) {
        guard let events else {
            store.withLock { $0.record(result, outcome: outcome, at: index) }
            return
        }
        let delivers = store.withLock { store -> Bool in
            store.record(result, outcome: outcome, at: index)
            let progress = FanOutProgress(
                completed: store.completed, total: total, changed: store.tally.changed,
                unchanged: store.tally.unchanged, failed: store.tally.failed)
            store.reports.append(.item(index: index, result: result, outcome: outcome, progress: progress))
            guard !store.delivering else { return false }
            store.delivering = true
            return true
        }
        guard delivers else { return }
        while let event = store.withLock({ store -> FanOutEvent<Value>? in
            guard !store.reports.isEmpty else {
                store.delivering = false
                return nil
            }
            return store.reports.removeFirst()
        }) {
            events(event)
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
