/// The row a to-one relation refers to, read by the references of the query's rows in one more
/// query.
struct ReferredRowPart<Target: StoredEntity>: QueryPart {
    /// The reference's column.
    let column: String

    func start(
        _ tx: ObjectTransaction, source: PartSource, built: inout QuerySQL, columns: inout [String]
    ) throws(PersistenceError) -> any PartCollector {
        let target = try built.schema(of: Target.self)
        let keyIndex = try source.schema.columnIndex(named: column, for: "an included relation")
        return Collector(tx: tx, related: try source.keys(column), target: target, keyIndex: Int32(keyIndex))
    }

    final class Collector: PartCollector {
        let tx: ObjectTransaction
        let related: QuerySQL
        let target: EntitySchema
        let keyIndex: Int32
        var keys: [DatabaseValue] = []

        init(tx: ObjectTransaction, related: QuerySQL, target: EntitySchema, keyIndex: Int32) {
            self.tx = tx
            self.related = related
            self.target = target
            self.keyIndex = keyIndex
        }

        func read(_ statement: Statement, at position: Int32) throws(PersistenceError) {
            keys.append(statement.value(at: keyIndex))
        }

        func finish(ids: [DatabaseValue]) throws(PersistenceError) -> [any Sendable] {
            guard !ids.isEmpty else { return [] }
            // The referred rows: one query, by the references of the same selection.
            var query = QuerySQL(schema: target)
            query.sql = "\(target.selectSQL) WHERE \(quote(target.idName)) IN (\(related.sql))"
            query.arguments = related.arguments
            query.fullTextQueries = related.fullTextQueries
            let statement = try tx.connection.statement(for: query)
            defer { statement.reset() }
            let decoder = RowDecoder.make(schema: target, statement: statement)
            defer { decoder.recycle() }
            var byKey: [DatabaseValue: Target] = [:]
            let idIndex = Int32(target.idColumn)
            while try statement.step() {
                let row = try decoder.decodeRow(Target.self)
                byKey[statement.value(at: idIndex)] = row
            }
            var values: [any Sendable] = []
            values.reserveCapacity(keys.count)
            for key in keys { values.append(key == .null ? Target?.none : byKey[key]) }
            return values
        }
    }
}

/// The rows related to each of the query's rows through a to-many or many-to-many relation, read
/// in one more query and grouped by the row they belong to.
struct RelatedRowsPart<Target: StoredEntity>: QueryPart {
    /// The SQL of the related rows of the source's rows (the target's schema given), with the
    /// column that holds the identity of the row each belongs to, and whether a row may come twice
    /// for the same row.
    let related:
        @Sendable (PartSource, EntitySchema) throws(PersistenceError) -> (
            sql: QuerySQL, keyIndex: Int32, distinct: Bool
        )

    init<Source: StoredEntity>(many relation: ToMany<Source, Target>) {
        related = { source, target throws(PersistenceError) in
            let keyIndex = try target.columnIndex(named: relation.inverseColumn, for: "an included relation")
            var related = QuerySQL(schema: target)
            let subquery = try source.keys(source.schema.idName)
            related.sql = "\(target.selectSQL) WHERE \(quote(relation.inverseColumn)) IN (\(subquery.sql))"
            related.arguments = subquery.arguments
            related.fullTextQueries = subquery.fullTextQueries
            try related.appendOrder(relation.order)
            if relation.order.isEmpty { related.sql += " ORDER BY rowid" }
            return (related, Int32(keyIndex), false)
        }
    }

    init<Source: StoredEntity>(many relation: ManyToMany<Source, Target>) {
        related = { source, target throws(PersistenceError) in
            let path = try RelationPath.manyToMany(relation, registry: source.schema.registry)
            let columns = target.names.map { "t.\(quote($0))" }.joined(separator: ", ")
            var related = QuerySQL(schema: target)
            let subquery = try source.keys(source.schema.idName)
            related.sql =
                "SELECT \(columns), j.\(quote(path.sourceColumn)) FROM \(quote(path.table)) AS j JOIN \(target.table) "
                + "AS t ON t.\(quote(target.idName)) = j.\(quote(path.targetColumn)) WHERE "
                + "j.\(quote(path.sourceColumn)) IN (\(subquery.sql)) ORDER BY j.\(path.orderColumn)"
            related.arguments = subquery.arguments
            related.fullTextQueries = subquery.fullTextQueries
            // The link table's key is the pair, so only a join entity can link a pair twice.
            let distinct: Bool
            if case .through = relation.storage { distinct = true } else { distinct = false }
            return (related, Int32(target.names.count), distinct)
        }
    }

    func start(
        _ tx: ObjectTransaction, source: PartSource, built: inout QuerySQL, columns: inout [String]
    ) throws(PersistenceError) -> any PartCollector {
        let target = try built.schema(of: Target.self)
        let (sql, keyIndex, distinct) = try related(source, target)
        return Collector(tx: tx, target: target, related: sql, keyIndex: keyIndex, distinct: distinct)
    }

    final class Collector: PartCollector {
        let tx: ObjectTransaction
        let target: EntitySchema
        let related: QuerySQL
        let keyIndex: Int32
        let distinct: Bool

        init(tx: ObjectTransaction, target: EntitySchema, related: QuerySQL, keyIndex: Int32, distinct: Bool) {
            self.tx = tx
            self.target = target
            self.related = related
            self.keyIndex = keyIndex
            self.distinct = distinct
        }

        func finish(ids: [DatabaseValue]) throws(PersistenceError) -> [any Sendable] {
            try tx.relatedGroups(
                of: ids, Target.self, target: target, related: related, keyIndex: keyIndex, distinct: distinct
            ).map { $0 }
        }
    }
}

/// An aggregate of the rows related to each of the query's rows, a subquery column in the query's
/// own statement.
struct RelatedAggregatesPart: QueryPart {
    /// The aggregate's target entity.
    let target: ObjectIdentifier
    let targetName: String
    let path: @Sendable (SchemaRegistry?) throws(PersistenceError) -> ManyPath
    let spec: AggregateSpec
    /// The aggregate's reading of its value.
    let read: @Sendable (AggregateReader) throws(PersistenceError) -> any Sendable
    /// The aggregate's columns, for the target's schema and the renderer of the source's query.
    let columns: @Sendable (inout QuerySQL, EntitySchema) throws(PersistenceError) -> [String]

    init<Target: StoredEntity, Value: Sendable>(
        path: @escaping @Sendable (SchemaRegistry?) throws(PersistenceError) -> ManyPath,
        _ aggregate: Aggregate<Target, Value>, where filter: Filter<Target>?
    ) {
        target = ObjectIdentifier(Target.self)
        targetName = Target.entityName
        self.path = path
        let spec = aggregate.spec
        self.spec = spec
        let read = aggregate.read
        self.read = { reader throws(PersistenceError) in try read(reader) }
        columns = { built, target throws(PersistenceError) in
            try built.relatedAggregateColumns(path: path, target: target, [spec], where: filter)
        }
    }

    func start(
        _ tx: ObjectTransaction, source: PartSource, built: inout QuerySQL, columns: inout [String]
    ) throws(PersistenceError) -> any PartCollector {
        guard let schema = built.registry?.byKey[target] else {
            throw PersistenceError(
                .misuse,
                "\(targetName) is not one of this store's entities, so a query on \(source.schema.entityName) cannot "
                    + "aggregate it. Pass \(targetName).self in the entities list.", entity: targetName)
        }
        columns += try self.columns(&built, schema)
        return Collector(target: schema, spec: spec, read: read)
    }

    final class Collector: PartCollector {
        let target: EntitySchema
        let spec: AggregateSpec
        let read: @Sendable (AggregateReader) throws(PersistenceError) -> any Sendable
        var values: [any Sendable] = []

        init(
            target: EntitySchema, spec: AggregateSpec,
            read: @escaping @Sendable (AggregateReader) throws(PersistenceError) -> any Sendable
        ) {
            self.target = target
            self.spec = spec
            self.read = read
        }

        var sums: (specs: [AggregateSpec], schema: EntitySchema)? { ([spec], target) }

        func read(_ statement: Statement, at position: Int32) throws(PersistenceError) {
            let reader = AggregateReader(statement: statement, schema: target)
            reader.rewind(to: position)
            values.append(try read(reader))
        }

        func finish(ids: [DatabaseValue]) throws(PersistenceError) -> [any Sendable] { values }
    }
}

/// A section key read from the row a to-one relation refers to, in the query's own statement:
/// `nil` for a `nil` reference.
struct RelatedKeyPart<Entity: StoredEntity, Target: StoredEntity, Key: QueryableValue & Decodable>: QueryPart {
    let relation: ToOne<Entity, Target>
    let field: Field<Target, Key>

    func start(
        _ tx: ObjectTransaction, source: PartSource, built: inout QuerySQL, columns: inout [String]
    ) throws(PersistenceError) -> any PartCollector {
        let target = try built.relatedTarget(relation.referencePath, for: "a section key")
        _ = try target.column(named: field.name, for: "a section key")
        let reference = try source.schema.columnIndex(named: relation.column, for: "a section key")
        columns.append(built.relatedValue(relation.referencePath, target, quote(field.name)))
        return Collector(target: target, name: field.name, reference: Int32(reference))
    }

    final class Collector: PartCollector {
        let target: EntitySchema
        let name: String
        let reference: Int32
        var keys: [any Sendable] = []

        init(target: EntitySchema, name: String, reference: Int32) {
            self.target = target
            self.name = name
            self.reference = reference
        }

        func read(_ statement: Statement, at position: Int32) throws(PersistenceError) {
            if statement.isNull(reference) {
                keys.append(Key?.none)
            } else {
                let reader = AggregateReader(statement: statement, schema: target)
                reader.rewind(to: position)
                keys.append(Key?.some(try reader.value(Key.self, of: name)))
            }
        }

        func finish(ids: [DatabaseValue]) throws(PersistenceError) -> [any Sendable] { keys }
    }
}
