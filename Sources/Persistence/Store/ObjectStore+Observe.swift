public import Dispatch
import Foundation
import Locking

extension ObjectStore {
    /// Observes a query: hands `handler` the current results, then, after each commit that
    /// changes them, the new results and what changed.
    ///
    /// Only committed changes are seen; a rolled-back block never causes a delivery. Deliveries
    /// run on `queue`, in order.
    ///
    /// **Coalescing.** After a commit touches the entity's table, the observation schedules one
    /// refresh on the store's observation queue; commits that land before that refresh runs are
    /// folded into it. The refresh re-runs the query in SQL and delivers only if the results
    /// differ from the last delivery, so a burst of commits may produce a single delivery whose
    /// ``ChangeSet`` describes the combined difference. No delivery is ever skipped at the end of a
    /// burst: the last delivery always reflects the last commit.
    ///
    /// - Parameters:
    ///   - query: the filter and sort to observe.
    ///   - queue: where `handler` runs.
    ///   - onError: called on `queue` if re-running the query fails (for example, the store closed).
    ///   - handler: receives each ``QueryChange``.
    /// - Returns: a token; the observation lasts until it is cancelled or released.
    public func observe<E: StoredEntity>(
        _ query: Query<E>, on queue: DispatchQueue, onError: (@Sendable (PersistenceError) -> Void)? = nil,
        handler: @escaping @Sendable (QueryChange<E>) -> Void
    ) -> ObservationToken {
        let observer = QueryObserver(
            query: query, reader: observerContext, queue: queue, onError: onError, handler: handler)
        core.center.add(observer)
        observer.scheduleRefresh(after: nil)
        return ObservationToken { observer.cancel() }
    }

    /// Observes a query as an asynchronous sequence of ``QueryChange``s.
    ///
    /// The first element holds the current results; each later one follows one or more commits
    /// (coalesced as described in ``observe(_:on:onError:handler:)``). The sequence ends with an
    /// error if re-running the query fails; cancelling the iterating task ends the observation.
    ///
    /// ```swift
    /// for try await change in store.changes(Query<Book>(sortedBy: [Book.title.ascending()])) {
    ///     render(change.results)
    /// }
    /// ```
    ///
    /// - Parameter query: the filter and sort to observe.
    /// - Returns: the sequence of changes.
    public func changes<E: StoredEntity>(_ query: Query<E>) -> AsyncThrowingStream<QueryChange<E>, any Error> {
        AsyncThrowingStream { continuation in
            let token = observe(
                query, on: DispatchQueue(label: "Persistence.changes"),
                onError: { error in continuation.finish(throwing: error) },
                handler: { change in continuation.yield(change) })
            continuation.onTermination = { _ in token.cancel() }
        }
    }

    /// Registers a listener, told the entity's sorted list now and after every change (the seed's
    /// `addListener`).
    ///
    /// The store holds the listener weakly; registering the same listener again replaces its
    /// registration.
    ///
    /// - Parameters:
    ///   - listener: the object to tell.
    ///   - filter: which rows the list holds; `nil` for all.
    ///   - sort: the list's order.
    ///   - queue: where the listener is called.
    public func addListener<L: EntityListener>(
        _ listener: L, where filter: Filter<L.Entity>? = nil, sortedBy sort: [Sort<L.Entity>] = [],
        on queue: DispatchQueue
    ) {
        let box = ListenerBox(listener)
        let id = ObjectIdentifier(listener)
        let holder = TokenHolder()
        let token = observe(Query(where: filter, sortedBy: sort), on: queue) { [listeners] change in
            if !box.call(change.results), let token = holder.token {
                listeners.remove(id: id, token: token)
            }
        }
        holder.token = token
        listeners.set(token, for: listener)
    }

    /// Stops telling a listener about changes (the seed's `removeListener`).
    ///
    /// - Parameter listener: a listener passed to ``addListener(_:where:sortedBy:on:)``.
    public func removeListener(_ listener: some EntityListener) {
        listeners.remove(listener)
    }
}

/// Lets a delivery closure reach its own token once it exists.
final class TokenHolder: Sendable {
    private struct Weak { weak var token: ObservationToken? }
    private let stored = Locked(Weak())

    var token: ObservationToken? {
        get { stored.withLock { $0.token } }
        set { stored.withLock { $0.token = newValue } }
    }
}

/// A listener held weakly, called on its queue.
final class ListenerBox<Entity: StoredEntity>: @unchecked Sendable {
    // `call` is only invoked on the listener's chosen queue; it holds the listener weakly.
    let call: ([Entity]) -> Bool

    init<L: EntityListener>(_ listener: L) where L.Entity == Entity {
        weak let weakListener = listener
        call = { entities in
            guard let listener = weakListener else { return false }
            listener.entitiesDidChange(entities)
            return true
        }
    }
}
