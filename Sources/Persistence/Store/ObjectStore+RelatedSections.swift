public import Dispatch
import Locking

extension ObjectStore {
    /// Observes a query in sections keyed by a property of the row a to-one relation refers to: books
    /// in sections by their author's name, with the changes of each section.
    ///
    /// The observation reads the rows and their keys after each commit that writes the entity, the
    /// related entity, or an entity the query's filter or sort goes through, and delivers when they
    /// differ from the last delivery. Renaming an author moves its books from the old name's section
    /// to the new one's:
    ///
    /// ```swift
    /// let query = Query<Book>(sortedBy: [Book.author.ascending(Author.name), Book.title.ascending()])
    /// let token = store.observe(query, sectionedBy: Book.author, Author.name) { change in
    ///     for section in change.sections { print(section.key ?? "no author", section.entities.count) }
    /// }
    /// ```
    ///
    /// A row whose reference is `nil` is in the section keyed `nil`. Each refresh re-reads the whole
    /// query (with its keys, in one statement) and diffs it with the last delivery.
    ///
    /// - Parameters:
    ///   - query: the filter and sort to observe; sort by the key first for contiguous sections.
    ///   - relation: the to-one relation to the row whose property keys the sections.
    ///   - field: the property of the referred row.
    ///   - queue: where `handler` and `onError` run; when `nil`, a serial queue of this observation's own.
    ///   - onError: called on `queue` if a refresh fails (``PersistenceError/Code-swift.struct/misuse``
    ///     naming the reference when the relation refers to an entity the store was not opened with),
    ///     and once when the store closes.
    ///   - handler: receives each ``SectionedChange``.
    /// - Returns: a token; the observation lasts until it is cancelled or released.
    public func observe<E: StoredEntity, T: StoredEntity, K: QueryableValue & Decodable & Hashable>(
        _ query: Query<E>, sectionedBy relation: ToOne<E, T>, _ field: Field<T, K>, queue: DispatchQueue? = nil,
        onError: (@Sendable (PersistenceError) -> Void)? = nil,
        handler: @escaping @Sendable (SectionedChange<K?, E>) -> Void
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
            tables: tables, queue: queue ?? DispatchQueue(label: "Persistence.observe"), onError: report, read: read
        ) { change in
            if let change { handler(change) }
        }
    }

    /// Observes a query in sections keyed by a property of the row a to-one relation refers to, and
    /// delivers every change on the main actor, for UI code.
    ///
    /// The same as ``observe(_:sectionedBy:_:queue:onError:handler:)`` with `queue: .main`, but the
    /// handlers are `@MainActor`.
    ///
    /// - Parameters:
    ///   - query: the filter and sort to observe.
    ///   - relation: the to-one relation to the row whose property keys the sections.
    ///   - field: the property of the referred row.
    ///   - mainActor: `MainActor.self`: `handler` and `onError` run on the main actor.
    ///   - onError: called if a refresh fails, and once when the store closes.
    ///   - handler: receives each ``SectionedChange``.
    /// - Returns: a token; the observation lasts until it is cancelled or released.
    public func observe<E: StoredEntity, T: StoredEntity, K: QueryableValue & Decodable & Hashable>(
        _ query: Query<E>, sectionedBy relation: ToOne<E, T>, _ field: Field<T, K>, on mainActor: MainActor.Type,
        onError: (@MainActor (PersistenceError) -> Void)? = nil,
        handler: @escaping @MainActor (SectionedChange<K?, E>) -> Void
    ) -> ObservationToken {
        observe(
            query, sectionedBy: relation, field, queue: .main, onError: onError.map(onMainActor),
            handler: onMainActor(handler))
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
