extension ToOne {
    /// The relation as a grouping key or a section key's path: its reference and the entity it refers to.
    var referencePath: RelatedSort {
        RelatedSort(column: column, target: ObjectIdentifier(Target.self), targetName: Target.entityName)
    }
}

extension ObjectTransaction {
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
    /// The columns of aggregates of the related `target` rows of this query's entity (those `path`
    /// reaches from it: through a to-many relation's reference or a many-to-many relation's links),
    /// one subquery per column, whose values are bound in this query's arguments.
    mutating func relatedAggregateColumns<T: StoredEntity>(
        path: (SchemaRegistry?) throws(PersistenceError) -> ManyPath, target: EntitySchema,
        _ specs: [AggregateSpec], where filter: Filter<T>?
    ) throws(PersistenceError) -> [String] {
        let related = try path(registry)
        if case .inverse(let column) = related {
            _ = try target.column(named: column, for: "an aggregate through a relation")
        }
        var columns: [String] = []
        for spec in specs {
            for column in try nested(target).aggregateColumns(spec) {
                // Each subquery renders the filter anew: its values are bound once per column.
                var inner = nested(target)
                inner.sql = "(SELECT \(column) \(related.from(self, inner, target: target))"
                if let filter {
                    inner.sql += " AND "
                    try inner.render(filter.node)
                }
                inner.sql += ")"
                columns.append(inner.sql)
                arguments += inner.arguments
                fullTextQueries += inner.fullTextQueries
            }
        }
        return columns
    }

    /// The SQL of a query's rows, each followed by the columns of aggregates of its related `T`
    /// rows, as ``Query/including(_:)`` reads them (for the tests of its plan).
    static func relatedAggregates<E: StoredEntity, T: StoredEntity>(
        _ query: Query<E>, path: (SchemaRegistry?) throws(PersistenceError) -> ManyPath, of type: T.Type,
        _ specs: [AggregateSpec], where filter: Filter<T>?, schema: EntitySchema
    ) throws(PersistenceError) -> (QuerySQL, target: EntitySchema) {
        var built = QuerySQL(schema: schema)
        let target = try built.schema(of: T.self)
        let columns = try built.relatedAggregateColumns(path: path, target: target, specs, where: filter)
        built.sql = "SELECT \(([schema.columnList] + columns).joined(separator: ", ")) FROM \(schema.table)"
        try built.appendWhere(query.filter)
        try built.appendOrder(query.sort, filter: query.filter)
        built.appendWindow(limit: query.limit, offset: query.offset)
        return (built, target)
    }
}
