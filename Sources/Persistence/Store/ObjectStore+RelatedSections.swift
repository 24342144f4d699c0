import Dispatch
import Locking

extension ObjectStore {
    /// Starts observing `query` in sections of `field` of the row `relation` refers to; the
    /// callbacks run on `queue`.
    func observeRelatedSections<E: StoredEntity, T: StoredEntity, K: QueryableValue & Decodable & Hashable>(
        _ query: Query<E>, _ relation: ToOne<E, T>, _ field: Field<T, K>, queue: DispatchQueue,
        onError: (@Sendable (any Error) -> Void)?, handler: @escaping @Sendable (SectionedChange<K?, E>) -> Void
    ) -> ObservationToken {
        var tables = [E.entityName, T.entityName]
        var related = query.filter?.relatedTables ?? []
        for key in query.sort { if let target = key.related { related.insert(target.targetName) } }
        tables += related.subtracting(tables).sorted()
        // Reads run one at a time on the store's observation queue: the state is only touched there.
        let state = Locked(RelatedSections<K?, E>())
        let read: @Sendable (ObjectTransaction) throws -> SectionedChange<K?, E>? = { tx in
            let rows = try tx.fetchSectioned(query, by: relation, field)
            return state.withLock { $0.next(rows.entities, rows: rows.rows, keys: rows.keys) }
        }
        var report: (@Sendable (any Error) -> Void)?
        if let onError {
            report = { error in
                onError(
                    error as? PersistenceError
                        ?? PersistenceError(.sqlite, "Refreshing an observed query failed: \(error)"))
            }
        }
        return observeValue(
            tables: tables, queue: queue, onError: report, read: read
        ) { change in
            if let change { handler(change) }
        }
    }
}

/// The last delivery of a query sectioned through a relation, and the change to the next.
struct RelatedSections<Key: Hashable & Sendable, Entity: StoredEntity>: Sendable {
    private var previous: (ids: [Entity.ID], rows: [[DatabaseValue]])?
    private var sectioner = Sectioner<Key, Entity>()

    /// The change from the last delivery to `entities` (with their column values and keys); `nil`
    /// when nothing changed.
    mutating func next(
        _ entities: [Entity], rows: [[DatabaseValue]], keys: [Key]
    ) -> SectionedChange<Key, Entity>? {
        let ids = entities.map(\.id)
        let changes =
            previous.map { ChangeSet.diff(old: $0.ids, oldRows: $0.rows, new: ids, newRows: rows) }
            ?? ChangeSet(inserted: Array(ids.indices))
        let initial = previous == nil
        previous = (ids, rows)
        guard initial || !changes.isEmpty else { return nil }
        return sectioner.section(QueryChange(results: entities, changes: changes, isInitial: initial), keys: keys)
    }
}
