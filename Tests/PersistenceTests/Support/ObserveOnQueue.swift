import Foundation

@testable import Persistence

extension ObjectStore {
    /// Starts `observation` with its callbacks on `queue`: the start every public form goes
    /// through, for tests that drain the queue to know that every delivery there will be has come.
    func observe<Element: Sendable>(
        _ observation: StoreObservation<Element>, on queue: DispatchQueue,
        onError: (@Sendable (any Error) -> Void)? = nil, handler: @escaping @Sendable (Element) -> Void
    ) -> ObservationToken {
        observation.start(self, queue, onError, handler)
    }
}
