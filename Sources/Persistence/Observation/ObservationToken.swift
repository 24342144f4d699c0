import Foundation

/// Keeps an observation alive; cancel it (or let it go) to stop deliveries.
///
/// After ``cancel()`` returns no new delivery starts; one already running on the observer's
/// queue finishes.
public final class ObservationToken: Sendable {
    private let cancelAction: @Sendable () -> Void
    private let done = LockedFlag()

    init(_ cancel: @escaping @Sendable () -> Void) { cancelAction = cancel }

    deinit { cancel() }

    /// Stops the observation.
    public func cancel() {
        if !done.testAndSet() { cancelAction() }
    }
}
