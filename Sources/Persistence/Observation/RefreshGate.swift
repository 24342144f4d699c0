import Foundation
import Locking

/// The bookkeeping an observer of commits keeps under one lock: whether a refresh is queued,
/// whether the observer was cancelled, and the work the queued refresh is to do (`Pending`: the
/// changed rows for ``QueryObserver``, nothing for ``ValueObserver``).
///
/// Commits that land while a refresh is queued are folded into it: ``schedule(_:)`` asks the
/// caller to queue a refresh only when none is queued, and ``begin(leaving:)`` takes the folded
/// work when the refresh starts.
final class RefreshGate<Pending: Sendable>: Sendable {
    private struct State {
        var queued = false
        var cancelled = false
        var pending: Pending
    }

    private let state: Locked<State>

    init(_ pending: Pending) {
        state = Locked(State(pending: pending))
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Stops the observer; returns whether it was still observing.
    @discardableResult
    func cancel() -> Bool {
        state.withLock { state in
            defer { state.cancelled = true }
            return !state.cancelled
        }
    }

    /// Folds a commit into the pending work with `fold`, unless the observer was cancelled; returns
    /// whether the caller is to queue a refresh (none is queued yet).
    func schedule(_ fold: (inout Pending) -> Void) -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            fold(&state.pending)
            guard !state.queued else { return false }
            state.queued = true
            return true
        }
    }

    /// Changes the pending work without queueing a refresh: the next commit's refresh does it.
    func amend(_ change: (inout Pending) -> Void) {
        state.withLock { change(&$0.pending) }
    }

    /// Starts the queued refresh: takes the pending work and leaves `next` in its place.
    func begin(leaving next: Pending) -> Pending {
        state.withLock { state in
            state.queued = false
            defer { state.pending = next }
            return state.pending
        }
    }
}

/// An observer whose refreshes a ``RefreshGate`` schedules; it reads with `reader` and delivers on
/// `deliveryQueue`.
protocol GatedObserver: CommitObserver {
    associatedtype Pending: Sendable
    var gate: RefreshGate<Pending> { get }
    var reader: ObjectContext { get }
    var deliveryQueue: DispatchQueue { get }
    /// Reports the store's closing to the observer's owner, on `deliveryQueue`; `nil` when it has
    /// no error handler.
    var closeReport: (@Sendable (PersistenceError) -> Void)? { get }
}

extension GatedObserver {
    var isCancelled: Bool { gate.isCancelled }

    func cancel() {
        gate.cancel()
        reader.core.center.remove(self)
    }

    func storeDidClose(_ error: PersistenceError) {
        let wasObserving = gate.cancel()
        reader.core.center.remove(self)
        guard wasObserving, let report = closeReport else { return }
        deliveryQueue.async { report(error) }
    }
}
