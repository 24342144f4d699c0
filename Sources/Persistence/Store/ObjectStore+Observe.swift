import Dispatch
import Foundation
import Locking

extension ObjectStore {
    /// Starts `observation` with a callback: hands `handler` the first element (the state now),
    /// then one after each commit that changes what the observation reads.
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
    ///         token = store.observe(.query(Query<Book>(sortedBy: [Book.title.ascending()]))) { [weak self] change in
    ///             guard let self else { return }
    ///             self.books = change.results
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// **Who keeps whom.** The token keeps the handler, and the handler keeps what it captures.
    /// An object that keeps the token and is used in the handler captures itself weakly
    /// (`[weak self]`, as above): a strong `self` would keep the object alive through its own
    /// token, and the deliveries would go on after its owner let it go. Cancel the token, or
    /// let it go, to stop the deliveries.
    ///
    /// **Coalescing.** After a commit touches what the observation reads, it schedules one
    /// refresh on the store's observation queue; commits that land before that refresh runs are
    /// folded into it. A query observation delivers only if the results differ from the last
    /// delivery, so a burst of commits may produce a single delivery whose ``ChangeSet`` describes
    /// the combined difference. No delivery is ever skipped at the end of a burst: the last
    /// delivery always reflects the last commit.
    ///
    /// From code isolated to no actor, the deliveries run on the store's
    /// ``Configuration-swift.struct/callbackQueue`` when the app sets one, else on a serial queue
    /// of the observation's own.
    ///
    /// - Parameters:
    ///   - observation: what to observe (``StoreObservation``).
    ///   - isolation: where `handler` and `onError` run; the caller's isolation (leave it out).
    ///   - onError: called when a refresh fails (a ``PersistenceError``, or the error a value's
    ///     read threw; the observation goes on with later commits), when the observation cannot
    ///     start (``PersistenceError/Code-swift.struct/misuse``), and once when the store closes
    ///     (``PersistenceError/Code-swift.struct/closed``, naming the store; the observation then stops).
    ///   - handler: receives each element.
    /// - Returns: a token; the observation lasts until it is cancelled or released.
    public func observe<Element: Sendable>(
        _ observation: StoreObservation<Element>, isolation: isolated (any Actor)? = #isolation,
        onError: ((any Error) -> Void)? = nil, handler: @escaping (Element) -> Void
    ) -> ObservationToken {
        let caller = CallerIsolation(
            isolation: isolation, queue: core.configuration.callbackQueue ?? DispatchQueue(label: "Persistence.observe"))
        return observation.start(self, caller.queue, onError.map(caller.wrap), caller.wrap(handler))
    }

    /// Starts `observation` as an asynchronous sequence: the first element is the state now; each
    /// later one follows one or more commits that change what the observation reads.
    ///
    /// The sequence ends with an error when a refresh fails or the store closes; cancelling the
    /// iterating task (or dropping the sequence) ends the observation.
    ///
    /// ```swift
    /// for try await count in store.values(.value(tracking: Book.self) { tx in try tx.count(Query<Book>()) }) {
    ///     print("books:", count)
    /// }
    /// ```
    ///
    /// - Parameter observation: what to observe (``StoreObservation``).
    /// - Returns: the elements, as they come.
    public func values<Element: Sendable>(
        _ observation: StoreObservation<Element>
    ) -> AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream { continuation in
            let token = observation.start(
                self, DispatchQueue(label: "Persistence.values"),
                { error in continuation.finish(throwing: error) },
                { element in continuation.yield(element) })
            continuation.onTermination = { _ in token.cancel() }
        }
    }

    /// Starts observing `query`: `handler` and `onError` run on `queue`.
    func startObserving<E: StoredEntity>(
        _ query: Query<E>, queue: DispatchQueue, onError: (@Sendable (PersistenceError) -> Void)?,
        handler: @escaping @Sendable (QueryChange<E>) -> Void
    ) -> ObservationToken {
        register(QueryObserver(query: query, reader: observerContext, queue: queue, onError: onError, handler: handler))
    }

    /// Adds `observer` to the store's observers and schedules its first refresh (or tells it at
    /// once that the store is closed); the token cancels it.
    func register(_ observer: some GatedObserver) -> ObservationToken {
        core.center.add(observer)
        if core.closed.isSet {
            observer.storeDidClose(closedError())
        } else {
            observer.scheduleRefresh(after: nil)
        }
        return ObservationToken { observer.cancel() }
    }
}

extension ObjectStore {
    /// A number that changes with each commit of this store's contexts that may change a row of
    /// one of `entities` (and with a commit of another process, when the store polls for them):
    /// equal stamps, read at two moments, mean no such commit was counted between. A commit is
    /// counted just before its `COMMIT`, under the store's write lock. For Sync's memory of where
    /// its last run ended.
    package func commitStamp(of entities: [any StoredEntity.Type]) -> UInt64 {
        core.center.commitStamp(of: entities.map { $0.entityName })
    }

    /// Inside a write transaction, after its writes: the ``commitStamp(of:)`` the store will
    /// show once `transaction` commits, if no other commit is counted after it. Every commit it
    /// can see was counted before it began writing (the write lock orders them), so a stamp equal
    /// to this one later means no commit since this transaction's.
    package func commitStamp(of entities: [any StoredEntity.Type], after transaction: ObjectTransaction) -> UInt64 {
        let names = entities.map { $0.entityName }
        let own: UInt64 =
            transaction.touchedEverything
            ? 1 : UInt64(names.reduce(0) { $0 + (transaction.touched.contains($1) ? 1 : 0) })
        return core.center.commitStamp(of: names) &+ own
    }
}
