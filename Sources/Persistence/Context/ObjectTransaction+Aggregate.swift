extension ObjectTransaction {
    /// Computes an aggregate over the entities matching a filter, in SQL.
    ///
    /// ```swift
    /// let longest = try tx.aggregate(Book.pages.max(), where: Book.author == "Le Guin")
    /// ```
    ///
    /// - Parameters:
    ///   - aggregate: what to compute, such as `Book.pages.sum()`.
    ///   - filter: the rows to compute it over; `nil` for all.
    /// - Returns: the aggregate's value, typed by the aggregate.
    /// - Throws: ``PersistenceError/Code-swift.struct/invalidQuery`` for a property that cannot be
    ///   aggregated so (one stored as JSON text); ``PersistenceError/Code-swift.struct/overflow`` for an
    ///   integer sum beyond the property's type; ``PersistenceError/Code-swift.struct/unknownProperty`` for a
    ///   field the entity does not store.
    public func aggregate<E: StoredEntity, V>(
        _ aggregate: Aggregate<E, V>, where filter: Filter<E>? = nil
    ) throws(PersistenceError) -> V {
        try checkOpen()
        let codec = try connection.codec(E.self)
        var built = QuerySQL(schema: codec.schema)
        let columns = try built.aggregateColumns(aggregate.spec)
        built.sql = "SELECT \(columns.joined(separator: ", ")) FROM \(codec.schema.table)"
        try built.appendWhere(filter)
        let statement = try connection.statement(for: built)
        defer { statement.reset() }
        guard try step(statement, sums: [aggregate.spec], codec.schema) else {
            throw PersistenceError(.sqlite, "An aggregate query returned no row.", entity: E.entityName)
        }
        return try aggregate.read(AggregateReader(statement: statement, schema: codec.schema))
    }

    /// The sum of a numeric property over the entities matching a filter, of the property's type.
    ///
    /// `nil` values are skipped, and no value sums to zero. An integer sum beyond the property's
    /// type throws instead of wrapping (see ``Field/sum()``).
    ///
    /// ```swift
    /// let pages: Int = try tx.sum(Book.pages, where: Book.rating >= 4)
    /// ```
    ///
    /// - Parameters:
    ///   - field: an integer or floating-point property, optional or not.
    ///   - filter: the rows to sum; `nil` for all.
    /// - Returns: the sum.
    /// - Throws: ``PersistenceError/Code-swift.struct/overflow`` naming the property for an integer sum
    ///   beyond its type; ``PersistenceError/Code-swift.struct/invalidQuery`` for a property stored as JSON.
    public func sum<E: StoredEntity, V: AggregatableValue>(
        _ field: Field<E, V>, where filter: Filter<E>? = nil
    ) throws(PersistenceError) -> V.Unwrapped where V.Unwrapped: Numeric {
        try aggregate(field.sum(), where: filter)
    }

    /// The mean of a numeric property over the entities matching a filter; `nil` when none has a
    /// value.
    ///
    /// - Parameters:
    ///   - field: an integer or floating-point property, optional or not.
    ///   - filter: the rows to average; `nil` for all.
    /// - Returns: the average, computed by SQLite in double precision.
    /// - Throws: ``PersistenceError/Code-swift.struct/invalidQuery`` for a property stored as JSON.
    public func average<E: StoredEntity, V: AggregatableValue>(
        _ field: Field<E, V>, where filter: Filter<E>? = nil
    ) throws(PersistenceError) -> Double? where V.Unwrapped: Numeric {
        try aggregate(field.average(), where: filter)
    }

    /// The smallest value of a property over the entities matching a filter; `nil` when none has a
    /// value.
    ///
    /// - Parameters:
    ///   - field: the property.
    ///   - caseInsensitive: whether text compares by its folded form (see ``Field/min(caseInsensitive:)``).
    ///   - filter: the rows to look at; `nil` for all.
    /// - Returns: the minimum.
    /// - Throws: ``PersistenceError/Code-swift.struct/invalidQuery`` for a property stored as JSON text or
    ///   as a `Decimal`'s text, which do not order by value.
    public func min<E: StoredEntity, V: AggregatableValue>(
        _ field: Field<E, V>, caseInsensitive: Bool = false, where filter: Filter<E>? = nil
    ) throws(PersistenceError) -> V.Unwrapped? {
        try aggregate(field.min(caseInsensitive: caseInsensitive), where: filter)
    }

    /// The largest value of a property over the entities matching a filter; `nil` when none has a
    /// value.
    ///
    /// - Parameters:
    ///   - field: the property.
    ///   - caseInsensitive: whether text compares by its folded form (see ``Field/max(caseInsensitive:)``).
    ///   - filter: the rows to look at; `nil` for all.
    /// - Returns: the maximum.
    /// - Throws: ``PersistenceError/Code-swift.struct/invalidQuery`` for a property stored as JSON text or
    ///   as a `Decimal`'s text, which do not order by value.
    public func max<E: StoredEntity, V: AggregatableValue>(
        _ field: Field<E, V>, caseInsensitive: Bool = false, where filter: Filter<E>? = nil
    ) throws(PersistenceError) -> V.Unwrapped? {
        try aggregate(field.max(caseInsensitive: caseInsensitive), where: filter)
    }

    // MARK: Groups

    /// Groups the rows a query selects by one or more keys and computes aggregates per group, in SQL.
    ///
    /// Each result is a tuple of the group's keys and its aggregates, typed by them:
    ///
    /// ```swift
    /// let perAuthor = try tx.groups(
    ///     Query<Book>(where: Book.pages > 100), by: Book.author,
    ///     aggregating: Aggregate.count(of: Book.self), Book.rating.average(),
    ///     having: Aggregate.count(of: Book.self) >= 2, sortedBy: [Book.rating.average().descending()], limit: 10)
    /// for (author, books, rating) in perAuthor { print(author.name, books, rating ?? 0) }
    /// ```
    ///
    /// A key is a ``GroupingKey``: a property (`Book.genre`), the row a to-one relation refers to
    /// (`Book.author`: grouped by the reference, using its index, the referred rows then read in one
    /// query), or a property of that row (`Book.author.name`). `nil` is a key like any other; rows
    /// whose reference is `nil` belong to no group of a key through that relation. Text of a
    /// property with a case-insensitive ``EntityIndex`` groups by its folded form (see
    /// ``Sort/caseInsensitive``): "Le Guin" and "le guin" are one group, reported as the smallest
    /// of its texts by code point ("Le Guin").
    ///
    /// The query selects the rows to group: its filter, and, when it has a limit or an offset, its
    /// window in its order (the newest 100 books); without a window its order does not matter.
    ///
    /// - Parameters:
    ///   - query: the rows to group.
    ///   - keys: what to group by, most significant first.
    ///   - aggregates: what to compute per group.
    ///   - having: the groups to keep.
    ///   - sort: the order of the groups, by an aggregate (`Book.pages.sum().descending()`) or a key
    ///     (`.key(Book.author.ascending(Author.name))`); they are then ordered by their keys,
    ///     smallest first.
    ///   - limit: the most groups to return.
    /// - Returns: one tuple per group: its keys, then its aggregates.
    /// - Throws: ``PersistenceError/Code-swift.struct/invalidQuery`` for a key or aggregate over a property
    ///   stored as JSON text; ``PersistenceError/Code-swift.struct/overflow`` for an integer sum beyond its
    ///   property's type; ``PersistenceError/Code-swift.struct/misuse`` for a sort by a property that is not a
    ///   key, a key of another entity than the query's, or a relation to an entity the store was not opened
    ///   with; ``PersistenceError/Code-swift.struct/missingReference`` for a reference to a row that does not
    ///   exist.
    public func groups<E: StoredEntity, each G: GroupingKey, each A>(
        _ query: Query<E>, by keys: repeat each G, aggregating aggregates: repeat Aggregate<E, each A>,
        having: GroupFilter<E>? = nil, sortedBy sort: [GroupSort<E>] = [], limit: Int? = nil
    ) throws(PersistenceError) -> [(repeat (each G).Value, repeat each A)] {
        try checkOpen()
        let schema = try connection.codec(E.self).schema
        var groupKeys: [GroupKey] = []
        for key in repeat each keys {
            let grouping = key.grouping
            guard grouping.entity == ObjectIdentifier(E.self) else {
                throw PersistenceError(
                    .misuse,
                    "A grouping of \(E.entityName) rows cannot group by \(grouping.key.label), a key of "
                        + "\(grouping.entityName). Group by a property of \(E.entityName), a relation of it, or a "
                        + "property of a row it refers to.", entity: E.entityName, property: grouping.key.label)
            }
            groupKeys.append(grouping.key)
        }
        var specs: [AggregateSpec] = []
        for aggregate in repeat each aggregates { specs.append(aggregate.spec) }
        // Each key's reader, prepared with the SQL selecting its values over the groups.
        var position = 0
        func reader<K: GroupingKey>(
            _ key: K
        ) throws(PersistenceError) -> @Sendable (AggregateReader) throws(PersistenceError) -> K.Value {
            defer { position += 1 }
            let selecting = try QuerySQL.groups(
                keys: groupKeys, aggregates: specs, rows: query, having: having, sort: sort, limit: limit,
                schema: schema, selecting: position)
            return try key.grouping.prepare(self, selecting)
        }
        let readers = (repeat try reader(each keys))
        let built = try QuerySQL.groups(
            keys: groupKeys, aggregates: specs, rows: query, having: having, sort: sort, limit: limit, schema: schema)
        let statement = try connection.statement(for: built)
        defer { statement.reset() }
        let reader = AggregateReader(statement: statement, schema: schema)
        var result: [(repeat (each G).Value, repeat each A)] = []
        while try step(statement, sums: specs, schema) {
            reader.rewind()
            result.append((repeat try (each readers)(reader), repeat try (each aggregates).read(reader)))
        }
        return result
    }

    /// Steps an aggregate query, turning SQLite's "integer overflow" of a `SUM` into an
    /// ``PersistenceError/Code-swift.struct/overflow`` that names the summed properties.
    func step(
        _ statement: Statement, sums specs: [AggregateSpec], _ schema: EntitySchema
    ) throws(PersistenceError) -> Bool {
        do {
            return try statement.step()
        } catch {
            let sums = specs.filter { $0.function == .sum }.compactMap(\.column)
            guard error.code == .sqlite, error.message.contains("integer overflow"), let first = sums.first else {
                throw error
            }
            throw PersistenceError(
                .overflow,
                "The sum of " + sums.map { "\(schema.entityName).\($0)" }.joined(separator: " or ")
                    + " does not fit in a 64-bit integer (SQLite's integer overflow); sum fewer rows.",
                entity: schema.entityName, property: first, sqliteCode: error.sqliteCode)
        }
    }
}
