import Foundation
import TestSupport
import Testing

@testable import Persistence

extension Watched {
    /// Starts observing the query in `store`, each delivery appended to ``deliveries``.
    func observe(in store: ObjectStore) -> ObservationToken {
        store.observe(.query(query), on: queue) { change in self.deliveries.append(change) }
    }

    /// Waits until the latest delivery holds what the query fetches now (in any order when the
    /// query has no sort, whose order is unspecified); returns whether it did.
    func waitForCurrentResults(in store: ObjectStore) throws -> Bool {
        let truth = try store.context.readAndWait { tx in try tx.fetch(query) }
        let ordered = !query.sort.isEmpty
        return deliveries.wait { deliveries in
            guard let results = deliveries.last?.results else { return false }
            return ordered
                ? results == truth
                : results.map(\.row).sorted { "\($0)" < "\($1)" } == truth.map(\.row).sorted { "\($0)" < "\($1)" }
        }
    }

    /// The positions of the deliveries whose change set differs from the full diff of the two
    /// result lists it connects, once the delivery queue has run what it was given.
    func deliveriesUnlikeAFullDiff() -> [Int] {
        queue.sync {}
        let values = deliveries.values
        return (1..<max(1, values.count)).filter { position in
            let old = values[position - 1].results
            let new = values[position].results
            let full = ChangeSet.diff(
                old: old.map(\.id), oldRows: old.map(\.row), new: new.map(\.id), newRows: new.map(\.row))
            return values[position].changes != full
        }
    }
}
