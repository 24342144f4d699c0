extension ObjectTransaction {
    /// Fetches the entities a query selects, each with the row its to-one relation refers to, in
    /// two queries: the query's, and one for every referred row.
    ///
    /// ```swift
    /// for (book, author) in try tx.fetch(Query<Book>(sortedBy: [Book.title.ascending()]), including: Book.author) {
    ///     print(book.title, author?.name ?? "unknown")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - query: the filter, sort and window of the entities.
    ///   - relation: the relation to follow.
    /// - Returns: each entity, in the query's order, with the row it refers to (`nil` for a `nil`
    ///   reference).
    /// - Throws: ``PersistenceError``.
    public func fetch<E: StoredEntity, T: StoredEntity>(
        _ query: Query<E>, including relation: ToOne<E, T>
    ) throws(PersistenceError) -> [(E, T?)] {
        try checkOpen()
        let codec = try connection.codec(E.self)
        let schema = codec.schema
        let target = try connection.codec(T.self).schema
        guard let keyIndex = schema.indexByName[relation.column] else {
            _ = try schema.column(named: relation.column, for: "a prefetch")
            return []
        }
        // The entities, and the key each refers by.
        let built = try QuerySQL.select(query, schema: schema)
        let statement = try connection.statement(for: built)
        defer { statement.reset() }
        let decoder = RowDecoder.make(schema: schema, statement: statement)
        var entities: [E] = []
        var keys: [DatabaseValue] = []
        do {
            defer { decoder.recycle() }
            while try statement.step() {
                entities.append(try decoder.decodeRow(E.self))
                keys.append(statement.value(at: Int32(keyIndex)))
            }
        }
        guard !entities.isEmpty else { return [] }
        // The referred rows: one query, by the keys of the same selection.
        var related = QuerySQL(schema: target)
        let subquery = try QuerySQL.keys(query, schema: schema, column: relation.column)
        related.sql = "\(target.selectSQL) WHERE \(quote(target.idName)) IN (\(subquery.sql))"
        related.arguments = subquery.arguments
        related.fullTextQueries = subquery.fullTextQueries
        let relatedStatement = try connection.statement(for: related)
        defer { relatedStatement.reset() }
        let relatedDecoder = RowDecoder.make(schema: target, statement: relatedStatement)
        defer { relatedDecoder.recycle() }
        var byKey: [DatabaseValue: T] = [:]
        let idIndex = Int32(target.idColumn)
        while try relatedStatement.step() {
            let row = try relatedDecoder.decodeRow(T.self)
            byKey[relatedStatement.value(at: idIndex)] = row
        }
        var result: [(E, T?)] = []
        result.reserveCapacity(entities.count)
        for (entity, key) in zip(entities, keys) { result.append((entity, key == .null ? nil : byKey[key])) }
        return result
    }

    /// Fetches the entities a query selects, each with the rows that refer to it through a to-many
    /// relation, in two queries: the query's, and one for all the related rows.
    ///
    /// ```swift
    /// for (author, books) in try tx.fetch(Query<Author>(), including: Author.books) {
    ///     print(author.name, books.map(\.title))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - query: the filter, sort and window of the entities.
    ///   - relation: the relation to follow.
    /// - Returns: each entity, in the query's order, with its related rows in the relation's order
    ///   (insertion order when it has none).
    /// - Throws: ``PersistenceError``.
    public func fetch<E: StoredEntity, T: StoredEntity>(
        _ query: Query<E>, including relation: ToMany<E, T>
    ) throws(PersistenceError) -> [(E, [T])] {
        try checkOpen()
        let schema = try connection.codec(E.self).schema
        let target = try connection.codec(T.self).schema
        guard let keyIndex = target.indexByName[relation.inverseColumn] else {
            _ = try target.column(named: relation.inverseColumn, for: "a prefetch")
            return []
        }
        var related = QuerySQL(schema: target)
        let subquery = try QuerySQL.keys(query, schema: schema, column: schema.idName)
        related.sql = "\(target.selectSQL) WHERE \(quote(relation.inverseColumn)) IN (\(subquery.sql))"
        related.arguments = subquery.arguments
        related.fullTextQueries = subquery.fullTextQueries
        try related.appendOrder(relation.order)
        if relation.order.isEmpty { related.sql += " ORDER BY rowid" }
        return try fetchGrouped(query, target: target, related: related, keyIndex: Int32(keyIndex))
    }

    /// Fetches the entities a query selects, each with the rows it is linked to through a
    /// many-to-many relation, in two queries.
    ///
    /// - Parameters:
    ///   - query: the filter, sort and window of the entities.
    ///   - relation: the relation to follow.
    /// - Returns: each entity, in the query's order, with its linked rows in the order they were
    ///   linked (``ObjectTransaction/setLinks(_:of:to:)`` sets it; for a join entity, the order its
    ///   rows were inserted in). Each linked row comes once per entity, as ``ManyToMany/count``
    ///   counts it: a join entity may hold the same pair twice (a person credited in two roles),
    ///   and the row then comes where its first join row puts it.
    /// - Throws: ``PersistenceError``.
    public func fetch<E: StoredEntity, T: StoredEntity>(
        _ query: Query<E>, including relation: ManyToMany<E, T>
    ) throws(PersistenceError) -> [(E, [T])] {
        try checkOpen()
        let schema = try connection.codec(E.self).schema
        let target = try connection.codec(T.self).schema
        let path = try RelationPath.manyToMany(relation, registry: schema.registry)
        let columns = target.names.map { "t.\(quote($0))" }.joined(separator: ", ")
        var related = QuerySQL(schema: target)
        let subquery = try QuerySQL.keys(query, schema: schema, column: schema.idName)
        related.sql =
            "SELECT \(columns), j.\(quote(path.sourceColumn)) FROM \(quote(path.table)) AS j JOIN \(target.table) AS t "
            + "ON t.\(quote(target.idName)) = j.\(quote(path.targetColumn)) WHERE j.\(quote(path.sourceColumn)) IN "
            + "(\(subquery.sql)) ORDER BY j.\(path.orderColumn)"
        related.arguments = subquery.arguments
        related.fullTextQueries = subquery.fullTextQueries
        // The link table's key is the pair, so only a join entity can link a pair twice.
        let distinct: Bool
        if case .through = relation.storage { distinct = true } else { distinct = false }
        return try fetchGrouped(
            query, target: target, related: related, keyIndex: Int32(target.names.count), distinct: distinct)
    }

    /// Runs `query`, then `related` (rows of `target` whose column `keyIndex` holds the identity of
    /// the entity they belong to), and groups the related rows by entity, keeping their order;
    /// when `distinct`, a row that comes again for the same entity is left out.
    private func fetchGrouped<E: StoredEntity, T: StoredEntity>(
        _ query: Query<E>, target: EntitySchema, related: QuerySQL, keyIndex: Int32, distinct: Bool = false
    ) throws(PersistenceError) -> [(E, [T])] {
        let entities = try fetch(query)
        guard !entities.isEmpty else { return [] }
        // This code runs unspecialized: index loops (no zip, no enumerated, whose iterators look
        // up generic metadata at every step), and integer identities, the usual kind, looked up
        // as `Int64`s rather than as database values.
        var integerPosition: [Int64: Int] = [:]
        var position: [DatabaseValue: Int] = [:]
        for offset in 0..<entities.count {
            let key = entities[offset].id.databaseValue
            if case .integer(let id) = key {
                integerPosition[id] = offset
            } else {
                position[key] = offset
            }
        }
        let statement = try connection.statement(for: related)
        defer { statement.reset() }
        let decoder = RowDecoder.make(schema: target, statement: statement)
        defer { decoder.recycle() }
        // The rows first, in one array, with the offset of their entity; then each entity's group
        // at its final size. (Growing 10,000 small arrays of a generic type looks its storage
        // type up at every reallocation.)
        var rows: [T] = []
        var owners: [Int] = []
        var counts = [Int](repeating: 0, count: entities.count)
        // The (entity, row identity) pairs seen, when rows may come twice.
        var seen = Set<OwnedRow>()
        let idIndex = Int32(target.idColumn)
        while try statement.step() {
            let offset =
                statement.isInteger(keyIndex)
                ? integerPosition[statement.int64(keyIndex)] : position[statement.value(at: keyIndex)]
            guard let offset else { continue }
            if distinct, !seen.insert(OwnedRow(owner: offset, id: statement.value(at: idIndex))).inserted { continue }
            let row = try decoder.decodeRow(T.self)
            rows.append(row)
            owners.append(offset)
            counts[offset] += 1
        }
        var groups: [[T]] = []
        groups.reserveCapacity(entities.count)
        for offset in 0..<entities.count {
            var group: [T] = []
            if counts[offset] > 0 { group.reserveCapacity(counts[offset]) }
            groups.append(group)
        }
        for index in 0..<rows.count { groups[owners[index]].append(rows[index]) }
        rows.removeAll()
        var result: [(E, [T])] = []
        result.reserveCapacity(entities.count)
        for offset in 0..<entities.count { result.append((entities[offset], groups[offset])) }
        return result
    }
}

/// A related row's identity and the offset of the entity it belongs to, in a prefetch.
private struct OwnedRow: Hashable {
    let owner: Int
    let id: DatabaseValue
}

/// How a many-to-many relation is stored: a table with a column for each side, and the column
/// that orders one source's links.
struct RelationPath: Sendable {
    let table: String
    let sourceColumn: String
    let targetColumn: String
    let orderColumn: String

    static func manyToMany<S, T>(
        _ relation: ManyToMany<S, T>, registry: SchemaRegistry?
    ) throws(PersistenceError) -> RelationPath {
        switch relation.storage {
        case .link(let name):
            let table = RelationDeclaration.linkTableName(source: S.entityName, name: name)
            guard registry?.byName[S.entityName]?.links.contains(where: { $0.table == table }) == true else {
                throw PersistenceError(
                    .misuse,
                    "The many-to-many relation \(S.entityName).\(name) is not listed in \(S.entityName).relations; "
                        + "declare it there so the store keeps its links.", entity: S.entityName, property: name)
            }
            return RelationPath(table: table, sourceColumn: "source", targetColumn: "target", orderColumn: "position")
        case .through(let join, let joinName, let source, let target):
            guard registry?.byKey[join] != nil else {
                throw PersistenceError(
                    .misuse,
                    "\(S.entityName)'s many-to-many relation goes through \(joinName), which is not one of this store's "
                        + "entities. Pass it in the entities list.", entity: S.entityName, property: joinName)
            }
            return RelationPath(table: joinName, sourceColumn: source, targetColumn: target, orderColumn: "rowid")
        }
    }
}
