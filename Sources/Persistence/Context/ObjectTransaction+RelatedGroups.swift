extension ToOne {
    /// The relation as a grouping key or a section key's path: its reference and the entity it refers to.
    var referencePath: RelatedSort {
        RelatedSort(column: column, target: ObjectIdentifier(Target.self), targetName: Target.entityName)
    }
}

extension ObjectTransaction {
    /// Groups the entities matching a filter by the row a to-one relation refers to and computes
    /// aggregates per group, in SQL: books per author, photos per place.
    ///
    /// ```swift
    /// for (author, books, pages) in try tx.groups(
    ///     by: Book.author, aggregating: Aggregate.count(of: Book.self), Book.pages.sum(),
    ///     sortedBy: [Aggregate.count(of: Book.self).descending()], limit: 10)
    /// {
    ///     print(author.name, books, pages)
    /// }
    /// ```
    ///
    /// The rows group by their reference (using its index); the referred rows are then read in one
    /// query. Rows whose reference is `nil` belong to no group; a referred row no row refers to has
    /// no group either (count such rows with ``ToMany/count``). `having`, the sort and the limit
    /// apply as in ``groups(by:aggregating:where:having:sortedBy:limit:)->[(K,A)]``; a sort through the
    /// relation (`.key(Book.author.ascending(Author.name))`) orders the groups by the referred row's
    /// property.
    ///
    /// - Parameters:
    ///   - relation: the to-one relation whose referred row keys each group.
    ///   - aggregates: what to compute per group.
    ///   - filter: the rows to group; `nil` for all.
    ///   - having: the groups to keep.
    ///   - sort: the order of the groups; they are then ordered by their references, smallest first.
    ///   - limit: the most groups to return.
    /// - Returns: one tuple per group: the referred row, then the aggregates.
    /// - Throws: ``PersistenceError``, as ``groups(by:aggregating:where:having:sortedBy:limit:)->[(K,A)]``;
    ///   ``PersistenceError/Code-swift.struct/misuse`` naming the reference when the relation refers to
    ///   an entity the store was not opened with.
    public func groups<E: StoredEntity, T: StoredEntity, each A>(
        by relation: ToOne<E, T>, aggregating aggregates: repeat Aggregate<E, each A>,
        where filter: Filter<E>? = nil, having: GroupFilter<E>? = nil, sortedBy sort: [GroupSort<E>] = [],
        limit: Int? = nil
    ) throws(PersistenceError) -> [(T, repeat each A)] {
        try checkOpen()
        let schema = try connection.codec(E.self).schema
        var specs: [AggregateSpec] = []
        for aggregate in repeat each aggregates { specs.append(aggregate.spec) }
        let keys: [GroupKey] = [.related(relation.referencePath, nil)]
        // The referred rows first, selected by the groups' own query, then the groups.
        let groupKeys = try QuerySQL.groups(
            keys: keys, aggregates: specs, filter: filter, having: having, sort: sort, limit: limit, schema: schema,
            selecting: 0)
        let target = try groupKeys.relatedTarget(relation.referencePath, for: "a grouping")
        var related = QuerySQL(schema: target)
        related.sql = "\(target.selectSQL) WHERE \(quote(target.idName)) IN (\(groupKeys.sql))"
        related.arguments = groupKeys.arguments
        related.fullTextQueries = groupKeys.fullTextQueries
        let statement = try connection.statement(for: related)
        var byKey: [DatabaseValue: T] = [:]
        do {
            defer { statement.reset() }
            let decoder = RowDecoder.make(schema: target, statement: statement)
            defer { decoder.recycle() }
            let idIndex = Int32(target.idColumn)
            while try statement.step() {
                byKey[statement.value(at: idIndex)] = try decoder.decodeRow(T.self)
            }
        }
        return try groupRows(
            E.self, keys: keys, specs, filter: filter, having: having, sort: sort, limit: limit
        ) { reader throws(PersistenceError) in
            let reference = reader.raw()
            guard let row = byKey[reference] else {
                throw PersistenceError(
                    .missingReference,
                    "\(E.entityName).\(relation.column) refers to \(T.entityName) \(reference), which does not exist; "
                        + "the row was changed outside the entity's own writes.", entity: E.entityName,
                    property: relation.column)
            }
            return (row, repeat try (each aggregates).read(reader))
        }
    }

    /// Groups the entities matching a filter by a property of the row a to-one relation refers to
    /// and computes aggregates per group, in SQL: books per author's name, photos per place's country.
    ///
    /// ```swift
    /// let perName = try tx.groups(
    ///     by: Book.author, Author.name, aggregating: Aggregate.count(of: Book.self), Book.rating.average(),
    ///     having: Aggregate.count(of: Book.self) >= 2, sortedBy: [.key(Book.author.ascending(Author.name))])
    /// for (name, books, rating) in perName { print(name, books, rating ?? 0) }
    /// ```
    ///
    /// Each row's key is read by a lookup of the referred row's identity. Rows whose reference is
    /// `nil` belong to no group. Text of a property with a case-insensitive ``EntityIndex`` groups
    /// by its folded form, as for a property of the grouped entity: "Le Guin" and "le guin" are one
    /// group, reported as the smallest of its texts by code point. Sort by the key with
    /// `.key(Book.author.ascending(Author.name))`.
    ///
    /// - Parameters:
    ///   - relation: the to-one relation to the row whose property keys each group.
    ///   - field: the property of the referred row.
    ///   - aggregates: what to compute per group.
    ///   - filter: the rows to group; `nil` for all.
    ///   - having: the groups to keep.
    ///   - sort: the order of the groups; they are then ordered by their keys, smallest first.
    ///   - limit: the most groups to return.
    /// - Returns: one tuple per group: its key, then its aggregates.
    /// - Throws: ``PersistenceError``, as ``groups(by:aggregating:where:having:sortedBy:limit:)->[(K,A)]``:
    ///   ``PersistenceError/Code-swift.struct/invalidQuery`` naming the property when it is stored as JSON
    ///   text; ``PersistenceError/Code-swift.struct/misuse`` naming the reference when the relation refers
    ///   to an entity the store was not opened with.
    public func groups<E: StoredEntity, T: StoredEntity, K: QueryableValue & Decodable, each A>(
        by relation: ToOne<E, T>, _ field: Field<T, K>, aggregating aggregates: repeat Aggregate<E, each A>,
        where filter: Filter<E>? = nil, having: GroupFilter<E>? = nil, sortedBy sort: [GroupSort<E>] = [],
        limit: Int? = nil
    ) throws(PersistenceError) -> [(K, repeat each A)] {
        try checkOpen()
        var specs: [AggregateSpec] = []
        for aggregate in repeat each aggregates { specs.append(aggregate.spec) }
        let target = try QuerySQL(schema: try connection.codec(E.self).schema)
            .relatedTarget(relation.referencePath, for: "a grouping")
        return try groupRows(
            E.self, keys: [.related(relation.referencePath, field.name)], specs, filter: filter, having: having,
            sort: sort,
            limit: limit
        ) { reader throws(PersistenceError) in
            (try reader.value(K.self, of: field.name, in: target), repeat try (each aggregates).read(reader))
        }
    }

    /// Fetches the entities a query selects, each with aggregates of its related rows through a
    /// to-many relation, in one statement: every place with its number of photos and their likes.
    ///
    /// ```swift
    /// for (author, books, pages) in try tx.fetch(
    ///     Query<Author>(sortedBy: [Author.name.ascending()]), aggregating: Author.books,
    ///     Aggregate.count(of: Book.self), Book.pages.sum())
    /// {
    ///     print(author.name, books, pages)
    /// }
    /// ```
    ///
    /// Every entity the query selects comes back, in the query's order and window, those without
    /// related rows too (a count of 0, a sum of 0, an average, minimum or maximum of `nil`). Each
    /// aggregate runs as a subquery over the related rows that refer to the entity, using the
    /// relation's indexed reference. To filter or order by an aggregate, group the related rows by
    /// their reference instead (`tx.groups(by: Book.author, aggregating: …, having: …, sortedBy: …)`).
    ///
    /// - Parameters:
    ///   - query: the filter, sort and window of the entities.
    ///   - relation: the to-many relation whose rows are aggregated.
    ///   - aggregates: what to compute over each entity's related rows.
    ///   - filter: which related rows count; `nil` for all.
    /// - Returns: each entity, then its aggregates.
    /// - Throws: ``PersistenceError``, as ``aggregate(_:where:)``: ``PersistenceError/Code-swift.struct/invalidQuery``
    ///   naming a related property stored as JSON text, ``PersistenceError/Code-swift.struct/overflow`` for
    ///   an integer sum beyond its property's type.
    public func fetch<E: StoredEntity, T: StoredEntity, each A>(
        _ query: Query<E>, aggregating relation: ToMany<E, T>, _ aggregates: repeat Aggregate<T, each A>,
        where filter: Filter<T>? = nil
    ) throws(PersistenceError) -> [(E, repeat each A)] {
        try fetch(query, aggregatingThrough: relation.path, repeat each aggregates, where: filter)
    }

    /// Fetches the entities a query selects, each with aggregates of the rows a many-to-many
    /// relation links it to, in one statement: every book with its number of tags, every tag with
    /// its number of books and their average rating.
    ///
    /// ```swift
    /// for (book, tags, longest) in try tx.fetch(
    ///     Query<Book>(sortedBy: [Book.title.ascending()]), aggregating: Book.tags,
    ///     Aggregate.count(of: Tag.self), Tag.name.max())
    /// {
    ///     print(book.title, tags, longest ?? "-")
    /// }
    /// ```
    ///
    /// Every entity the query selects comes back, in the query's order and window, those linked to
    /// no row too (a count of 0, a sum of 0, an average, minimum or maximum of `nil`). Each aggregate
    /// runs as a subquery over the linked rows, found by the indexed source column of the link table
    /// or of the join entity, then by the linked rows' identities.
    ///
    /// Each linked row counts once per entity. The link table of a shorthand relation
    /// (``ManyToMany/init(_:)``) stores a pair once: its key is the pair. A join entity
    /// (``ManyToMany/init(through:_:)``) without a ``UniqueKey`` over its two references may hold the
    /// same pair twice (a person credited in two roles); the row it links to is still counted,
    /// summed and averaged once, as ``ManyToMany/count`` counts it.
    ///
    /// - Parameters:
    ///   - query: the filter, sort and window of the entities.
    ///   - relation: the many-to-many relation whose linked rows are aggregated.
    ///   - aggregates: what to compute over each entity's linked rows.
    ///   - filter: which linked rows count; `nil` for all.
    /// - Returns: each entity, then its aggregates.
    /// - Throws: ``PersistenceError``, as ``aggregate(_:where:)``: ``PersistenceError/Code-swift.struct/invalidQuery``
    ///   naming a linked property stored as JSON text, ``PersistenceError/Code-swift.struct/overflow`` for
    ///   an integer sum beyond its property's type; ``PersistenceError/Code-swift.struct/misuse`` naming the
    ///   linked entity or the join entity when the store was not opened with it, or the relation when a
    ///   shorthand relation is not listed in the entity's ``StoredEntity/relations``.
    public func fetch<E: StoredEntity, T: StoredEntity, each A>(
        _ query: Query<E>, aggregating relation: ManyToMany<E, T>, _ aggregates: repeat Aggregate<T, each A>,
        where filter: Filter<T>? = nil
    ) throws(PersistenceError) -> [(E, repeat each A)] {
        try fetch(query, aggregatingThrough: relation.path, repeat each aggregates, where: filter)
    }

    /// The entities a query selects, each with aggregates of the `T` rows `path` reaches from it.
    private func fetch<E: StoredEntity, T: StoredEntity, each A>(
        _ query: Query<E>, aggregatingThrough path: @Sendable (SchemaRegistry?) throws(PersistenceError) -> ManyPath,
        _ aggregates: repeat Aggregate<T, each A>, where filter: Filter<T>?
    ) throws(PersistenceError) -> [(E, repeat each A)] {
        try checkOpen()
        let schema = try connection.codec(E.self).schema
        var specs: [AggregateSpec] = []
        for aggregate in repeat each aggregates { specs.append(aggregate.spec) }
        let (built, target) = try QuerySQL.relatedAggregates(
            query, path: path, of: T.self, specs, where: filter, schema: schema)
        let statement = try connection.statement(for: built)
        defer { statement.reset() }
        let decoder = RowDecoder.make(schema: schema, statement: statement)
        defer { decoder.recycle() }
        let reader = AggregateReader(statement: statement, schema: target)
        let count = Int32(schema.names.count)
        var result: [(E, repeat each A)] = []
        while try step(statement, sums: specs, target) {
            let entity = try decoder.decodeRow(E.self)
            reader.rewind(to: count)
            result.append((entity, repeat try (each aggregates).read(reader)))
        }
        return result
    }

    /// Fetches a query's results in sections keyed by a property of the row a to-one relation refers
    /// to: books in sections by their author's name.
    ///
    /// Sort the query by the same property first (`Book.author.ascending(Author.name)`); then each
    /// section holds a contiguous run of the results. A row whose reference is `nil` is in the
    /// section keyed `nil`.
    ///
    /// ```swift
    /// let shelves = try tx.fetch(
    ///     Query<Book>(sortedBy: [Book.author.ascending(Author.name), Book.title.ascending()]),
    ///     sectionedBy: Book.author, Author.name)
    /// for shelf in shelves { print(shelf.key ?? "no author", shelf.entities.map(\.title)) }
    /// ```
    ///
    /// The key is read in the same query as the rows, by a lookup of the referred row's identity.
    ///
    /// - Parameters:
    ///   - query: the filter, sort and window.
    ///   - relation: the to-one relation to the row whose property keys the sections.
    ///   - field: the property of the referred row.
    /// - Returns: the sections.
    /// - Throws: ``PersistenceError``, as ``fetch(_:)``; ``PersistenceError/Code-swift.struct/misuse``
    ///   naming the reference when the relation refers to an entity the store was not opened with.
    public func fetch<E: StoredEntity, T: StoredEntity, K: QueryableValue & Decodable & Hashable>(
        _ query: Query<E>, sectionedBy relation: ToOne<E, T>, _ field: Field<T, K>
    ) throws(PersistenceError) -> [QuerySection<K?, E>] {
        let rows = try fetchSectioned(query, by: relation, field)
        return QuerySection.sections(of: rows.entities, keys: rows.keys)
    }

    /// The rows of a query, each with its column values (to detect changes) and its section key: the
    /// property `field` of the row `relation` refers to, `nil` for a `nil` reference.
    func fetchSectioned<E: StoredEntity, T: StoredEntity, K: QueryableValue & Decodable>(
        _ query: Query<E>, by relation: ToOne<E, T>, _ field: Field<T, K>
    ) throws(PersistenceError) -> (entities: [E], rows: [[DatabaseValue]], keys: [K?]) {
        try checkOpen()
        let schema = try connection.codec(E.self).schema
        var built = QuerySQL(schema: schema)
        let target = try built.relatedTarget(relation.referencePath, for: "a section key")
        _ = try target.column(named: field.name, for: "a section key")
        guard let referenceIndex = schema.indexByName[relation.column] else {
            _ = try schema.column(named: relation.column, for: "a section key")
            return ([], [], [])
        }
        built.sql =
            "SELECT \(schema.columnList), \(built.relatedValue(relation.referencePath, target, quote(field.name))) "
            + "FROM \(schema.table)"
        try built.appendWhere(query.filter)
        try built.appendOrder(query.sort, filter: query.filter)
        built.appendWindow(limit: query.limit, offset: query.offset)
        let statement = try connection.statement(for: built)
        defer { statement.reset() }
        let decoder = RowDecoder.make(schema: schema, statement: statement)
        defer { decoder.recycle() }
        let reader = AggregateReader(statement: statement, schema: target)
        let count = Int32(schema.names.count)
        var entities: [E] = []
        var rows: [[DatabaseValue]] = []
        var keys: [K?] = []
        while try statement.step() {
            entities.append(try decoder.decodeRow(E.self))
            // The key is part of the row: a change of the referred row's property changes the row.
            rows.append((0...count).map { statement.value(at: $0) })
            if statement.isNull(Int32(referenceIndex)) {
                keys.append(nil)
            } else {
                reader.rewind(to: count)
                keys.append(try reader.value(K.self, of: field.name))
            }
        }
        return (entities, rows, keys)
    }
}

extension QuerySQL {
    /// The SQL of a query's rows, each followed by the columns of aggregates of its related `T`
    /// rows (those `path` reaches from it: through a to-many relation's reference or a
    /// many-to-many relation's links), one subquery per column.
    static func relatedAggregates<E: StoredEntity, T: StoredEntity>(
        _ query: Query<E>, path: (SchemaRegistry?) throws(PersistenceError) -> ManyPath, of type: T.Type,
        _ specs: [AggregateSpec], where filter: Filter<T>?, schema: EntitySchema
    ) throws(PersistenceError) -> (QuerySQL, target: EntitySchema) {
        var built = QuerySQL(schema: schema)
        let target = try built.schema(of: T.self)
        let related = try path(built.registry)
        if case .inverse(let column) = related {
            _ = try target.column(named: column, for: "an aggregate through a relation")
        }
        var columns: [String] = []
        for spec in specs {
            for column in try built.nested(target).aggregateColumns(spec) {
                // Each subquery renders the filter anew: its values are bound once per column.
                var inner = built.nested(target)
                inner.sql = "(SELECT \(column) \(related.from(built, inner, target: target))"
                if let filter {
                    inner.sql += " AND "
                    try inner.render(filter.node)
                }
                inner.sql += ")"
                columns.append(inner.sql)
                built.arguments += inner.arguments
                built.fullTextQueries += inner.fullTextQueries
            }
        }
        built.sql = "SELECT \(([schema.columnList] + columns).joined(separator: ", ")) FROM \(schema.table)"
        try built.appendWhere(query.filter)
        try built.appendOrder(query.sort, filter: query.filter)
        built.appendWindow(limit: query.limit, offset: query.offset)
        return (built, target)
    }
}
