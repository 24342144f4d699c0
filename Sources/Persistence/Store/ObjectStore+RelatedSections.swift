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
    ///   - queue: where the callbacks of a caller isolated to no actor run; `nil` for a serial queue
    ///     of the observation's own. A caller isolated to an actor gets them in its isolation.
    ///   - isolation: where `handler` and `onError` run; the caller's isolation (leave it out).
    ///   - onError: called if a refresh fails (``PersistenceError/Code-swift.struct/misuse``
    ///     naming the reference when the relation refers to an entity the store was not opened with),
    ///     and once when the store closes.
    ///   - handler: receives each ``SectionedChange``.
    /// - Returns: a token; the observation lasts until it is cancelled or released.
    public func observe<E: StoredEntity, T: StoredEntity, K: QueryableValue & Decodable & Hashable>(
        _ query: Query<E>, sectionedBy relation: ToOne<E, T>, _ field: Field<T, K>,
        queue: DispatchQueue? = nil, isolation: isolated (any Actor)? = #isolation, onError: ((PersistenceError) -> Void)? = nil,
        handler: @escaping (SectionedChange<K?, E>) -> Void
    ) -> ObservationToken {
        let caller = CallerIsolation(isolation: isolation, queue: queue ?? DispatchQueue(label: "Persistence.observe"))
        let onError = onError.map(caller.wrap)
        let handler = caller.wrap(handler)
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
            tables: tables, queue: caller.queue, onError: report, read: read
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
