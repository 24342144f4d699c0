/// Brings the foreign keys of existing tables in line with the relations their entities declare,
/// when a store opens.
///
/// SQLite cannot add or change a foreign key on an existing table, so a table whose stored keys
/// differ from the declared ones is rebuilt: the same columns, rows and row ids, its indexes and
/// triggers made again, inside the open's transaction and with foreign keys off (see
/// `MigrationRunner`). The rows are then checked against the new keys: a row referring to a
/// missing row makes the open fail naming it, and the transaction rolls back.
enum RelationMigration {
    /// The foreign keys a table stores, as comparable strings.
    static func storedKeys(_ connection: Connection, _ table: String) throws(PersistenceError) -> Set<String> {
        let rows = try connection.rows(
            "SELECT \"from\", \"table\", \"to\", on_delete FROM pragma_foreign_key_list(?)", [.text(table)])
        return Set(rows.map { row in row.map { $0.textValue ?? "" }.joined(separator: "|").uppercased() })
    }

    static func declaredKeys(_ schema: EntitySchema) -> Set<String> {
        Set(
            schema.foreignKeys.map {
                [$0.column, $0.targetName, $0.targetID, $0.rule.sqlAction].joined(separator: "|").uppercased()
            })
    }

    /// Whether the table of `schema` exists with other foreign keys than the entity declares.
    static func needsRebuild(_ connection: Connection, _ schema: EntitySchema) throws(PersistenceError) -> Bool {
        guard try SchemaReconciler.tableExists(connection, schema.entityName) else { return false }
        return try storedKeys(connection, schema.entityName) != declaredKeys(schema)
    }

    /// Rebuilds the table of `schema` with its declared foreign keys, then checks its rows.
    static func rebuild(_ connection: Connection, _ schema: EntitySchema) throws(PersistenceError) {
        let info = try connection.rows(
            "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid",
            [.text(schema.entityName)])
        var definitions: [String] = []
        var names: [String] = []
        for row in info {
            let name = row[0].textValue ?? ""
            var definition = quote(name)
            if let type = row[1].textValue, !type.isEmpty { definition += " \(type)" }
            if row[2] != .integer(0) { definition += " NOT NULL" }
            if let value = row[3].textValue { definition += " DEFAULT \(value)" }
            if row[4] != .integer(0) { definition += " PRIMARY KEY" }
            if let key = schema.foreignKeys.first(where: { $0.column == name }) { definition += " " + key.clause }
            definitions.append(definition)
            names.append(quote(name))
        }
        let objects = try connection.rows(
            "SELECT sql FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL",
            [.text(schema.entityName)])
        let temporary = quote("fk_rebuild_" + schema.entityName)
        let columns = names.joined(separator: ", ")
        try connection.execute("PRAGMA legacy_alter_table = ON")
        defer { try? connection.execute("PRAGMA legacy_alter_table = OFF") }
        try connection.execute("CREATE TABLE \(temporary) (\(definitions.joined(separator: ", ")))")
        try connection.execute(
            "INSERT INTO \(temporary) (rowid, \(columns)) SELECT rowid, \(columns) FROM \(schema.table)")
        try connection.execute("DROP TABLE \(schema.table)")
        try connection.execute("ALTER TABLE \(temporary) RENAME TO \(schema.table)")
        for row in objects {
            if let sql = row[0].textValue { try connection.execute(sql) }
        }
        try check(connection, schema)
    }

    /// Fails naming the rows of `schema`'s table that refer to rows that do not exist.
    static func check(_ connection: Connection, _ schema: EntitySchema) throws(PersistenceError) {
        let violations = try connection.rows(
            "SELECT rowid, fkid FROM pragma_foreign_key_check(?)", [.text(schema.entityName)])
        guard !violations.isEmpty else { return }
        let keys = try connection.rows(
            "SELECT id, \"from\", \"table\" FROM pragma_foreign_key_list(?)", [.text(schema.entityName)])
        var columnOf: [Int64: (column: String, target: String)] = [:]
        for key in keys {
            if let id = key[0].integerValue { columnOf[id] = (key[1].textValue ?? "?", key[2].textValue ?? "?") }
        }
        var described: [String] = []
        var first: (column: String, target: String)?
        for violation in violations.prefix(5) {
            guard let key = violation[1].integerValue.flatMap({ columnOf[$0] }) else { continue }
            first = first ?? key
            let row = try connection.rows(
                "SELECT \(quote(schema.idName)), \(quote(key.column)) FROM \(schema.table) WHERE rowid = ?",
                [violation[0]]
            ).first
            let id = row?[0].description ?? "?"
            let value = row?[1].description ?? "?"
            described.append("\(schema.entityName) \(id) (\(key.column) = \(value), no such \(key.target))")
        }
        let more = violations.count > described.count ? " and \(violations.count - described.count) more" : ""
        throw PersistenceError(
            .incompatibleSchema,
            "\(schema.entityName) now declares references that \(violations.count) stored row(s) break: "
                + described.joined(separator: "; ") + more + ". Add a Migration that fixes or deletes those rows "
                + "(or make the reference optional with the nullify rule); the file was left untouched.",
            entity: schema.entityName, property: first?.column)
    }
}
