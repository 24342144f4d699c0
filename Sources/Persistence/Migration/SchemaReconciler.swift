import Foundation

/// Compares entities with their tables when a store opens, and plans the safe changes.
///
/// Safe changes (a new table, a new nullable or defaulted column, a new index or unique key)
/// are returned as DDL. A table that holds no rows is made again in the entity's shape when its
/// changes are not safe (there is nothing to lose), unless another table refers to it or something
/// the store does not make again hangs on it (``isEmptyAndAlone(_:_:)``). Anything else throws
/// ``PersistenceError/Code-swift.struct/incompatibleSchema`` before a single byte is written.
enum SchemaReconciler {
    /// The store's file format version, kept in `PRAGMA user_version`.
    ///
    /// Format 2 stores dates as `timeIntervalSinceReferenceDate`, floating-point columns without
    /// a declared type, values without a column type of their own as JSON, and folded-text
    /// columns for case-insensitive indexes; ``FormatMigration`` upgrades format 1 files.
    static let formatVersion: Int64 = 2
    static let migrationsTable = "fk_migrations"

    static func hint(_ entity: String) -> String {
        "Add a Migration (ObjectStore.Configuration.migrations) that changes the \"\(entity)\" table "
            + "with SQL; the store never rewrites or drops data on its own."
    }

    static func incompatible(_ entity: String, _ property: String, _ problem: String) -> PersistenceError {
        PersistenceError(
            .incompatibleSchema, "\(entity).\(property) \(problem). \(hint(entity))", entity: entity,
            property: property)
    }

    static func tableExists(_ connection: Connection, _ name: String) throws(PersistenceError) -> Bool {
        try connection.scalar("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)])
            != .integer(0)
    }

    static func plan(_ connection: Connection, schemas: [EntitySchema]) throws(PersistenceError) -> [String] {
        var ddl: [String] = []
        for schema in schemas {
            if try tableExists(connection, schema.entityName) {
                do throws(PersistenceError) {
                    ddl += try alter(connection, schema)
                } catch {
                    guard error.code == .incompatibleSchema, try isEmptyAndAlone(connection, schema) else {
                        throw error
                    }
                    ddl += ["DROP TABLE \(schema.table)"] + create(schema)
                }
            } else {
                ddl += create(schema)
            }
            ddl += try FullTextReconciler.plan(connection, schema)
            for link in schema.links where try !tableExists(connection, link.table) { ddl += link.createSQL }
        }
        return ddl
    }

    /// Whether `schema`'s table may be made again in the entity's shape: it holds no rows, no other
    /// table's foreign key refers to it, and nothing besides the store's own keys and indexes hangs
    /// on it (no full-text index, old or new, and no index or trigger written by hand, which
    /// dropping the table would take with it). Then a change that is not safe for stored rows is
    /// made by creating the table again.
    static func isEmptyAndAlone(_ connection: Connection, _ schema: EntitySchema) throws(PersistenceError) -> Bool {
        guard schema.fullText.isEmpty, try !tableExists(connection, schema.fullTextTable),
            try connection.scalar("SELECT EXISTS(SELECT 1 FROM \(schema.table))") == .integer(0)
        else { return false }
        // SQLite matches table names without regard to case, and so do these.
        let referring = try connection.scalar(
            "SELECT COUNT(*) FROM sqlite_master AS m, pragma_foreign_key_list(m.name) AS f "
                + "WHERE m.type = 'table' AND m.name != ?1 COLLATE NOCASE AND f.\"table\" = ?1 COLLATE NOCASE",
            [.text(schema.entityName)])
        let handWritten = try connection.scalar(
            "SELECT COUNT(*) FROM sqlite_master WHERE tbl_name = ? COLLATE NOCASE AND type IN ('index', 'trigger') "
                + "AND sql IS NOT NULL AND name NOT LIKE 'fk\\_%' ESCAPE '\\'",
            [.text(schema.entityName)])
        return referring == .integer(0) && handWritten == .integer(0)
    }

    static func columnDefinition(_ column: ColumnSchema, schema: EntitySchema) -> String {
        var definition = quote(column.name)
        if !column.sqlType.isEmpty { definition += " \(column.sqlType)" }
        if !column.isOptional { definition += " NOT NULL" }
        if column.name == schema.idName { definition += " PRIMARY KEY" }
        if let key = schema.foreignKeys.first(where: { $0.column == column.name }) { definition += " " + key.clause }
        return definition
    }

    static func create(_ schema: EntitySchema) -> [String] {
        let columns =
            schema.columns.map { columnDefinition($0, schema: schema) }
            + schema.foldColumns.map { "\(quote($0.name)) TEXT" }
        return ["CREATE TABLE \(schema.table) (\(columns.joined(separator: ", ")))"] + indexes(schema)
            + schema.foldColumns.flatMap { recordFold(schema, $0.name) }
    }

    static func foldKey(_ schema: EntitySchema, _ fold: String) -> String { "fold.\(schema.entityName).\(fold)" }

    /// Records that `fold` holds texts folded by this platform's ``TextFold``.
    static func recordFold(_ schema: EntitySchema, _ fold: String) -> [String] {
        [
            FormatMigration.createMetaTable,
            "INSERT OR REPLACE INTO \(quote(FormatMigration.metaTable)) (key, value) VALUES ("
                + "\(sqlLiteral(.text(foldKey(schema, fold)))), \(sqlLiteral(.text(TextFold.fingerprint))))",
        ]
    }

    /// How each folded-text column of `schema` was last filled, by column.
    static func foldRecords(
        _ connection: Connection, _ schema: EntitySchema
    ) throws(PersistenceError) -> [String: String] {
        guard try tableExists(connection, FormatMigration.metaTable) else { return [:] }
        var records: [String: String] = [:]
        for (_, fold) in schema.foldColumns {
            records[fold] = try connection.scalar(
                "SELECT value FROM \(quote(FormatMigration.metaTable)) WHERE key = ?", [.text(foldKey(schema, fold))]
            ).textValue
        }
        return records
    }

    static func indexes(_ schema: EntitySchema, existing: Set<String> = []) -> [String] {
        var ddl: [String] = []
        for key in schema.uniqueKeys {
            let name = EntitySchema.uniqueIndexName(table: schema.entityName, columns: key)
            if existing.contains(name) { continue }
            ddl.append(
                "CREATE UNIQUE INDEX IF NOT EXISTS \(quote(name)) ON \(schema.table) (\(key.map(quote).joined(separator: ", ")))"
            )
        }
        for index in schema.indexes {
            let name = EntitySchema.indexName(
                table: schema.entityName, columns: index.columns, caseInsensitive: index.caseInsensitive)
            if existing.contains(name) { continue }
            let columns = index.columns.map { name in
                quote((index.caseInsensitive ? schema.foldName(of: name) : nil) ?? name)
            }.joined(separator: ", ")
            ddl.append("CREATE INDEX IF NOT EXISTS \(quote(name)) ON \(schema.table) (\(columns))")
        }
        // Every foreign key is indexed: deletes of its targets and joins through it look rows up by it.
        for key in schema.foreignKeys {
            let name = RelationDeclaration.relationIndexName(table: schema.entityName, column: key.column)
            if existing.contains(name) { continue }
            ddl.append("CREATE INDEX IF NOT EXISTS \(quote(name)) ON \(schema.table) (\(quote(key.column)))")
        }
        return ddl
    }

    static func alter(_ connection: Connection, _ schema: EntitySchema) throws(PersistenceError) -> [String] {
        let entity = schema.entityName
        let info = try connection.rows(
            "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?)", [.text(entity)])
        var existing: [String: (type: String, notNull: Bool, hasDefault: Bool, pk: Bool)] = [:]
        for row in info {
            guard let name = row[0].textValue else { continue }
            existing[name] = (
                (row[1].textValue ?? "").uppercased(), row[2] != .integer(0), row[3] != .null, row[4] != .integer(0)
            )
        }
        var ddl: [String] = []
        for column in schema.columns {
            guard let stored = existing[column.name] else {
                if column.name == schema.idName {
                    throw incompatible(entity, column.name, "is the new identity, but the table has no such column")
                }
                let definition = quote(column.name) + (column.sqlType.isEmpty ? "" : " \(column.sqlType)")
                if column.isOptional {
                    ddl.append("ALTER TABLE \(schema.table) ADD COLUMN \(definition)")
                } else if let value = schema.defaults[column.name] {
                    ddl.append(
                        "ALTER TABLE \(schema.table) ADD COLUMN \(definition) NOT NULL DEFAULT \(sqlLiteral(value))")
                } else {
                    throw incompatible(
                        entity, column.name,
                        "is a new non-optional property without a default, so the stored rows have no value for it. "
                            + "Make it Optional, declare a default in `static var columnDefaults`, or migrate")
                }
                continue
            }
            if stored.type != column.sqlType {
                let needed = column.sqlType.isEmpty ? "no declared type (a floating-point column)" : column.sqlType
                throw incompatible(
                    entity, column.name,
                    "changed type: the table stores it as \(stored.type.isEmpty ? "untyped" : stored.type), "
                        + "the entity (\(column.swiftType)) now needs \(needed)")
            }
            if column.name == schema.idName, !stored.pk {
                throw incompatible(
                    entity, column.name, "is now the identity, but the table's primary key is another column")
            }
            if column.isOptional, stored.notNull {
                throw incompatible(
                    entity, column.name, "became Optional, but its column is NOT NULL and cannot store nil")
            }
            if !column.isOptional, !stored.notNull, !stored.pk {
                let nulls = try connection.scalar(
                    "SELECT EXISTS(SELECT 1 FROM \(schema.table) WHERE \(quote(column.name)) IS NULL)")
                if nulls != .integer(0) {
                    throw incompatible(
                        entity, column.name, "is no longer Optional, but some stored rows have no value for it")
                }
            }
        }
        // Folded-text columns: added and filled when new; refilled when the record of how they
        // were folded is missing or differs (the index was dropped and declared again, or the
        // Unicode tables of the platform changed); emptied, with their indexes dropped, when no
        // longer declared, so nothing reads a column that writes stopped updating.
        let recorded = try foldRecords(connection, schema)
        for (source, fold) in schema.foldColumns {
            let folded = "\(TextFold.functionName)(\(quote(source)))"
            if existing[fold] == nil {
                ddl.append("ALTER TABLE \(schema.table) ADD COLUMN \(quote(fold)) TEXT")
                ddl.append("UPDATE \(schema.table) SET \(quote(fold)) = \(folded)")
            } else if recorded[fold] != TextFold.fingerprint {
                ddl.append(
                    "UPDATE \(schema.table) SET \(quote(fold)) = \(folded) WHERE \(quote(fold)) IS NOT \(folded)")
            } else {
                continue
            }
            ddl += recordFold(schema, fold)
        }
        let declaredFolds = Set(schema.foldColumns.map(\.name))
        for name in existing.keys.sorted()
        where name.lowercased().hasPrefix(EntitySchema.foldPrefix) && !declaredFolds.contains(name) {
            ddl.append("UPDATE \(schema.table) SET \(quote(name)) = NULL")
            ddl.append(
                "DELETE FROM \(quote(FormatMigration.metaTable)) WHERE key = \(sqlLiteral(.text(foldKey(schema, name))))"
            )
        }
        let declaredIndexes = Set(
            schema.indexes.map {
                EntitySchema.indexName(table: entity, columns: $0.columns, caseInsensitive: $0.caseInsensitive)
            })
        for row in try connection.rows(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name LIKE 'fk\\_index\\_%' ESCAPE '\\'",
            [.text(entity)])
        {
            guard let name = row[0].textValue, !declaredIndexes.contains(name) else { continue }
            ddl.append("DROP INDEX \(quote(name))")
        }
        let wanted = Set(schema.names).union(schema.foldColumns.map(\.name))
        for (name, stored) in existing.sorted(by: { $0.key < $1.key }) where !wanted.contains(name) {
            if stored.pk {
                throw incompatible(entity, name, "was the identity and is no longer stored")
            }
            if stored.notNull, !stored.hasDefault {
                throw incompatible(
                    entity, name,
                    "was removed, but its column is NOT NULL without a default, so new rows could not be inserted")
            }
        }
        // Unique keys: a removed one is incompatible, a new one is created (and checked) in the open's transaction.
        let declared = Set(schema.uniqueKeys.map { EntitySchema.uniqueIndexName(table: entity, columns: $0) })
        let storedKeys = try connection.rows(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name LIKE 'fk\\_unique\\_%' ESCAPE '\\'",
            [.text(entity)])
        for row in storedKeys {
            guard let name = row[0].textValue, !declared.contains(name) else { continue }
            let columns = try connection.rows(
                "SELECT name FROM pragma_index_info(?) ORDER BY seqno", [.text(name)]
            ).compactMap { $0[0].textValue }
            let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            throw PersistenceError(
                .incompatibleSchema,
                "\(entity) no longer declares the unique key on (\(columns.joined(separator: ", "))) that the store "
                    + "enforces. Dropping it changes what the store accepts, so do it explicitly: add a Migration that "
                    + "calls `try tx.dropUniqueKey([\(list)], from: \(entity).self)`.", entity: entity,
                property: columns.joined(separator: ", "))
        }
        let indexNames = try connection.rows(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?", [.text(entity)]
        ).compactMap { $0[0].textValue }
        return ddl + indexes(schema, existing: Set(indexNames))
    }
}
