import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

extension ObjectTransaction {
    /// Changes properties of the entities a query selects, in one SQL statement: every row its
    /// filter matches (all of them without one), or a sorted window of them.
    ///
    /// ```swift
    /// let changed = try tx.update(
    ///     Query<Book>(where: Book.rating == nil), set: [Book.pages += 1, Book.shelf.set(.archived)])
    /// ```
    ///
    /// Every value is checked as an upsert checks it, before anything is written: a NaN, or an
    /// integer beyond the property's type (set, or reached by `+=` and `-=` on any matching row),
    /// refuses the whole update with ``PersistenceError/Code-swift.struct/unsupportedValue`` naming
    /// the property. A unique key the update would give to two rows refuses it too; then nothing
    /// is applied (the statement is undone) and the rest of the block can go on. The folded texts
    /// of case-insensitive indexes and the full-text index follow. Observers are told exactly
    /// which rows changed. While a query of the entity was observed when the transaction began
    /// (one without a window, a relevance sort or a filter through a relation or the full-text
    /// index), the statement also returns the rows' new values: such a query whose filter reads
    /// none of the assigned properties applies them to the rows it holds, without reading the
    /// table again, and delivers an exact ``ChangeSet``; any other observer reads the changed rows
    /// again.
    ///
    /// - Parameters:
    ///   - query: the rows to change; a window (a limit or an offset) needs a sort.
    ///   - assignments: the changes, at most one per property.
    /// - Returns: how many rows matched the filter and were written (a row whose values already
    ///   were the new ones counts too, as in SQL).
    /// - Throws: ``PersistenceError/Code-swift.struct/unsupportedValue`` for a value the property cannot
    ///   hold; ``PersistenceError/Code-swift.struct/uniqueKeyViolation`` naming the entity and the key's
    ///   properties; ``PersistenceError/Code-swift.struct/constraintViolation`` for `nil` in a property that
    ///   is not optional; ``PersistenceError/Code-swift.struct/misuse`` for a property assigned twice or a
    ///   read block; ``PersistenceError/Code-swift.struct/invalidQuery`` for a window without a sort.
    @discardableResult
    public func update<E: StoredEntity>(
        _ query: Query<E>, set assignments: [Assignment<E>]
    ) throws(PersistenceError) -> Int {
        try checkWritable("update")
        try query.checkWindowSorted("An update")
        let filter = query.selection
        let schema = try connection.codec(E.self).schema
        guard !assignments.isEmpty else { return 0 }
        var sets: [String] = []
        var values: [DatabaseValue] = []
        var additions: [(column: ColumnSchema, amount: DatabaseValue)] = []
        var columns: [String] = []
        for assignment in assignments {
            let column = try schema.column(named: assignment.column, for: "an update")
            // An entity has few properties: a look along the list is cheaper than a set.
            guard !columns.contains(column.name) else {
                throw PersistenceError(
                    .misuse, "An update of \(E.entityName) assigns '\(column.name)' twice; assign it once.",
                    entity: E.entityName, property: column.name)
            }
            columns.append(column.name)
            let quoted = quote(column.name)
            switch assignment.change {
            case .set(let value):
                let stored = try Self.storedValue(value, column, schema)
                sets.append("\(quoted) = ?")
                values.append(stored)
                if let fold = schema.foldName(of: column.name) {
                    sets.append("\(quote(fold)) = ?")
                    values.append(TextFold.folded(stored))
                }
            case .add(let amount):
                try Self.checkAddition(amount, to: column, schema)
                sets.append("\(quoted) = \(quoted) + ?")
                values.append(amount)
                additions.append((column, amount))
            }
        }
        try checkAdditions(additions, filter: filter, schema)
        var built = QuerySQL(schema: schema)
        built.sql = "UPDATE \(schema.table) SET " + sets.joined(separator: ", ")
        built.arguments = values
        try built.appendWhere(filter)
        // While a query observer of the entity applies commits row by row, the statement returns
        // each changed row's new values, so it applies the update to the rows it holds instead of
        // reading them again; otherwise the changed rows are recorded as any write's are.
        // A new identity moves the row (an integer identity is its row id, which SQLite then reports
        // only under its new value): observers of the entity refresh in full.
        let log = connection.changeLog
        let movesIdentity = columns.contains(schema.idName)
        let returning = !movesIdentity && Self.returnsValues && log.beginCapture(schema.entityName)
        if returning {
            built.sql += " RETURNING rowid, " + columns.map(quote).joined(separator: ", ")
        }
        var outcome = ChangeLog.CaptureOutcome.failed
        defer { if returning { log.endCapture(schema.entityName, outcome) } }
        let statement = try connection.statement(for: built)
        do {
            if returning {
                let kinds = try columns.map { name throws(PersistenceError) in
                    try schema.column(named: name, for: "an update").storage
                }
                outcome = try Self.readWritten(statement, columns: columns, storage: kinds)
            } else {
                try statement.run()
            }
        } catch {
            throw Self.naming(error, schema)
        }
        let count = connection.changes
        if count > 0 {
            touch(schema.entityName)
            if movesIdentity { log.overflow(schema.entityName) }
        }
        return count
    }

    /// Whether this SQLite has `RETURNING` (3.35 and later): without it, an update's rows are
    /// only reported, and observers read them again.
    private static let returnsValues = sqlite3_libversion_number() >= 3_035_000

    /// Steps an `UPDATE … RETURNING rowid, <columns>` to its end, collecting what it returns, up
    /// to ``WrittenValues/limit`` rows (past it, observers read the table again).
    ///
    /// An integer column's value is kept as an integer, as a `SELECT` reads it.
    private static func readWritten(
        _ statement: Statement, columns: [String], storage: [Storage]
    ) throws(PersistenceError) -> ChangeLog.CaptureOutcome {
        var rowids: [Int64] = []
        var values: [DatabaseValue] = []
        var overflowed = false
        let count = Int32(columns.count)
        while try statement.step() {
            // The statement changed every row on its first step: the rest only reads them back.
            guard !overflowed else { continue }
            guard rowids.count < WrittenValues.limit else {
                overflowed = true
                rowids = []
                values = []
                continue
            }
            rowids.append(statement.int64(0))
            for index in 1...count {
                var value = statement.value(at: index)
                if storage[Int(index) - 1] == .integer, case .real(let real) = value, let integer = Int64(exactly: real)
                {
                    value = .integer(integer)
                }
                values.append(value)
            }
        }
        return overflowed ? .tooMany : .returned(WrittenValues(columns: columns, rowids: rowids, values: values))
    }

    /// The column value of an assigned value, checked as an upsert checks it.
    /// Refuses a `+=` or `-=` on a property that is not an integer or a `Double`, or by NaN,
    /// naming the property; shared by updates by filter and upsert rules.
    static func checkAddition(
        _ amount: DatabaseValue, to column: ColumnSchema, _ schema: EntitySchema
    ) throws(PersistenceError) {
        guard column.kind == .integer || column.kind == .double else {
            throw ValueCoding.unsupported(
                schema, column,
                "is a \(column.swiftType), which += and -= do not change (only integer and Double properties); "
                    + "set it instead.")
        }
        if case .real(let real) = amount, real.isNaN { throw ValueCoding.nan(schema, column) }
    }

    static func storedValue(
        _ value: any QueryableValue, _ column: ColumnSchema, _ schema: EntitySchema
    ) throws(PersistenceError) -> DatabaseValue {
        if column.kind == .json {
            // Only the outer `nil` is NULL: JSON keeps the inner `nil` of a nested optional.
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional, mirror.children.isEmpty { return .null }
        } else if value.databaseValue == .null {
            return .null
        }
        // A JSON column's encoder is made for its value alone (`json: nil`).
        let stored = try ValueCoding.databaseValue(of: value, column: column, schema: schema, json: nil)
        if case .integer(let integer) = stored, let range = column.integerRange, !range.contains(integer) {
            throw ValueCoding.unsupported(
                schema, column,
                "would be set to \(integer), which its type \(column.swiftType) cannot hold; nothing was updated.")
        }
        return stored
    }

    /// Refuses additions that would take a matching row's property beyond its type, or to NaN,
    /// before anything is written: SQLite would turn an integer overflow into a real, and a NaN
    /// into `NULL`.
    private func checkAdditions<E>(
        _ additions: [(column: ColumnSchema, amount: DatabaseValue)], filter: Filter<E>?, _ schema: EntitySchema
    ) throws(PersistenceError) {
        guard !additions.isEmpty else { return }
        var built = QuerySQL(schema: schema)
        built.sql =
            "SELECT \(quote(schema.idName)), " + additions.map { quote($0.column.name) }.joined(separator: ", ")
            + " FROM \(schema.table) WHERE ("
        if let filter { try built.render(filter.node) } else { built.sql += "1" }
        var bad: [String] = []
        for (column, amount) in additions {
            let quoted = quote(column.name)
            if column.kind == .integer {
                let range = column.integerRange ?? Int64.min...Int64.max
                bad.append("NOT ((\(quoted) + ?) BETWEEN ? AND ?)")
                built.arguments += [amount, .integer(range.lowerBound), .integer(range.upperBound)]
            } else {
                bad.append("(\(quoted) IS NOT NULL AND (\(quoted) + ?) IS NULL)")
                built.arguments.append(amount)
            }
        }
        built.sql += ") AND (" + bad.joined(separator: " OR ") + ") LIMIT 1"
        let statement = try connection.statement(for: built)
        defer { statement.reset() }
        guard try statement.step() else { return }
        let identity = statement.value(at: 0)
        for (offset, addition) in additions.enumerated() {
            let (column, amount) = addition
            let current = statement.value(at: Int32(offset + 1))
            switch (current, amount) {
            case (.integer(let value), .integer(let delta)):
                let (sum, overflow) = value.addingReportingOverflow(delta)
                let range = column.integerRange ?? Int64.min...Int64.max
                guard overflow || !range.contains(sum) else { continue }
                throw ValueCoding.unsupported(
                    schema, column,
                    "would become \(value) + \(delta) for the \(schema.entityName) whose identity is \(identity), "
                        + "beyond the range of its type \(column.swiftType) (\(range.lowerBound)...\(range.upperBound)); "
                        + "nothing was updated.")
            case (.real(let value), .real(let delta)) where (value + delta).isNaN:
                throw ValueCoding.unsupported(
                    schema, column,
                    "would become \(value) + \(delta), which is NaN, for the \(schema.entityName) whose identity is "
                        + "\(identity). The store refuses NaN; nothing was updated.")
            case (.null, _):
                continue
            default:
                // An integer property reaching beyond 64 bits through a real amount, or a value of
                // an unexpected type: refused as out of range.
                guard column.kind == .integer else { continue }
                throw ValueCoding.unsupported(
                    schema, column,
                    "would become \(current) + \(amount) for the \(schema.entityName) whose identity is \(identity), "
                        + "beyond the range of its type \(column.swiftType); nothing was updated.")
            }
        }
    }

    /// The properties a constraint error of SQLite names: it says "UNIQUE constraint failed:
    /// Book.isbn" (or "Book.a, Book.b").
    static func constrainedProperties(_ error: PersistenceError, _ schema: EntitySchema) -> [String] {
        guard let range = error.message.range(of: "constraint failed: ") else { return [] }
        let rest = error.message[range.upperBound...].prefix { $0 != ")" }
        return rest.split(separator: ",").map {
            let name = $0.trimmingCharacters(in: .whitespaces)
            return name.hasPrefix(schema.entityName + ".") ? String(name.dropFirst(schema.entityName.count + 1)) : name
        }
    }

    /// A constraint error of an update, naming the entity and the properties SQLite names.
    private static func naming(_ error: PersistenceError, _ schema: EntitySchema) -> PersistenceError {
        guard error.code == .uniqueKeyViolation || error.code == .constraintViolation else { return error }
        let properties = constrainedProperties(error, schema)
        let list = properties.map { "\(schema.entityName).\($0)" }.joined(separator: ", ")
        let message =
            error.code == .uniqueKeyViolation
            ? "The update would give two \(schema.entityName) rows the same \(list.isEmpty ? "unique key" : list); "
                + "nothing was updated. Narrow the filter or assign values that stay unique."
            : "The update breaks a constraint on \(list.isEmpty ? schema.entityName : list) (\(error.message)); "
                + "nothing was updated."
        return PersistenceError(
            error.code, message, entity: schema.entityName, property: properties.first, sqliteCode: error.sqliteCode)
    }
}
