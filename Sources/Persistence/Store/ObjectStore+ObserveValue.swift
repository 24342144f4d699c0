public import Dispatch
import Foundation
import Locking

extension ObjectStore {
    /// Observes a value read from the store, such as an aggregate or a grouped result: hands
    /// `handler` the value now, then again after each commit that writes one of the tracked entities.
    ///
    /// The read runs on the store's observation queue, in SQL, so a live count or sum of a million rows
    /// costs what the aggregate costs, never a fetch of the rows:
    ///
    /// ```swift
    /// let token = store.observe(tracking: Book.self, read: { tx in
    ///     try tx.average(Book.rating)
    /// }) { average in
    ///     print("average rating:", average ?? 0)
    /// }
    /// ```
    ///
    /// Commits that land while a read is queued are folded into it, and raw SQL counts as a write to
    /// every entity; the last delivery always reflects the last commit. The value is delivered after
    /// every such commit, changed or not.
    ///
    /// - Parameters:
    ///   - entities: the entities whose commits run the read again; each must be one of the store's.
    ///   - queue: where the callbacks of a caller isolated to no actor run; `nil` for a serial queue
    ///     of the observation's own. A caller isolated to an actor gets them in its isolation.
    ///   - isolation: where `handler` and `onError` run, one at a time and in order: the caller's
    ///     isolation (leave it out): the main actor from a `@MainActor` class, an actor from its
    ///     method, a serial queue of the observation's own from code isolated to no actor.
    ///   - onError: called with the error `read` threw, or a ``PersistenceError`` when an
    ///     entity is not one of the store's (``PersistenceError/Code-swift.struct/misuse``) or the store
    ///     closes (``PersistenceError/Code-swift.struct/closed``, naming the store). After a failed read
    ///     the observation goes on with later commits; after a close it stops.
    ///   - read: reads the value; it runs on the store's observation queue.
    ///   - handler: receives each value.
    /// - Returns: a token; the observation lasts until it is cancelled or released.
    public func observe<Value: Sendable>(
        tracking entities: any StoredEntity.Type..., queue: DispatchQueue? = nil, isolation: isolated (any Actor)? = #isolation,
        onError: ((any Error) -> Void)? = nil,
        read: @escaping @Sendable (ObjectTransaction) throws -> Value,
        handler: @escaping (Value) -> Void
    ) -> ObservationToken {
        let caller = CallerIsolation(isolation: isolation, queue: queue ?? DispatchQueue(label: "Persistence.observe"))
        return observeValue(
            entities, queue: caller.queue, onError: onError.map(caller.wrap), read: read, handler: caller.wrap(handler))
    }

    /// Observes a value read from the store as an asynchronous sequence.
    ///
    /// The first element is the value now; each later one follows one or more commits that write a
    /// tracked entity. The sequence ends with an error when the read fails or the store closes;
    /// cancelling the iterating task ends the observation.
    ///
    /// ```swift
    /// for try await count in store.values(tracking: Book.self, read: { tx in try tx.count(Book.self) }) {
    ///     print("\(count) books")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - entities: the entities whose commits run the read again.
    ///   - read: reads the value; it runs on the store's observation queue.
    /// - Returns: the sequence of values.
    public func values<Value: Sendable>(
        tracking entities: any StoredEntity.Type...,
        read: @escaping @Sendable (ObjectTransaction) throws -> Value
    ) -> AsyncThrowingStream<Value, any Error> {
        AsyncThrowingStream { continuation in
            let token = observeValue(
                entities, queue: nil, onError: { error in continuation.finish(throwing: error) }, read: read,
                handler: { value in continuation.yield(value) })
            continuation.onTermination = { _ in token.cancel() }
        }
    }

    /// Observes `read` for the entity types held as a list (the variadic forms and ``LiveValue``).
    func observeValue<Value: Sendable>(
        _ entities: [any StoredEntity.Type], queue: DispatchQueue?, onError: (@Sendable (any Error) -> Void)?,
        read: @escaping @Sendable (ObjectTransaction) throws -> Value,
        handler: @escaping @Sendable (Value) -> Void
    ) -> ObservationToken {
        let queue = queue ?? DispatchQueue(label: "Persistence.observeValue")
        let unknown = entities.filter { core.schemas[ObjectIdentifier($0)] == nil }
        let missing: PersistenceError? =
            if entities.isEmpty {
                PersistenceError(
                    .misuse,
                    "An observed value tracks no entity, so no commit would ever refresh it. "
                        + "Pass the entities its read depends on in `tracking:`.")
            } else if let first = unknown.first {
                PersistenceError(
                    .misuse,
                    "\(first.entityName) is not one of this store's entities, so its commits cannot refresh an "
                        + "observed value. Pass \(first).self in the entities list when opening the ObjectStore.",
                    entity: first.entityName)
            } else {
                nil
            }
        if let missing {
            if let onError { queue.async { onError(missing) } }
            return ObservationToken {}
        }
        return observeValue(
            tables: entities.map { $0.entityName }, queue: queue, onError: onError, read: read, handler: handler)
    }

    /// Observes `read` after each commit that writes one of `tables` (entity tables, or link tables
    /// of many-to-many relations).
    func observeValue<Value: Sendable>(
        tables: [String], queue: DispatchQueue, onError: (@Sendable (any Error) -> Void)?,
        read: @escaping @Sendable (ObjectTransaction) throws -> Value,
        handler: @escaping @Sendable (Value) -> Void
    ) -> ObservationToken {
        let observer = ValueObserver(
            tables: tables, reader: observerContext, queue: queue, read: read, onError: onError, handler: handler)
        core.center.add(observer)
        if core.closed.isSet {
            observer.storeDidClose(closedError())
        } else {
            observer.scheduleRefresh(after: nil)
        }
        return ObservationToken { observer.cancel() }
    }

    /// The error an observation reports when the store closes, naming the store.
    func closedError() -> PersistenceError {
        PersistenceError(
            .closed,
            "The store \(core.isMemory ? "in memory" : core.path) was closed; its observations stopped. "
                + "Open the store again and observe anew.")
    }
}
