import Dispatch
import Foundation
import Locking

extension ObjectStore {
    /// Starts a value observation of `entities`: checks them, then reads on every commit that writes one.
    func observeValue<Value: Sendable>(
        _ entities: [any StoredEntity.Type], queue: DispatchQueue, onError: (@Sendable (any Error) -> Void)?,
        read: @escaping @Sendable (ObjectTransaction) throws -> Value,
        handler: @escaping @Sendable (Value) -> Void
    ) -> ObservationToken {
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
        register(
            ValueObserver(
                tables: tables, reader: observerContext, queue: queue, read: read, onError: onError, handler: handler))
    }

    /// The error an observation reports when the store closes, naming the store.
    func closedError() -> PersistenceError {
        PersistenceError(
            .closed,
            "The store \(core.isMemory ? "in memory" : core.path) was closed; its observations stopped. "
                + "Open the store again and observe anew.")
    }
}
