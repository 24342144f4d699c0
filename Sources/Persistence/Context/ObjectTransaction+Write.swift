#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

extension ObjectTransaction {
    /// Inserts a new entity.
    ///
    /// - Parameter entity: the value to store.
    /// - Throws: ``PersistenceError/Code-swift.struct/uniqueKeyViolation`` when its identity or a unique key is taken;
    ///   ``PersistenceError/Code-swift.struct/unsupportedValue`` for a value the store cannot hold.
    public func insert<E: StoredEntity>(_ entity: E) throws(PersistenceError) {
        try checkWritable("insert")
        let codec = try connection.codec(E.self)
        let statement = try codec.insert()
        try codec.encoder.bind(entity, to: statement)
        do { try statement.run() } catch { throw referenceError(error, entity, codec) }
        touch(codec.schema.entityName)
    }

    /// Inserts many new entities, reusing one prepared statement.
    ///
    /// - Parameter entities: the values to store.
    /// - Throws: ``PersistenceError``, as ``insert(_:)``; the whole block rolls back when it propagates.
    public func insert<E: StoredEntity>(contentsOf entities: some Sequence<E>) throws(PersistenceError) {
        try checkWritable("insert")
        let codec = try connection.codec(E.self)
        let statement = try codec.insert()
        let encoder = codec.encoder
        for entity in entities {
            try encoder.bind(entity, to: statement)
            do { try statement.run() } catch { throw referenceError(error, entity, codec) }
            statement.reset()
        }
        touch(codec.schema.entityName)
    }

    /// Replaces the stored entity that has the same identity.
    ///
    /// - Parameter entity: the new value.
    /// - Throws: ``PersistenceError/Code-swift.struct/notFound`` when no row has its identity;
    ///   ``PersistenceError/Code-swift.struct/uniqueKeyViolation`` when a unique key is taken by another row.
    public func update<E: StoredEntity>(_ entity: E) throws(PersistenceError) {
        try checkWritable("update")
        let codec = try connection.codec(E.self)
        let statement = try codec.update()
        try codec.encoder.bind(entity, to: statement)
        do { try statement.run() } catch { throw referenceError(error, entity, codec) }
        guard connection.changes > 0 else {
            throw PersistenceError(
                .notFound,
                "No \(E.entityName) has the identity \(entity.id.databaseValue); insert it or use upsert.",
                entity: E.entityName)
        }
        touch(codec.schema.entityName)
    }

    /// Inserts the entity, or updates the stored row it matches, in one SQLite
    /// `INSERT … ON CONFLICT … DO UPDATE` statement.
    ///
    /// The entity matches a stored row with the same identity, or, given `key`, the same values
    /// for that unique key (the stored row keeps its identity). The matched row's properties take
    /// the new values, except where a rule says otherwise: keep the stored value, or combine it
    /// with an assignment:
    ///
    /// ```swift
    /// let outcome = try tx.upsert(book, onConflict: [.keep(Book.rating), .assign(Book.score += 1)])
    /// if outcome == .inserted { print("new:", book.title) }
    /// ```
    ///
    /// Rules are checked before anything is written; a `+=` that would take a stored integer past
    /// its property's type, or a `Double` to NaN, refuses the upsert and writes nothing. With
    /// ``ConflictRule/onlyIfNewer(_:)`` a stored row is updated only when the entity's version is
    /// newer than the stored one:
    ///
    /// ```swift
    /// if try tx.upsert(book, onConflict: [.onlyIfNewer(Book.updated)]) == .kept { print("already as new") }
    /// ```
    ///
    /// - Parameters:
    ///   - entity: the value to store.
    ///   - key: one of the entity's declared ``StoredEntity/uniqueKeys`` to match on; `nil` (the
    ///     default) for the identity.
    ///   - rules: what to do with properties of a matched row (at most one rule per property).
    /// - Returns: whether the entity was inserted, a stored row updated, or (under
    ///   ``ConflictRule/onlyIfNewer(_:)``) a stored row as new or newer kept as it was.
    /// - Throws: ``PersistenceError/Code-swift.struct/misuse`` when `key` is not declared, a rule
    ///   names the identity, the key or a property twice, or a version rule names a property that
    ///   does not order, comes twice or beside a `+=`; ``PersistenceError/Code-swift.struct/unknownProperty``
    ///   when a rule names a property the entity does not store;
    ///   ``PersistenceError/Code-swift.struct/unsupportedValue`` for an assignment the property cannot hold;
    ///   ``PersistenceError/Code-swift.struct/uniqueKeyViolation`` when another unique key or the identity clashes.
    @discardableResult
    public func upsert<E: StoredEntity>(
        _ entity: E, matching key: UniqueKey<E>? = nil, onConflict rules: [ConflictRule<E>] = []
    ) throws(PersistenceError) -> UpsertOutcome {
        try checkWritable("upsert")
        let codec = try connection.codec(E.self)
        let schema = codec.schema
        if let key, !schema.uniqueKeys.contains(key.columns) {
            throw PersistenceError(
                .misuse,
                "\(E.entityName) does not declare the unique key (\(key.columns.joined(separator: ", "))); "
                    + "add it to `static var uniqueKeys`.", entity: E.entityName)
        }
        // Without rules, the statements every upsert of the entity shares; with rules, one built for them.
        var plan: UpsertPlan?
        let statement: Statement
        if !rules.isEmpty {
            let planned = try codec.upsert(matching: key?.columns, rules: rules)
            plan = planned.plan
            statement = planned.statement
        } else if let key {
            statement = try connection.cached(schema.upsertSQL(matching: key.columns))
        } else {
            statement = try codec.upsert()
        }
        try codec.encoder.bind(entity, to: statement)
        for (offset, value) in (plan?.arguments ?? []).enumerated() {
            try statement.bind(value, at: Int32((plan?.firstArgument ?? 0) + offset))
        }
        // An insert sets the last inserted row id; the DO UPDATE path leaves it. A sentinel no
        // inserted row of this statement can have tells the two apart.
        let sentinel: Int64 = entity.id.databaseValue == .integer(.min) ? .max : .min
        sqlite3_set_last_insert_rowid(connection.handle, sentinel)
        do { try statement.run() } catch { throw referenceError(error, entity, codec) }
        let outcome: UpsertOutcome
        if sqlite3_last_insert_rowid(connection.handle) != sentinel {
            outcome = .inserted
        } else if let plan, plan.isGuarded, connection.changes == 0 {
            // The matched row failed a `+=` guard: nothing was written.
            throw plan.overflow
        } else if let plan, plan.isVersioned, connection.changes == 0 {
            // The matched row was as new or newer: nothing was written.
            return .kept
        } else {
            outcome = .updated
        }
        touch(schema.entityName)
        return outcome
    }

    /// Deletes the stored entity with the same identity as `entity`.
    ///
    /// - Parameter entity: the value whose row to delete.
    /// - Returns: whether a row was deleted.
    /// - Throws: ``PersistenceError``.
    @discardableResult
    public func delete<E: StoredEntity>(_ entity: E) throws(PersistenceError) -> Bool {
        try delete(E.self, id: entity.id)
    }

    /// Deletes the entity with the given identity.
    ///
    /// - Parameters:
    ///   - type: the entity type.
    ///   - id: the identity.
    /// - Returns: whether a row was deleted.
    /// - Throws: ``PersistenceError``.
    @discardableResult
    public func delete<E: StoredEntity>(_ type: E.Type, id: E.ID) throws(PersistenceError) -> Bool {
        try checkWritable("delete")
        let codec = try connection.codec(E.self)
        let statement = try codec.delete()
        try statement.bind(id.databaseValue, at: 1)
        do {
            try statement.run()
        } catch {
            throw denyError(
                error, codec.schema, rows: "SELECT ?", [id.databaseValue], describing: "\(id.databaseValue)")
        }
        let deleted = connection.changes > 0
        if deleted { touchDeleted(codec.schema) }
        return deleted
    }

    /// Deletes the entities a query selects: every row its filter matches (all of them without
    /// one), or a sorted window of them, in one statement.
    ///
    /// With a limit or an offset, the rows are ordered by the query's sort and only the window is
    /// deleted: "keep the newest 20" is
    /// `tx.delete(Query<Record>(sortedBy: [Record.finishedAt.descending()], offset: 20))`.
    ///
    /// - Parameter query: the rows to delete; a window needs a sort.
    /// - Returns: how many rows were deleted.
    /// - Throws: ``PersistenceError/Code-swift.struct/invalidQuery`` naming the entity for a limit or an
    ///   offset without a sort (nothing is deleted); other ``PersistenceError``s as a delete throws them.
    @discardableResult
    public func delete<E: StoredEntity>(_ query: Query<E>) throws(PersistenceError) -> Int {
        try checkWritable("delete")
        let codec = try connection.codec(E.self)
        try query.checkWindowSorted("A delete")
        let filter = query.selection
        var built = QuerySQL(schema: codec.schema)
        var rows = QuerySQL(schema: codec.schema)
        rows.sql = "SELECT \(quote(codec.schema.idName)) FROM \(codec.schema.table)"
        try rows.appendWhere(filter)
        built.sql = "DELETE FROM \(codec.schema.table)"
        try built.appendWhere(filter)
        // Without a WHERE clause SQLite may empty the table without reporting each row.
        if filter == nil { connection.changeLog.overflow(codec.schema.entityName) }
        let statement = try connection.statement(for: built)
        do {
            try statement.run()
        } catch {
            throw denyError(error, codec.schema, rows: rows.sql, rows.arguments, describing: "matching the filter")
        }
        let count = connection.changes
        if count > 0 { touchDeleted(codec.schema) }
        return count
    }
}
