import Dispatch
import Locking

/// What to observe in a store, as one value: a query's results and what changed, a query in
/// sections, a query in sections of a related row's property, or any value read in a transaction
/// (a count, an aggregate, groups).
///
/// Build it once, then start it the way the code that consumes it wants:
/// - with a callback, ``ObjectStore/observe(_:isolation:onError:handler:)``, which runs in the
///   caller's isolation (on the main actor from a `@MainActor` class);
/// - as an `AsyncSequence`, ``ObjectStore/values(_:)``;
/// - bound to UI, ``LiveValue``, an `@Observable` object.
///
/// ```swift
/// let shelf = StoreObservation.query(Query<Book>(sortedBy: [Book.title.ascending()]))
/// let average = StoreObservation.value(tracking: Book.self) { tx in try tx.average(Book.rating) }
/// for try await change in store.values(shelf) { print(change.results.count, change.changes) }
/// ```
///
/// Every observation sees only committed changes, folds the commits that land while a refresh is
/// queued into that refresh, and always delivers a state that reflects the last commit. A value
/// may be started any number of times; each start observes on its own.
public struct StoreObservation<Element: Sendable>: Sendable {
    /// Starts observing `store`: the callbacks run on `queue`, one at a time, in order.
    let start:
        @Sendable (
            _ store: ObjectStore, _ queue: DispatchQueue, _ onError: (@Sendable (any Error) -> Void)?,
            _ handler: @escaping @Sendable (Element) -> Void
        ) -> ObservationToken

    init(
        start:
            @escaping @Sendable (
                ObjectStore, DispatchQueue, (@Sendable (any Error) -> Void)?, @escaping @Sendable (Element) -> Void
            ) -> ObservationToken
    ) {
        self.start = start
    }

    /// A query's results and what changed: the first element holds the results now (every row
    /// inserted); each later one follows the commits that changed the results, with the
    /// ``ChangeSet`` from the previous element (rows inserted, deleted, updated and moved).
    ///
    /// The query runs again in SQL after a commit that touches its entity (or an entity its filter or
    /// sort reads through a relation), and an element is delivered only when the results differ. On
    /// a large query whose commits change a few rows, the change is computed from the rows written,
    /// without running the query again.
    ///
    /// - Parameter query: the filter and sort to observe.
    /// - Returns: the observation.
    public static func query<E: StoredEntity>(_ query: Query<E>) -> StoreObservation<QueryChange<E>>
    where Element == QueryChange<E> {
        StoreObservation<QueryChange<E>> { store, queue, onError, handler in
            store.startObserving(query, queue: queue, onError: persistenceErrors(onError), handler: handler)
        }
    }

    /// A query's results grouped into sections by a key of each row: each element holds the
    /// sections and what changed in them (``SectionedChange``).
    ///
    /// Rows with equal keys form one section, in the order the query's sort puts them: sort by the
    /// key first for one section per key.
    ///
    /// - Parameters:
    ///   - query: the filter and sort to observe.
    ///   - key: the section of a row.
    /// - Returns: the observation.
    public static func query<E: StoredEntity, Key: Hashable & Sendable>(
        _ query: Query<E>, sectionedBy key: @escaping @Sendable (E) -> Key
    ) -> StoreObservation<SectionedChange<Key, E>> where Element == SectionedChange<Key, E> {
        StoreObservation<SectionedChange<Key, E>> { store, queue, onError, handler in
            // Deliveries of one start run one at a time, in order, on its queue: the sectioner is
            // only touched there.
            let sectioner = Locked(Sectioner<Key, E>())
            return store.startObserving(query, queue: queue, onError: persistenceErrors(onError)) { change in
                handler(sectioner.withLock { $0.section(change, keys: change.results.map(key)) })
            }
        }
    }

    /// A query's results grouped into sections by a property of the row each refers to through a
    /// to-one relation (`Book.author.name`): rows with a `nil` reference form the `nil` section.
    /// The key is read in SQL, so a change of the related row (an author renamed) moves the rows
    /// that refer to it.
    ///
    /// - Parameters:
    ///   - query: the filter and sort to observe.
    ///   - field: the key: a property of the referred row, such as `Book.author.name`.
    /// - Returns: the observation.
    public static func query<E: StoredEntity, T: StoredEntity, K: QueryableValue & Decodable & Hashable>(
        _ query: Query<E>, sectionedBy field: RelatedField<E, T, K>
    ) -> StoreObservation<SectionedChange<K?, E>> where Element == SectionedChange<K?, E> {
        StoreObservation<SectionedChange<K?, E>> { store, queue, onError, handler in
            store.observeRelatedSections(
                query, field.relation, field.field, queue: queue, onError: onError, handler: handler)
        }
    }

    /// Any value read in a transaction, such as a count, an aggregate or groups: the first element is
    /// the value now; each later one follows one or more commits that write a tracked entity
    /// (changed or not). Raw SQL counts as a write to every entity.
    ///
    /// The read runs on the store's observation queue, in SQL, so a live count or sum of a million
    /// rows costs what the aggregate costs, never a fetch of the rows.
    ///
    /// - Parameters:
    ///   - entities: the entities whose commits run the read again; each must be one of the
    ///     store's, or the observation fails at once with ``PersistenceError/Code-swift.struct/misuse``.
    ///   - read: reads the value; it runs on the store's observation queue. After a read that
    ///     throws, the error is reported and the observation goes on with later commits.
    /// - Returns: the observation.
    public static func value(
        tracking entities: any StoredEntity.Type..., read: @escaping @Sendable (ObjectTransaction) throws -> Element
    ) -> StoreObservation<Element> {
        let entities = EntityTypes(entities)
        return StoreObservation { store, queue, onError, handler in
            store.observeValue(entities.types, queue: queue, onError: onError, read: read, handler: handler)
        }
    }
}

/// `onError` as a callback for ``PersistenceError``s.
private func persistenceErrors(
    _ onError: (@Sendable (any Error) -> Void)?
) -> (@Sendable (PersistenceError) -> Void)? {
    guard let onError else { return nil }
    return { error in onError(error) }
}

/// Entity types, which are `Sendable` metatypes held as a list.
struct EntityTypes: Sendable {
    let types: [any StoredEntity.Type]
    init(_ types: [any StoredEntity.Type]) { self.types = types }
}
