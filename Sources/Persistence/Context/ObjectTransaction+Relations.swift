#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// SQLite's extended result code for a failed foreign key.
let foreignKeyFailure: Int32 = 787  // SQLITE_CONSTRAINT_FOREIGNKEY

extension PersistenceError {
    /// Whether SQLite refused a write for a foreign key: a missing row (`SQLITE_CONSTRAINT_FOREIGNKEY`)
    /// or a `RESTRICT` action, which SQLite raises from a trigger (`SQLITE_CONSTRAINT_TRIGGER`).
    var isForeignKeyFailure: Bool {
        sqliteCode == foreignKeyFailure || (sqliteCode == 1811 && message.contains("FOREIGN KEY"))
    }
}

extension ObjectTransaction {
    // MARK: Links of many-to-many relations

    /// Links a `Source` row to a `Target` row through a shorthand many-to-many relation; the
    /// link comes after the source's other links.
    ///
    /// - Parameters:
    ///   - relation: the relation, declared in `Source`'s ``StoredEntity/relations``.
    ///   - source: the source row's identity.
    ///   - target: the target row's identity.
    /// - Throws: ``PersistenceError/Code-swift.struct/uniqueKeyViolation`` when the two are already
    ///   linked; ``PersistenceError/Code-swift.struct/missingReference`` when either row does not exist.
    public func link<Source, Target>(
        _ relation: ManyToMany<Source, Target>, _ source: Source.ID, to target: Target.ID
    ) throws(PersistenceError) {
        try checkWritable("link")
        let link = try linkTable(relation)
        let statement = try connection.cached(
            "INSERT INTO \(quote(link.table)) (source, target, position) VALUES (?1, ?2, "
                + "COALESCE((SELECT MAX(position) FROM \(quote(link.table)) WHERE source = ?1), 0) + 1)")
        try statement.bind([source.databaseValue, target.databaseValue])
        do {
            try statement.run()
        } catch {
            throw linkError(error, link, source.databaseValue, target.databaseValue)
        }
        touch(link.table)
    }

    /// Removes the link between a `Source` row and a `Target` row.
    ///
    /// - Parameters:
    ///   - relation: the relation.
    ///   - source: the source row's identity.
    ///   - target: the target row's identity.
    /// - Returns: whether there was such a link.
    /// - Throws: ``PersistenceError``.
    @discardableResult
    public func unlink<Source, Target>(
        _ relation: ManyToMany<Source, Target>, _ source: Source.ID, from target: Target.ID
    ) throws(PersistenceError) -> Bool {
        try checkWritable("unlink")
        let link = try linkTable(relation)
        let statement = try connection.cached("DELETE FROM \(quote(link.table)) WHERE source = ? AND target = ?")
        try statement.bind([source.databaseValue, target.databaseValue])
        try statement.run()
        let removed = connection.changes > 0
        if removed { touch(link.table) }
        return removed
    }

    /// Replaces the links of a `Source` row with links to `targets`, in that order.
    ///
    /// - Parameters:
    ///   - relation: the relation.
    ///   - source: the source row's identity.
    ///   - targets: the target rows' identities, each once, in the order prefetches return them.
    /// - Throws: ``PersistenceError/Code-swift.struct/uniqueKeyViolation`` when `targets` names a row
    ///   twice; ``PersistenceError/Code-swift.struct/missingReference`` when a row does not exist.
    ///   Nothing changes when it throws.
    public func setLinks<Source, Target>(
        _ relation: ManyToMany<Source, Target>, of source: Source.ID, to targets: [Target.ID]
    ) throws(PersistenceError) {
        try checkWritable("setLinks")
        let link = try linkTable(relation)
        var seen: Set<DatabaseValue> = []
        for target in targets where !seen.insert(target.databaseValue).inserted {
            throw PersistenceError(
                .uniqueKeyViolation,
                "setLinks(\(link.label)) lists \(link.targetName) \(target.databaseValue) twice for \(link.sourceName) "
                    + "\(source.databaseValue); a pair is linked once. Nothing was changed.",
                entity: link.sourceName, property: link.name)
        }
        try withSavepoint { () throws(PersistenceError) in
            let clear = try connection.cached("DELETE FROM \(quote(link.table)) WHERE source = ?")
            try clear.bind([source.databaseValue])
            try clear.run()
            let insert = try connection.cached(
                "INSERT INTO \(quote(link.table)) (source, target, position) VALUES (?, ?, ?)")
            for (offset, target) in targets.enumerated() {
                insert.reset()
                try insert.bind([source.databaseValue, target.databaseValue, .integer(Int64(offset + 1))])
                do throws(PersistenceError) {
                    try insert.run()
                } catch {
                    throw linkError(error, link, source.databaseValue, target.databaseValue)
                }
            }
        }
        touch(link.table)
    }

    /// Runs `body` inside a savepoint: its changes are undone when it throws.
    private func withSavepoint(_ body: () throws(PersistenceError) -> Void) throws(PersistenceError) {
        try connection.execute("SAVEPOINT fk_relation")
        do {
            try body()
            try connection.execute("RELEASE fk_relation")
        } catch {
            try? connection.execute("ROLLBACK TO fk_relation; RELEASE fk_relation")
            throw error
        }
    }

    private func linkTable<Source, Target>(_ relation: ManyToMany<Source, Target>) throws(PersistenceError) -> LinkTable
    {
        let codec = try connection.codec(Source.self)
        guard let table = relation.linkTable, let link = codec.schema.links.first(where: { $0.table == table }) else {
            throw PersistenceError(
                .misuse,
                "This many-to-many relation of \(Source.entityName) is not a shorthand one listed in "
                    + "\(Source.entityName).relations; declare it there (a relation through a join entity is written "
                    + "by inserting and deleting join entities).", entity: Source.entityName)
        }
        return link
    }

    private func linkError(
        _ error: PersistenceError, _ link: LinkTable, _ source: DatabaseValue, _ target: DatabaseValue
    ) -> PersistenceError {
        if error.code == .uniqueKeyViolation {
            return PersistenceError(
                .uniqueKeyViolation,
                "\(link.sourceName) \(source) is already linked to \(link.targetName) \(target) through \(link.label); "
                    + "a pair is linked once.", entity: link.sourceName, property: link.name,
                sqliteCode: error.sqliteCode)
        }
        guard error.isForeignKeyFailure else { return error }
        for (name, id, value) in [(link.sourceName, link.sourceID, source), (link.targetName, link.targetID, target)] {
            let exists = try? connection.scalar(
                "SELECT EXISTS(SELECT 1 FROM \(quote(name)) WHERE \(quote(id)) = ?)", [value])
            if exists == .integer(0) {
                return PersistenceError(
                    .missingReference,
                    "\(link.label) links to \(name) \(value), which does not exist. Insert it first.",
                    entity: link.sourceName, property: link.name, sqliteCode: foreignKeyFailure)
            }
        }
        return PersistenceError(
            .missingReference, "\(link.label) refers to a row that does not exist (\(error.message)).",
            entity: link.sourceName, property: link.name, sqliteCode: foreignKeyFailure)
    }

    // MARK: Diagnosing refused writes

    /// The error for a write of `entity` that SQLite refused: for a failed foreign key, a
    /// ``PersistenceError/Code-swift.struct/missingReference`` naming the property and the
    /// missing identity; for a unique key another row holds, the error naming the entity and
    /// the key's properties; any other error unchanged.
    func referenceError<E: StoredEntity>(
        _ error: PersistenceError, _ entity: E, _ codec: EntityCodec
    ) -> PersistenceError {
        let schema = codec.schema
        if error.code == .uniqueKeyViolation, error.property == nil {
            let properties = Self.constrainedProperties(error, schema)
            guard !properties.isEmpty else { return error }
            let list = properties.map { "\(schema.entityName).\($0)" }.joined(separator: ", ")
            return PersistenceError(
                .uniqueKeyViolation,
                "Another \(schema.entityName) row already has this \(list) (writing the \(schema.entityName) whose "
                    + "identity is \(entity.id)); nothing was written. Use upsert(_:matching:) to "
                    + "replace the row that holds it, or store a value that stays unique.",
                entity: schema.entityName, property: properties.first, sqliteCode: error.sqliteCode)
        }
        guard error.isForeignKeyFailure, !schema.foreignKeys.isEmpty else { return error }
        // The entity's values, bound the way the write bound them, read back one by one.
        let written = schema.names.count + schema.foldColumns.count
        let probeSQL = "SELECT " + (1...written).map { "?\($0)" }.joined(separator: ", ")
        if let probe = try? connection.prepare(probeSQL), (try? codec.encoder.bind(entity, to: probe)) != nil,
            (try? probe.step()) == true
        {
            for key in schema.foreignKeys {
                guard let index = schema.indexByName[key.column] else { continue }
                let value = probe.value(at: Int32(index))
                if value == .null { continue }
                let exists = try? connection.scalar(
                    "SELECT EXISTS(SELECT 1 FROM \(quote(key.targetName)) WHERE \(quote(key.targetID)) = ?)", [value])
                if exists == .integer(0) {
                    return PersistenceError(
                        .missingReference,
                        "\(schema.entityName).\(key.column) refers to \(key.targetName) \(value), which does not exist. "
                            + "Insert that \(key.targetName) first, or refer to one that exists"
                            + (key.isOptional ? " (or to nil)." : "."),
                        entity: schema.entityName, property: key.column, sqliteCode: foreignKeyFailure)
                }
            }
        }
        return PersistenceError(
            .missingReference,
            "A reference of \(schema.entityName) refers to a row that does not exist (\(error.message)).",
            entity: schema.entityName, sqliteCode: foreignKeyFailure)
    }

    /// The error for a delete of `schema`'s rows that SQLite refused: for a failed foreign key, a
    /// ``PersistenceError/Code-swift.struct/deleteDenied`` naming the relation that blocks it and
    /// how many rows do. `rows` selects the identities of the rows the delete meant to remove.
    func denyError(
        _ error: PersistenceError, _ schema: EntitySchema, rows: String, _ arguments: [DatabaseValue],
        describing: String
    ) -> PersistenceError {
        guard error.isForeignKeyFailure, let registry = schema.registry else { return error }
        var blocking: (label: String, count: Int64, via: [String])?
        func walk(_ name: String, _ ids: String, _ via: [String]) {
            for referrer in registry.referrers[name] ?? [] where blocking == nil {
                let key = referrer.key
                let condition = "\(quote(key.column)) IN (\(ids))"
                switch key.rule {
                case .deny, .none:
                    let count = try? connection.scalar(
                        "SELECT COUNT(*) FROM \(quote(referrer.source)) WHERE \(condition)", arguments)
                    if let count = count?.integerValue, count > 0 { blocking = (key.label, count, via) }
                case .cascade:
                    guard let source = registry.byName[referrer.source] else { continue }
                    walk(
                        referrer.source,
                        "SELECT \(quote(source.idName)) FROM \(quote(referrer.source)) WHERE \(condition)",
                        via + [key.label])
                case .nullify:
                    continue
                }
            }
        }
        walk(schema.entityName, rows, [])
        guard let blocking else {
            return PersistenceError(
                .deleteDenied,
                "Deleting \(schema.entityName) \(describing) is denied: other rows refer to it (\(error.message)). "
                    + "Nothing was deleted.", entity: schema.entityName, sqliteCode: foreignKeyFailure)
        }
        let rule = blocking.label
        let source = rule.split(separator: ".").first.map(String.init) ?? rule
        let through =
            blocking.via.isEmpty ? "" : " (reached by cascading through \(blocking.via.joined(separator: ", ")))"
        return PersistenceError(
            .deleteDenied,
            "Deleting \(schema.entityName) \(describing) is denied by \(rule): \(blocking.count) \(source) "
                + "row\(blocking.count == 1 ? "" : "s") refer to it\(through), and that relation's delete rule keeps "
                + "referred rows. Delete those rows or point them elsewhere first. Nothing was deleted.",
            entity: schema.entityName, property: rule, sqliteCode: foreignKeyFailure)
    }

    /// Records a delete of `schema`'s rows, and the tables its cascade and nullify rules may change.
    func touchDeleted(_ schema: EntitySchema) {
        touch(schema.entityName)
        for table in schema.registry?.deleteReach[schema.entityName] ?? [] { touched.insert(table) }
    }
}
