import Locking

/// The observation token a live type holds, swapped when its query changes and cancelled when
/// the live type is released (from its `deinit`, which may run on any thread: hence the lock).
final class Subscription: Sendable {
    private let token = Locked<ObservationToken?>(nil)

    /// Cancels the current observation and keeps `next`.
    func replace(with next: ObservationToken) {
        let previous = token.withLock { token in
            defer { token = next }
            return token
        }
        previous?.cancel()
    }

    /// Cancels the current observation.
    func cancel() {
        token.withLock { $0.take() }?.cancel()
    }
}
