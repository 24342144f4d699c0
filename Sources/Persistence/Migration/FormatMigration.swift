import Foundation

/// Upgrades a file written by store format 1 to format 2, inside the open's transaction.
///
/// Format 1 kept dates as seconds since 1970 (rounding their low bits away), doubles in `REAL`
/// columns (which turn `-0.0` into `0`), single-value types as the primitive their default
/// sample encoded to, and `COLLATE NOCASE` indexes. Format 2 reads none of these the old way, so
/// each table whose columns differ is rebuilt: the same rows and row ids, dates converted with the
/// exact arithmetic format 1 used to read them, floating-point columns without a declared type,
/// single-value columns turned into the JSON format 2 writes. Every value reads back as format 1
/// read it.
enum FormatMigration {
    /// Seconds from 1970-01-01 to 2001-01-01, the difference `Date(timeIntervalSince1970:)` subtracts.
    static let referenceOffset = "978307200.0"

    /// The table recording which tables of a format 1 file hold format 2 values.
    static let metaTable = "fk_meta"
    static let createMetaTable =
        "CREATE TABLE IF NOT EXISTS \(quote(metaTable)) (key TEXT NOT NULL PRIMARY KEY, value TEXT NOT NULL)"

    /// Upgrades the tables of `schemas` that are still in format 1. Only the entities passed to
    /// an open are known, so each upgraded table is recorded; the file's version becomes 2 once
    /// every table is (see ``finish(_:schemas:)``).
    static func upgradeFormat1(_ connection: Connection, schemas: [EntitySchema]) throws(PersistenceError) {
        try connection.execute(createMetaTable)
        for schema in schemas where try SchemaReconciler.tableExists(connection, schema.entityName) {
            guard try !isUpgraded(connection, schema.entityName) else { continue }
            try upgrade(connection, schema)
            try markUpgraded(connection, schema.entityName)
        }
    }

    static func isUpgraded(_ connection: Connection, _ table: String) throws(PersistenceError) -> Bool {
        try connection.scalar(
            "SELECT COUNT(*) FROM \(quote(metaTable)) WHERE key = ?", [.text("format." + table)]) != .integer(0)
    }

    static func markUpgraded(_ connection: Connection, _ table: String) throws(PersistenceError) {
        let insert = try connection.prepare("INSERT OR REPLACE INTO \(quote(metaTable)) (key, value) VALUES (?, '2')")
        try insert.bind([.text("format." + table)])
        try insert.run()
    }

    /// After the open's schema changes: records the tables it made (they hold format 2 values) and
    /// tells whether every table of the file is in format 2 now.
    static func finish(_ connection: Connection, schemas: [EntitySchema]) throws(PersistenceError) -> Bool {
        for schema in schemas where try !isUpgraded(connection, schema.entityName) {
            try markUpgraded(connection, schema.entityName)
        }
        let left = try connection.scalar(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
                + "AND name NOT LIKE 'fk\\_%' ESCAPE '\\' AND name NOT IN (SELECT substr(key, 8) FROM \(quote(metaTable)) "
                + "WHERE key LIKE 'format.%')")
        return left == .integer(0)
    }

    private struct StoredColumn {
        let name: String
        let type: String
        let notNull: Bool
        let defaultValue: String?
        let primaryKey: Bool
    }

    private static func upgrade(_ connection: Connection, _ schema: EntitySchema) throws(PersistenceError) {
        let info = try connection.rows(
            "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid",
            [.text(schema.entityName)])
        let stored = info.map { row in
            StoredColumn(
                name: row[0].textValue ?? "", type: row[1].textValue ?? "", notNull: row[2] != .integer(0),
                defaultValue: row[3].textValue, primaryKey: row[4] != .integer(0))
        }
        var definitions: [String] = []
        var selections: [String] = []
        var toJSON: [(name: String, from: SingleValueCapture.Captured)] = []
        var changed = false
        for column in stored {
            let entityColumn = schema.indexByName[column.name].map { schema.columns[$0] }
            var type = column.type
            var selection = quote(column.name)
            var defaultValue = column.defaultValue
            let wasReal = column.type.uppercased() == "REAL" || column.type.isEmpty
            if let entityColumn {
                switch entityColumn.legacy {
                case .date1970 where wasReal:
                    selection = "\(quote(column.name)) - \(referenceOffset)"
                    // A numeric default moves with the dates; any other default (none is written by
                    // the store) is kept as it was.
                    if let seconds = defaultValue.flatMap(Double.init) {
                        defaultValue = sqlLiteral(.real(seconds - 978_307_200.0))
                    }
                    type = entityColumn.sqlType
                case .primitive(let captured) where entityColumn.kind == .json:
                    toJSON.append((column.name, captured))
                    type = entityColumn.sqlType
                case .json where entityColumn.isRaw && entityColumn.kind != .json:
                    // An optional raw enum format 1 could not sample: it kept the raw value as JSON.
                    selection = "json_extract(\(quote(column.name)), '$')"
                    type = entityColumn.sqlType
                default:
                    // Only a floating-point property leaves its REAL column (which lost -0.0); a
                    // property whose type changed keeps its column, and the open reports it.
                    if wasReal, entityColumn.storage == .real { type = entityColumn.sqlType }
                }
            }
            if type != column.type || selection != quote(column.name) { changed = true }
            var definition = quote(column.name)
            if !type.isEmpty { definition += " \(type)" }
            if column.notNull { definition += " NOT NULL" }
            if let defaultValue { definition += " DEFAULT \(defaultValue)" }
            if column.primaryKey { definition += " PRIMARY KEY" }
            definitions.append(definition)
            selections.append(selection)
        }
        let table = schema.table
        let oldIndexes = try connection.rows(
            "SELECT name, sql FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL",
            [.text(schema.entityName)])
        if changed || !toJSON.isEmpty {
            let temporary = quote("fk_rebuild_" + schema.entityName)
            let names = stored.map { quote($0.name) }.joined(separator: ", ")
            try connection.execute("PRAGMA legacy_alter_table = ON")
            defer { try? connection.execute("PRAGMA legacy_alter_table = OFF") }
            try connection.execute("CREATE TABLE \(temporary) (\(definitions.joined(separator: ", ")))")
            try connection.execute(
                "INSERT INTO \(temporary) (rowid, \(names)) SELECT rowid, \(selections.joined(separator: ", ")) FROM \(table)"
            )
            // Read the old values from the old table: the new TEXT column has already turned 1 into '1'.
            for (name, captured) in toJSON {
                try convertToJSON(connection, from: table, into: temporary, column: name, captured: captured)
            }
            try connection.execute("DROP TABLE \(table)")
            try connection.execute("ALTER TABLE \(temporary) RENAME TO \(table)")
            for row in oldIndexes {
                guard let name = row[0].textValue, let sql = row[1].textValue, !name.hasSuffix("_nocase") else {
                    continue
                }
                try connection.execute(sql)
            }
        } else {
            for row in oldIndexes {
                guard let name = row[0].textValue, name.hasSuffix("_nocase") else { continue }
                try connection.execute("DROP INDEX \(quote(name))")
            }
        }
    }

    /// Rewrites a single-value column format 1 kept as a primitive into the JSON format 2 reads.
    private static func convertToJSON(
        _ connection: Connection, from table: String, into rebuilt: String, column: String,
        captured: SingleValueCapture.Captured
    ) throws(PersistenceError) {
        let rows = try connection.rows(
            "SELECT rowid, \(quote(column)) FROM \(table) WHERE \(quote(column)) IS NOT NULL")
        let update = try connection.prepare("UPDATE \(rebuilt) SET \(quote(column)) = ? WHERE rowid = ?")
        let encoder = StoreJSON.makeEncoder()
        for row in rows {
            let json: String
            do {
                switch (row[1], captured) {
                case (.integer(let value), .bool): json = value == 0 ? "false" : "true"
                case (.integer(let value), _): json = String(value)
                case (.real(let value), .date1970):
                    json = String(decoding: try encoder.encode(value - 978_307_200.0), as: UTF8.self)
                case (.real(let value), _): json = String(decoding: try encoder.encode(value), as: UTF8.self)
                case (.text(let value), _): json = String(decoding: try encoder.encode(value), as: UTF8.self)
                case (.blob(let value), _): json = String(decoding: try encoder.encode(value), as: UTF8.self)
                case (.null, _): continue
                }
            } catch {
                throw PersistenceError(
                    .migrationFailed,
                    "Upgrading \(table).\(column) from store format 1 failed: \(row[1]) has no JSON form (\(error)).")
            }
            update.reset()
            try update.bind([.text(json), row[0]])
            try update.run()
        }
    }
}

extension Connection {
    /// Recomputes every folded-text column that differs from its source (after raw SQL wrote rows).
    func refreshFolds() throws(PersistenceError) {
        for schema in schemas.values {
            for (source, fold) in schema.foldColumns {
                let folded = "\(TextFold.functionName)(\(quote(source)))"
                try execute(
                    "UPDATE \(schema.table) SET \(quote(fold)) = \(folded) WHERE \(quote(fold)) IS NOT \(folded)")
            }
        }
    }
}
