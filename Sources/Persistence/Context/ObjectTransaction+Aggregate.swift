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

    /// Groups the entities matching a filter by a property and computes aggregates per group, in SQL.
    ///
    /// Each result is a tuple of the group's key and its aggregates, typed by them:
    ///
    /// ```swift
    /// let perAuthor = try tx.groups(
    ///     by: Book.author, aggregating: Aggregate.count(of: Book.self), Book.rating.average(),
    ///     having: Aggregate.count(of: Book.self) >= 2, sortedBy: [Book.rating.average().descending()], limit: 10)
    /// for (author, books, rating) in perAuthor { print(author, books, rating ?? 0) }
    /// ```
    ///
    /// `nil` is a key like any other. Text of a property with a case-insensitive ``EntityIndex``
    /// groups by its folded form (see ``Sort/caseInsensitive``): "Le Guin" and "le guin" are one
    /// group, reported as the smallest of its texts by code point ("Le Guin").
    ///
    /// - Parameters:
    ///   - key: the property to group by.
    ///   - aggregates: what to compute per group.
    ///   - filter: the rows to group; `nil` for all.
    ///   - having: the groups to keep.
    ///   - sort: the order of the groups; they are then ordered by their keys, smallest first.
    ///   - limit: the most groups to return.
    /// - Returns: one tuple per group: its key, then its aggregates.
    /// - Throws: ``PersistenceError/Code-swift.struct/invalidQuery`` for a key or aggregate over a property
    ///   stored as JSON text; ``PersistenceError/Code-swift.struct/overflow`` for an integer sum beyond its
    ///   property's type; ``PersistenceError/Code-swift.struct/misuse`` for a sort by a property that is not a key.
    public func groups<E: StoredEntity, K: QueryableValue & Decodable, each A>(
        by key: Field<E, K>, aggregating aggregates: repeat Aggregate<E, each A>,
        where filter: Filter<E>? = nil, having: GroupFilter<E>? = nil, sortedBy sort: [GroupSort<E>] = [],
        limit: Int? = nil
    ) throws(PersistenceError) -> [(K, repeat each A)] {
        var specs: [AggregateSpec] = []
        for aggregate in repeat each aggregates { specs.append(aggregate.spec) }
        return try groupRows(
            E.self, keys: [.column(key.name)], specs, filter: filter, having: having, sort: sort, limit: limit
        ) { reader throws(PersistenceError) in
            (try reader.value(K.self, of: key.name), repeat try (each aggregates).read(reader))
        }
    }

    /// Groups the entities matching a filter by two properties and computes aggregates per group, in SQL.
    ///
    /// As ``groups(by:aggregating:where:having:sortedBy:limit:)->[(K,A)]``, with a group per pair of values.
    ///
    /// - Parameters:
    ///   - key1: the first property to group by.
    ///   - key2: the second property to group by.
    ///   - aggregates: what to compute per group.
    ///   - filter: the rows to group; `nil` for all.
    ///   - having: the groups to keep.
    ///   - sort: the order of the groups; they are then ordered by their keys, smallest first.
    ///   - limit: the most groups to return.
    /// - Returns: one tuple per group: its keys, then its aggregates.
    /// - Throws: ``PersistenceError``, as ``groups(by:aggregating:where:having:sortedBy:limit:)->[(K,A)]``.
    public func groups<E: StoredEntity, K1: QueryableValue & Decodable, K2: QueryableValue & Decodable, each A>(
        by key1: Field<E, K1>, _ key2: Field<E, K2>, aggregating aggregates: repeat Aggregate<E, each A>,
        where filter: Filter<E>? = nil, having: GroupFilter<E>? = nil, sortedBy sort: [GroupSort<E>] = [],
        limit: Int? = nil
    ) throws(PersistenceError) -> [(K1, K2, repeat each A)] {
        var specs: [AggregateSpec] = []
        for aggregate in repeat each aggregates { specs.append(aggregate.spec) }
        return try groupRows(
            E.self, keys: [.column(key1.name), .column(key2.name)], specs, filter: filter, having: having, sort: sort,
            limit: limit
        ) { reader throws(PersistenceError) in
            (
                try reader.value(K1.self, of: key1.name), try reader.value(K2.self, of: key2.name),
                repeat try (each aggregates).read(reader)
            )
        }
    }

    /// Groups the entities matching a filter by three properties and computes aggregates per group, in SQL.
    ///
    /// As ``groups(by:aggregating:where:having:sortedBy:limit:)->[(K,A)]``, with a group per triple of values.
    ///
    /// - Parameters:
    ///   - key1: the first property to group by.
    ///   - key2: the second property to group by.
    ///   - key3: the third property to group by.
    ///   - aggregates: what to compute per group.
    ///   - filter: the rows to group; `nil` for all.
    ///   - having: the groups to keep.
    ///   - sort: the order of the groups; they are then ordered by their keys, smallest first.
    ///   - limit: the most groups to return.
    /// - Returns: one tuple per group: its keys, then its aggregates.
    /// - Throws: ``PersistenceError``, as ``groups(by:aggregating:where:having:sortedBy:limit:)->[(K,A)]``.
    public func groups<
        E: StoredEntity, K1: QueryableValue & Decodable, K2: QueryableValue & Decodable,
        K3: QueryableValue & Decodable, each A
    >(
        by key1: Field<E, K1>, _ key2: Field<E, K2>, _ key3: Field<E, K3>,
        aggregating aggregates: repeat Aggregate<E, each A>,
        where filter: Filter<E>? = nil, having: GroupFilter<E>? = nil, sortedBy sort: [GroupSort<E>] = [],
        limit: Int? = nil
    ) throws(PersistenceError) -> [(K1, K2, K3, repeat each A)] {
        var specs: [AggregateSpec] = []
        for aggregate in repeat each aggregates { specs.append(aggregate.spec) }
        return try groupRows(
            E.self, keys: [.column(key1.name), .column(key2.name), .column(key3.name)], specs, filter: filter,
            having: having, sort: sort,
            limit: limit
        ) { reader throws(PersistenceError) in
            (
                try reader.value(K1.self, of: key1.name), try reader.value(K2.self, of: key2.name),
                try reader.value(K3.self, of: key3.name), repeat try (each aggregates).read(reader)
            )
        }
    }

    /// Runs a grouped query and turns each group's row into a value with `row`.
    func groupRows<E: StoredEntity, R>(
        _ type: E.Type, keys: [GroupKey], _ specs: [AggregateSpec], filter: Filter<E>?, having: GroupFilter<E>?,
        sort: [GroupSort<E>], limit: Int?, row: (AggregateReader) throws(PersistenceError) -> R
    ) throws(PersistenceError) -> [R] {
        try checkOpen()
        let codec = try connection.codec(E.self)
        let built = try QuerySQL.groups(
            keys: keys, aggregates: specs, filter: filter, having: having, sort: sort, limit: limit,
            schema: codec.schema)
        let statement = try connection.statement(for: built)
        defer { statement.reset() }
        let reader = AggregateReader(statement: statement, schema: codec.schema)
        var result: [R] = []
        while try step(statement, sums: specs, codec.schema) {
            reader.rewind()
            result.append(try row(reader))
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
