public import Dispatch
import Foundation
import Locking

extension ObjectStore {
    /// Observes a query: hands `handler` the current results, then, after each commit that
    /// changes them, the new results and what changed.
    ///
    /// Only committed changes are seen; a rolled-back block never causes a delivery. Deliveries
    /// run in the caller's isolation, one at a time and in order: on the main actor from a
    /// `@MainActor` class (so the handler can update its state), on an actor from its method,
    /// and on a serial queue of the observation's own from code isolated to no actor.
    ///
    /// ```swift
    /// @MainActor final class LibraryScreen {
    ///     var books: [Book] = []
    ///     var token: ObservationToken?
    ///     func start(_ store: ObjectStore) {
    ///         token = store.observe(Query<Book>(sortedBy: [Book.title.ascending()])) { change in
    ///             self.books = change.results
    ///         }
    ///     }
    /// }
    /// ```
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
    ///   - queue: where the callbacks of a caller isolated to no actor run; `nil` for a serial queue
    ///     of the observation's own. A caller isolated to an actor gets them in its isolation.
    ///   - isolation: where `handler` and `onError` run; the caller's isolation (leave it out).
    ///   - onError: called if re-running the query fails, and once when the store closes
    ///     (``PersistenceError/Code-swift.struct/closed``, naming the store; the observation then stops).
    ///   - handler: receives each ``QueryChange``.
    /// - Returns: a token; the observation lasts until it is cancelled or released.
    public func observe<E: StoredEntity>(
        _ query: Query<E>, queue: DispatchQueue? = nil, isolation: isolated (any Actor)? = #isolation,
        onError: ((PersistenceError) -> Void)? = nil, handler: @escaping (QueryChange<E>) -> Void
    ) -> ObservationToken {
        let caller = CallerIsolation(isolation: isolation, queue: queue ?? DispatchQueue(label: "Persistence.observe"))
        return startObserving(
            query, queue: caller.queue, onError: onError.map(caller.wrap), handler: caller.wrap(handler))
    }

    /// Starts observing `query`, delivering on `queue`: what every query observation runs.
    func startObserving<E: StoredEntity>(
        _ query: Query<E>, queue: DispatchQueue, onError: (@Sendable (PersistenceError) -> Void)?,
        handler: @escaping @Sendable (QueryChange<E>) -> Void
    ) -> ObservationToken {
        let observer = QueryObserver(
            query: query, reader: observerContext, queue: queue, onError: onError, handler: handler)
        core.center.add(observer)
        if core.closed.isSet {
            observer.storeDidClose(closedError())
        } else {
            observer.scheduleRefresh(after: nil)
        }
        return ObservationToken { observer.cancel() }
    }

    /// Observes a query as an asynchronous sequence of ``QueryChange``s.
    ///
    /// The first element holds the current results; each later one follows one or more commits
    /// (coalesced as described in ``observe(_:queue:isolation:onError:handler:)``). The sequence ends with an
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
                query,
                onError: { error in continuation.finish(throwing: error) },
                handler: { change in continuation.yield(change) })
            continuation.onTermination = { _ in token.cancel() }
        }
    }

    /// Registers a listener, told the entity's sorted list now and after every change.
    ///
    /// The listener is called on its own isolation: a `@MainActor` class (a view controller, a
    /// SwiftUI model) on the main actor, an actor on itself, any other `Sendable` class on the
    /// concurrent executor; one call at a time, in commit order. The store holds the listener
    /// weakly; registering the same listener again replaces its registration.
    ///
    /// ```swift
    /// @MainActor final class LibraryScreen: EntityListener {
    ///     var books: [Book] = []
    ///     func entitiesDidChange(_ books: [Book]) { self.books = books }
    /// }
    /// store.addListener(screen, sortedBy: [Book.title.ascending(caseInsensitive: true)])
    /// ```
    ///
    /// - Parameters:
    ///   - listener: the object to tell.
    ///   - filter: which rows the list holds; `nil` for all.
    ///   - sort: the list's order.
    public func addListener<L: EntityListener>(
        _ listener: L, where filter: Filter<L.Entity>? = nil, sortedBy sort: [Sort<L.Entity>] = []
    ) {
        let id = ObjectIdentifier(listener)
        let (lists, feed) = AsyncStream.makeStream(of: [L.Entity].self)
        let observation = startObserving(
            Query(where: filter, sortedBy: sort), queue: DispatchQueue(label: "Persistence.listener"), onError: nil
        ) { change in
            feed.yield(change.results)
        }
        let token = ObservationToken {
            observation.cancel()
            feed.finish()
        }
        listeners.set(token, for: listener)
        let weakListener = WeakListener(listener: listener)
        // One task per listener calls it in order, hopping to its isolation for each call.
        Task { [listeners] in
            for await list in lists {
                guard let listener = weakListener.listener else { break }
                await listener.entitiesDidChange(list)
            }
            listeners.remove(id: id, token: token)
        }
    }

    /// Stops telling a listener about changes.
    ///
    /// - Parameter listener: a listener passed to ``addListener(_:where:sortedBy:)``.
    public func removeListener(_ listener: some EntityListener) {
        listeners.remove(listener)
    }
}

/// A listener held weakly by the task that calls it.
struct WeakListener<L: EntityListener>: Sendable {
    weak var listener: L?
}

extension ObjectStore {
    /// Observes a query in sections: the rows that share a key, with the changes of each section.
    ///
    /// Sort the query by the section's property first, as a table with section headers shows it;
    /// then each section holds a contiguous run of the results. (Otherwise sections come in the order
    /// of their first rows, and each holds its rows in the query's order.)
    ///
    /// ```swift
    /// let query = Query<Book>(sortedBy: [Book.author.ascending(), Book.title.ascending()])
    /// let token = store.observe(query, sectionedBy: \.author) { change in
    ///     for section in change.sections { print(section.key, section.entities.count) }
    /// }
    /// ```
    ///
    /// Deliveries follow the same commits and coalescing as ``observe(_:queue:isolation:onError:handler:)``.
    ///
    /// - Parameters:
    ///   - query: the filter and sort to observe.
    ///   - key: the section a row belongs to (usually a key path such as `\.author`).
    ///   - queue: where the callbacks of a caller isolated to no actor run; `nil` for a serial queue
    ///     of the observation's own. A caller isolated to an actor gets them in its isolation.
    ///   - isolation: where `handler` and `onError` run; the caller's isolation (leave it out).
    ///   - onError: called if re-running the query fails, and once when the store closes.
    ///   - handler: receives each ``SectionedChange``.
    /// - Returns: a token; the observation lasts until it is cancelled or released.
    public func observe<E: StoredEntity, Key: Hashable & Sendable>(
        _ query: Query<E>, sectionedBy key: @escaping @Sendable (E) -> Key,
        queue: DispatchQueue? = nil, isolation: isolated (any Actor)? = #isolation, onError: ((PersistenceError) -> Void)? = nil,
        handler: @escaping (SectionedChange<Key, E>) -> Void
    ) -> ObservationToken {
        let caller = CallerIsolation(isolation: isolation, queue: queue ?? DispatchQueue(label: "Persistence.observe"))
        let handler = caller.wrap(handler)
        // Deliveries of one observation run one at a time, in order, on its queue: the sectioner is
        // only touched there.
        let sectioner = Locked(Sectioner<Key, E>())
        return startObserving(query, queue: caller.queue, onError: onError.map(caller.wrap)) { change in
            handler(sectioner.withLock { $0.section(change, keys: change.results.map(key)) })
        }
    }
}
