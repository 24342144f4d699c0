/// One thing a query's rows bring: related rows, an aggregate of them, or a section key.
protocol QueryPart: Sendable {
    /// Starts a read of the rows `source` describes (whose statement `built` is being built):
    /// appends the SQL of the columns this part reads to `columns`, binding their values in `built`,
    /// and returns what collects the part's value for each row.
    func start(
        _ tx: ObjectTransaction, source: PartSource, built: inout QuerySQL, columns: inout [String]
    ) throws(PersistenceError) -> any PartCollector
}

/// The rows a part adds to.
struct PartSource {
    /// Their entity.
    let schema: EntitySchema
    /// The SQL selecting one column of the rows (all of them, or the query's window).
    let keys: (String) throws(PersistenceError) -> QuerySQL
}

/// Collects one part's values during one read.
protocol PartCollector: AnyObject {
    /// The sums this part's columns compute, and the entity they sum, for the message of an overflow.
    var sums: (specs: [AggregateSpec], schema: EntitySchema)? { get }
    /// Reads what the part needs of the current row: its own columns start at `position`.
    func read(_ statement: Statement, at position: Int32) throws(PersistenceError)
    /// The value of every row, in row order, once the rows (whose identities are `ids`) are read.
    func finish(ids: [DatabaseValue]) throws(PersistenceError) -> [any Sendable]
}

extension PartCollector {
    var sums: (specs: [AggregateSpec], schema: EntitySchema)? { nil }
    func read(_ statement: Statement, at position: Int32) throws(PersistenceError) {}
}

extension ObjectTransaction {
    /// The rows of a query, each with what it includes.
    func rows<E: StoredEntity, each X: Sendable>(
        of query: IncludingQuery<E, repeat each X>
    ) throws(PersistenceError) -> [(E, repeat each X)] {
        let parts = try checked(query.inclusions, of: E.self)
        if parts.isEmpty, let rows = try fetchEntities(query.query) as? [(E, repeat each X)] { return rows }
        let (entities, values) = try read(query.query, parts: parts)
        return try assemble(entities, values, as: repeat (each X).self)
    }

    /// The rows of a query, each with what it includes, and each row's key.
    func rows<E: StoredEntity, each X: Sendable, Key>(
        of query: IncludingQuery<E, repeat each X>, keyedBy key: SectionKey<E>, as type: Key.Type
    ) throws(PersistenceError) -> (rows: [(E, repeat each X)], keys: [Key]) {
        var parts = try checked(query.inclusions, of: E.self)
        if case .part(let part) = key { parts.append(part) }
        let (entities, values) = try read(query.query, parts: parts)
        let rows = try assemble(entities, values, as: repeat (each X).self)
        let raw: [any Sendable]
        switch key {
        case .entity(let read): raw = entities.map(read)
        case .part: raw = values.last ?? []
        }
        var keys: [Key] = []
        keys.reserveCapacity(raw.count)
        for value in raw {
            guard let typed = value as? Key else {
                throw PersistenceError(
                    .misuse, "A section key of \(E.entityName) is not a \(Key.self).", entity: E.entityName)
            }
            keys.append(typed)
        }
        return (rows, keys)
    }

    /// The parts of `inclusions`, after checking that each is one of `E`'s.
    private func checked<E: StoredEntity>(
        _ inclusions: [ErasedInclusion], of type: E.Type
    ) throws(PersistenceError) -> [any QueryPart] {
        var parts: [any QueryPart] = []
        for inclusion in inclusions {
            guard inclusion.entity == ObjectIdentifier(E.self) else {
                throw PersistenceError(
                    .misuse,
                    "A query of \(E.entityName) cannot include \(inclusion.label), a relation of "
                        + "\(inclusion.entityName). Include relations of \(E.entityName), or aggregates of them.",
                    entity: E.entityName, property: inclusion.label)
            }
            parts.append(inclusion.part)
        }
        return parts
    }

    /// Reads `rows` in one statement with the columns `parts` add, then lets each part finish:
    /// the entities, and each part's value per row.
    private func read<E: StoredEntity>(
        _ rows: Query<E>, parts: [any QueryPart]
    ) throws(PersistenceError) -> (entities: [E], values: [[any Sendable]]) {
        try checkOpen()
        let schema = try connection.codec(E.self).schema
        let source = PartSource(schema: schema) { column throws(PersistenceError) in
            try QuerySQL.keys(rows, schema: schema, column: column)
        }
        var built = QuerySQL(schema: schema)
        var columns = [schema.columnList]
        var collectors: [any PartCollector] = []
        var positions: [Int32] = []
        var position = Int32(schema.names.count)
        for part in parts {
            let before = columns.count
            collectors.append(try part.start(self, source: source, built: &built, columns: &columns))
            positions.append(position)
            position += Int32(columns.count - before)
        }
        built.sql = "SELECT \(columns.joined(separator: ", ")) FROM \(schema.table)"
        try built.appendWhere(rows.filter)
        try built.appendOrder(rows.sort, filter: rows.filter)
        built.appendWindow(limit: rows.limit, offset: rows.offset)
        let sums = collectors.compactMap(\.sums)
        // Raw memory for the entities and a plain loop for their identities: in this
        // unspecialized code an append to `[E]` looks up `Array<E>`'s metadata per row, and a
        // `map` over a key path costs a key path projection per row.
        var rows = RowBuffer<E>()
        defer { rows.free() }
        var ids: [DatabaseValue] = []
        do {
            let statement = try connection.statement(for: built)
            defer { statement.reset() }
            let decoder = RowDecoder.make(schema: schema, statement: statement)
            defer { decoder.recycle() }
            while try step(statement, sums: sums.flatMap(\.specs), sums.first?.schema ?? schema) {
                let entity = try decoder.decodeRow(E.self)
                ids.append(entity.id.databaseValue)
                rows.append(entity)
                for index in 0..<collectors.count { try collectors[index].read(statement, at: positions[index]) }
            }
        }
        let entities = rows.movedIntoArray()
        var values: [[any Sendable]] = []
        for collector in collectors { values.append(try collector.finish(ids: ids)) }
        return (entities, values)
    }

    /// Builds each row from its entity and the parts' values, typed as `X`.
    private func assemble<E: StoredEntity, each X>(
        _ entities: [E], _ values: [[any Sendable]], as types: repeat (each X).Type
    ) throws(PersistenceError) -> [(E, repeat each X)] {
        var result: [(E, repeat each X)] = []
        result.reserveCapacity(entities.count)
        for row in 0..<entities.count {
            var part = 0
            func take<T>(_ type: T.Type) throws(PersistenceError) -> T {
                defer { part += 1 }
                guard part < values.count, row < values[part].count, let value = values[part][row] as? T else {
                    throw PersistenceError(
                        .misuse, "A row of \(E.entityName) has no value of type \(T.self) where its query expects one.",
                        entity: E.entityName)
                }
                return value
            }
            result.append((entities[row], repeat try take((each types))))
        }
        return result
    }
}
