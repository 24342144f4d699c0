/// Renders filters, sorts and queries to SQL, checking every name and value type
/// against the entity's schema. Every value is bound, never spliced.
///
/// One renderer, `render(_:)`, writes every condition: a query's filter (`WHERE`) and a
/// grouped query's `GroupFilter` (`HAVING`), whose tree is a filter's with aggregate
/// comparisons for leaves. Grouped queries' keys and aggregates are in `AggregateSQL.swift`.
struct QuerySQL {
    let schema: EntitySchema
    var sql = ""
    var arguments: [DatabaseValue] = []
    /// The full-text queries the SQL runs, checked before it runs (see `Connection.statement(for:)`).
    var fullTextQueries: [(table: String, column: String?, query: String)] = []

    /// The store's schemas, for filters and sorts through relations.
    var registry: SchemaRegistry?
    /// How the SQL names the entity's table: its name, or the alias of a subquery through a relation.
    var tableRef: String
    /// How deep in relation subqueries this renders (for their aliases).
    var depth = 0

    init(schema: EntitySchema) {
        self.schema = schema
        registry = schema.registry
        tableRef = schema.table
    }

    /// A renderer for a related entity's filter, inside a subquery of this one's.
    func nested(_ target: EntitySchema) -> QuerySQL {
        var inner = QuerySQL(schema: target)
        inner.registry = registry
        inner.depth = depth + 1
        inner.tableRef = "fk_r\(depth + 1)"
        return inner
    }

    /// Appends what a nested renderer produced.
    mutating func absorb(_ inner: QuerySQL) {
        sql += inner.sql
        arguments += inner.arguments
        fullTextQueries += inner.fullTextQueries
    }

    /// The schema of a related entity.
    func schema<T: StoredEntity>(of type: T.Type) throws(PersistenceError) -> EntitySchema {
        guard let target = registry?.byKey[ObjectIdentifier(T.self)] else {
            throw PersistenceError(
                .misuse,
                "\(T.entityName) is not one of this store's entities, so a query on \(schema.entityName) cannot go "
                    + "through a relation to it. Pass \(T.self).self in the entities list.", entity: T.entityName)
        }
        return target
    }

    /// The SQL expression a sort key sorts by.
    mutating func sortExpression<E>(_ key: Sort<E>) throws(PersistenceError) -> String {
        if let related = key.related {
            guard let target = registry?.byKey[related.target] else {
                throw PersistenceError(
                    .misuse,
                    "A sort of \(schema.entityName) goes through a relation to \(related.targetName), which is not one "
                        + "of this store's entities.", entity: related.targetName)
            }
            _ = try schema.column(named: related.column, for: "a sort through a relation")
            let column = try target.column(named: key.column, for: "a sort")
            let value =
                key.caseInsensitive && column.kind == .string
                ? nested(target).foldedExpression(column.name) : quote(column.name)
            return relatedValue(related, target, value)
        }
        let column = try schema.column(named: key.column, for: "a sort")
        return key.caseInsensitive && column.kind == .string ? foldedExpression(column.name) : quote(column.name)
    }

    /// The SQL selecting one column of the rows `query` selects (all of them, or its window), for
    /// a prefetch's subquery.
    static func keys<E>(_ query: Query<E>, schema: EntitySchema, column: String) throws(PersistenceError) -> QuerySQL {
        var builder = QuerySQL(schema: schema)
        builder.sql = "SELECT \(quote(column)) FROM \(schema.table)"
        try builder.appendWhere(query.filter)
        if query.limit != nil || query.offset > 0 {
            try builder.appendOrder(query.sort, filter: query.filter)
            builder.appendWindow(limit: query.limit, offset: query.offset)
        }
        return builder
    }

    mutating func appendWhere<E>(_ filter: Filter<E>?) throws(PersistenceError) {
        guard let filter else { return }
        sql += " WHERE "
        try render(filter.node)
    }

    mutating func appendOrder<E>(_ sort: [Sort<E>], filter: Filter<E>? = nil) throws(PersistenceError) {
        guard !sort.isEmpty else { return }
        var parts: [String] = []
        for key in sort {
            if key.isRelevance {
                let matches = filter?.fullTextMatches() ?? []
                guard
                    let match = matches.first(where: { $0.column == key.column })
                        ?? matches.first(where: { $0.column == nil })
                else {
                    throw PersistenceError(
                        .misuse,
                        "A sort by \(schema.entityName).\(key.column).relevance needs a filter with "
                            + "\(schema.entityName).\(key.column).matches(…) or Filter.matches(…) in the same query.",
                        entity: schema.entityName, property: key.column)
                }
                _ = try schema.column(named: key.column, for: "a sort")
                let fts = quote(schema.fullTextTable)
                let target = match.column.map(quote) ?? fts
                parts.append("(SELECT rank FROM \(fts) WHERE \(target) MATCH ? AND rowid = \(tableRef).rowid) ASC")
                arguments.append(.text(match.query))
                continue
            }
            // Case only exists in text: other values sort as themselves.
            var part = try sortExpression(key)
            part += key.descending ? " DESC" : " ASC"
            parts.append(part)
        }
        // Ties are broken by rowid: deterministic, and every index already ends with it.
        parts.append("rowid ASC")
        sql += " ORDER BY " + parts.joined(separator: ", ")
    }

    mutating func appendWindow(limit: Int?, offset: Int) {
        if limit != nil || offset > 0 {
            sql += " LIMIT ?"
            arguments.append(.integer(Int64(limit ?? -1)))
            sql += " OFFSET ?"
            arguments.append(.integer(Int64(max(0, offset))))
        }
    }

    static func select<E>(_ query: Query<E>, schema: EntitySchema) throws(PersistenceError) -> QuerySQL {
        var builder = QuerySQL(schema: schema)
        builder.sql = schema.selectSQL
        try builder.appendWhere(query.filter)
        try builder.appendOrder(query.sort, filter: query.filter)
        builder.appendWindow(limit: query.limit, offset: query.offset)
        return builder
    }

    /// The SQL an observed query runs: the entity's columns, then its row id and the value of each
    /// sort key (what ``ObservedResults`` orders by). With `rowids`, only those rows (that still
    /// match the filter) are read, for the incremental path; the window then does not apply.
    static func observed<E>(
        _ query: Query<E>, schema: EntitySchema, keys: Bool, rowids: Set<Int64>? = nil
    ) throws(PersistenceError) -> QuerySQL {
        var builder = QuerySQL(schema: schema)
        var keyColumns = ""
        if keys {
            for key in query.sort { keyColumns += ", " + (try builder.sortExpression(key)) }
        }
        builder.sql = "SELECT \(schema.columnList), \(schema.table).rowid\(keyColumns) FROM \(schema.table)"
        if let rowids {
            builder.sql += " WHERE \(schema.table).rowid IN (SELECT value FROM json_each(?))"
            builder.arguments.append(.text("[" + rowids.map { String($0) }.joined(separator: ",") + "]"))
            if let filter = query.filter {
                builder.sql += " AND "
                try builder.render(filter.node)
            }
        } else {
            try builder.appendWhere(query.filter)
        }
        // The changed rows are few and placed by the observer: no ORDER BY, which could make SQLite
        // walk a whole sort index instead of looking the row ids up.
        guard rowids == nil else { return builder }
        try builder.appendOrder(query.sort, filter: query.filter)
        if query.sort.isEmpty { builder.sql += " ORDER BY \(schema.table).rowid ASC" }
        builder.appendWindow(limit: query.limit, offset: query.offset)
        return builder
    }

    private func check(_ column: ColumnSchema, _ value: DatabaseValue, _ use: String) throws(PersistenceError) {
        let ok: Bool
        switch (column.storage, value) {
        case (_, .null): ok = true
        case (.integer, .integer), (.integer, .real), (.real, .integer), (.real, .real): ok = true
        case (.text, .text), (.blob, .blob): ok = true
        default: ok = false
        }
        guard ok else {
            throw PersistenceError(
                .unknownProperty,
                "\(use) compares \(schema.entityName).\(column.name), stored as \(column.storage.rawValue), "
                    + "with the value \(value); declare the Field with the property's own type.",
                entity: schema.entityName, property: column.name)
        }
    }

    /// The folded text of a column: its folded-text column when a case-insensitive index keeps
    /// one, else the store's `fk_fold` function.
    func foldedExpression(_ name: String) -> String {
        if let fold = schema.foldName(of: name) { return quote(fold) }
        return "\(TextFold.functionName)(\(quote(name)))"
    }

    private mutating func renderText(
        _ name: String, _ match: TextMatch, _ text: String, caseSensitive: Bool
    ) throws(PersistenceError) {
        let column = try schema.column(named: name, for: "a text filter")
        try check(column, .text(text), "A text filter")
        let expression = caseSensitive ? quote(name) : foldedExpression(name)
        let needle = caseSensitive ? text : TextFold.fold(text)
        switch match {
        case .equals:
            if caseSensitive, let fold = schema.foldName(of: name) {
                sql += "(\(quote(fold)) = ? AND \(expression) = ?)"
                arguments += [.text(TextFold.fold(text)), .text(text)]
            } else {
                sql += "\(expression) = ?"
                arguments.append(.text(needle))
            }
        case .contains:
            sql += "instr(\(expression), ?) > 0"
            arguments.append(.text(needle))
        case .prefix:
            // Code-point order is byte order in UTF-8, so the prefix's range is exact and indexable.
            if let upper = TextFold.prefixUpperBound(needle) {
                sql += "(\(expression) >= ? AND \(expression) < ?)"
                arguments += [.text(needle), .text(upper)]
            } else {
                sql += needle.isEmpty ? "\(expression) IS NOT NULL" : "\(expression) >= ?"
                if !needle.isEmpty { arguments.append(.text(needle)) }
            }
        case .suffix:
            // Compared as bytes: SQLite counts the characters of text only up to a NUL, and a
            // UTF-8 byte suffix is a character suffix.
            let count = needle.utf8.count
            if count == 0 {
                sql += "\(expression) IS NOT NULL"
            } else {
                sql += "substr(CAST(\(expression) AS BLOB), ?) = CAST(? AS BLOB)"
                arguments += [.integer(-Int64(count)), .text(needle)]
            }
        }
    }

    mutating func render<E>(_ node: Filter<E>.Node) throws(PersistenceError) {
        switch node {
        case .constant(let value):
            sql += value ? "1" : "0"
        case .compare(let name, let op, let value):
            let column = try schema.column(named: name, for: "a filter")
            try check(column, value, "A filter")
            if op == "=", case .text(let text) = value, let fold = schema.foldName(of: name) {
                // The folded-text index finds the candidates; the exact comparison decides.
                sql += "(\(quote(fold)) = ? AND \(quote(name)) = ?)"
                arguments += [.text(TextFold.fold(text)), value]
            } else {
                sql += "\(quote(name)) \(op) ?"
                arguments.append(value)
            }
        case .inList(let name, let values):
            let column = try schema.column(named: name, for: "a filter")
            let nonNull = values.filter { $0 != .null }
            for value in nonNull { try check(column, value, "An IN filter") }
            let hasNull = nonNull.count != values.count
            if nonNull.isEmpty {
                sql += hasNull ? "\(quote(name)) IS NULL" : "0"
                return
            }
            sql += hasNull ? "(\(quote(name)) IS NULL OR " : ""
            sql += "\(quote(name)) IN (" + Array(repeating: "?", count: nonNull.count).joined(separator: ", ") + ")"
            sql += hasNull ? ")" : ""
            arguments += nonNull
        case .like(let name, let pattern):
            let column = try schema.column(named: name, for: "a text filter")
            try check(column, .text(pattern), "A text filter")
            sql += "\(quote(name)) LIKE ? ESCAPE '\\'"
            arguments.append(.text(pattern))
        case .text(let name, let match, let text, let caseSensitive):
            try renderText(name, match, text, caseSensitive: caseSensitive)
        case .fullText(let name, let query):
            guard !schema.fullText.isEmpty else {
                throw PersistenceError(
                    .unknownProperty,
                    "A full-text filter on \(schema.entityName) needs a full-text index: declare "
                        + "`static let fullTextIndex: FullTextIndex<\(schema.entityName)>? = FullTextIndex(…)`.",
                    entity: schema.entityName, property: name)
            }
            if let name {
                _ = try schema.column(named: name, for: "a full-text filter")
                guard schema.fullText.contains(name) else {
                    throw PersistenceError(
                        .unknownProperty,
                        "\(schema.entityName).\(name).matches(…) needs '\(name)' in the full-text index, which indexes "
                            + "\(schema.fullText.joined(separator: ", ")); add it to `FullTextIndex(…)`.",
                        entity: schema.entityName, property: name)
                }
            }
            let target = name.map(quote) ?? quote(schema.fullTextTable)
            sql += "\(tableRef).rowid IN (SELECT rowid FROM \(quote(schema.fullTextTable)) WHERE \(target) MATCH ?)"
            arguments.append(.text(query))
            fullTextQueries.append((schema.fullTextTable, name, query))
        case .isNull(let name, let negated):
            _ = try schema.column(named: name, for: "a filter")
            sql += "\(quote(name)) IS \(negated ? "NOT " : "")NULL"
        case .and(let lhs, let rhs):
            sql += "("
            try render(lhs)
            sql += " AND "
            try render(rhs)
            sql += ")"
        case .or(let lhs, let rhs):
            sql += "("
            try render(lhs)
            sql += " OR "
            try render(rhs)
            sql += ")"
        case .not(let inner):
            sql += "NOT ("
            try render(inner)
            sql += ")"
        case .related(let related):
            try related.render(&self)
        case .aggregate(let spec, let op, let value):
            let expression = try aggregateColumns(spec)[0]
            if value == .null {
                sql += "\(expression) IS \(op == "=" ? "" : "NOT ")NULL"
            } else {
                sql += "\(expression) \(op) ?"
                arguments.append(value)
            }
        case .window(let query):
            var window = QuerySQL(schema: schema)
            window.registry = registry
            window.sql = "SELECT rowid FROM \(schema.table)"
            try window.appendWhere(query.filter)
            try window.appendOrder(query.sort, filter: query.filter)
            window.appendWindow(limit: query.limit, offset: query.offset)
            sql += "\(tableRef).rowid IN ("
            absorb(window)
            sql += ")"
        }
    }
}

extension Connection {
    /// The cached statement for `built`, bound to its arguments, after checking its full-text
    /// queries: FTS5 reports a malformed query only when the statement runs, with a message that
    /// does not say which query.
    func statement(for built: QuerySQL, explain: Bool = false) throws(PersistenceError) -> Statement {
        for (table, column, query) in built.fullTextQueries {
            let target = column.map(quote) ?? quote(table)
            let probe = try cached("SELECT 1 FROM \(quote(table)) WHERE \(target) MATCH ? LIMIT 1")
            try probe.bind([.text(query)])
            defer { probe.reset() }
            do {
                _ = try probe.step()
            } catch {
                throw PersistenceError(
                    .invalidQuery,
                    "The full-text query \"\(query)\" on \(column ?? "the full-text index") is malformed (\(lastMessage)). Close every "
                        + "double quote and parenthesis, and put words around AND, OR and NOT; to search for such a "
                        + "word, quote it.",
                    property: column, sqliteCode: error.sqliteCode)
            }
        }
        let statement = explain ? try prepare("EXPLAIN QUERY PLAN " + built.sql) : try cached(built.sql)
        try statement.bind(built.arguments)
        return statement
    }
}
