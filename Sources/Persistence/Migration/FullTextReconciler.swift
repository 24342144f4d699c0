/// Creates, updates and removes the FTS5 table and triggers of each entity's full-text index
/// when a store opens.
enum FullTextReconciler {
    static func createSQL(_ schema: EntitySchema) -> String {
        let columns = schema.fullText.map(quote).joined(separator: ", ")
        let content = "'" + schema.entityName.replacingOccurrences(of: "'", with: "''") + "'"
        return "CREATE VIRTUAL TABLE \(quote(schema.fullTextTable)) USING fts5(\(columns), "
            + "content=\(content), content_rowid='rowid', tokenize='unicode61 remove_diacritics 2')"
    }

    static func triggerNames(_ schema: EntitySchema) -> [String] {
        let table = schema.fullTextTable
        return [table + "_insert", table + "_delete", table + "_update"]
    }

    /// The triggers that keep the index equal to the table on every write, raw SQL included.
    static func triggersSQL(_ schema: EntitySchema) -> [String] {
        let fts = quote(schema.fullTextTable)
        let columns = schema.fullText.map(quote).joined(separator: ", ")
        let new = schema.fullText.map { "new." + quote($0) }.joined(separator: ", ")
        let old = schema.fullText.map { "old." + quote($0) }.joined(separator: ", ")
        let insert = "INSERT INTO \(fts) (rowid, \(columns)) VALUES (new.rowid, \(new));"
        let delete = "INSERT INTO \(fts) (\(fts), rowid, \(columns)) VALUES ('delete', old.rowid, \(old));"
        let names = triggerNames(schema).map(quote)
        return [
            "CREATE TRIGGER \(names[0]) AFTER INSERT ON \(schema.table) BEGIN \(insert) END",
            "CREATE TRIGGER \(names[1]) AFTER DELETE ON \(schema.table) BEGIN \(delete) END",
            "CREATE TRIGGER \(names[2]) AFTER UPDATE ON \(schema.table) BEGIN \(delete) \(insert) END",
        ]
    }

    /// The statements that bring the full-text index of `schema` up to date (none when it is).
    static func plan(_ connection: Connection, _ schema: EntitySchema) throws(PersistenceError) -> [String] {
        let name = schema.fullTextTable
        let stored = try connection.scalar(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]
        ).textValue
        let triggers = Set(
            try connection.rows(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?", [.text(schema.entityName)]
            ).compactMap { $0[0].textValue })
        let wanted = schema.fullText.isEmpty ? nil : createSQL(schema)
        if stored == wanted, wanted == nil || triggerNames(schema).allSatisfy(triggers.contains) { return [] }
        var ddl = triggerNames(schema).filter(triggers.contains).map { "DROP TRIGGER \(quote($0))" }
        if stored != nil { ddl.append("DROP TABLE \(quote(name))") }
        guard let wanted else { return ddl }
        try requireFTS5(connection, schema)
        ddl.append(wanted)
        ddl += triggersSQL(schema)
        // Index the rows already stored (nothing to do for a new table, and cheap then).
        ddl.append("INSERT INTO \(quote(name)) (\(quote(name))) VALUES ('rebuild')")
        return ddl
    }

    /// Throws a clear error when the SQLite library has no FTS5.
    static func requireFTS5(_ connection: Connection, _ schema: EntitySchema) throws(PersistenceError) {
        do {
            try connection.execute(
                "CREATE VIRTUAL TABLE temp.fk_fts5_probe USING fts5(x); DROP TABLE temp.fk_fts5_probe")
        } catch {
            throw PersistenceError(
                .cannotOpen,
                "\(schema.entityName) declares a full-text index, but this SQLite library (\(sqliteLibraryVersion)) has "
                    + "no FTS5 module (\(error.message)). Use an SQLite built with FTS5 (SQLITE_ENABLE_FTS5), or remove "
                    + "the index. The file was left untouched.", entity: schema.entityName)
        }
    }
}
