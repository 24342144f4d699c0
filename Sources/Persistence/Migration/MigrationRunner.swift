/// Runs the named migrations, then reconciles entities with tables, when a store opens.
enum MigrationRunner {
    static func run(
        _ connection: Connection, schemas: [EntitySchema], configuration: ObjectStore.Configuration
    ) throws(PersistenceError) {
        let migrations = configuration.migrations
        var seen: Set<String> = []
        for migration in migrations where !seen.insert(migration.name).inserted {
            throw PersistenceError(.misuse, "Two migrations are named \"\(migration.name)\"; names must be unique.")
        }
        let table = quote(SchemaReconciler.migrationsTable)
        // Upgrading a format 1 file rebuilds tables (DROP TABLE): with foreign keys on, SQLite
        // would delete or refuse rows of other tables that reference them. They are off for that
        // transaction (the pragma has no effect inside one) and checked before it commits.
        let upgrading = (try connection.scalar("PRAGMA user_version").integerValue ?? 0) == 1
        // Giving an existing table new foreign keys rebuilds it too (see `RelationMigration`).
        var rebuilding = false
        for schema in schemas where try RelationMigration.needsRebuild(connection, schema) { rebuilding = true }
        let keysOff = upgrading || rebuilding
        if keysOff { try connection.execute("PRAGMA foreign_keys = OFF") }
        defer { if keysOff { try? connection.execute("PRAGMA foreign_keys = ON") } }
        // One transaction for everything the open changes: when any step fails (a newer file, an
        // incompatible entity, a failing migration) it rolls back and the file keeps every byte.
        try transaction(connection) { () throws(PersistenceError) in
            let version = try connection.scalar("PRAGMA user_version").integerValue ?? 0
            try StoreCore.checkVersion(version, connection: connection)
            let fresh = try isFresh(connection)
            var wroteRows = false
            if !fresh {
                let applied = try appliedMigrations(connection)
                if let unknown = applied.first(where: { !seen.contains($0) }) {
                    throw PersistenceError(
                        .newerSchema,
                        "The store at \(connection.path) records the migration \"\(unknown)\", which this program does "
                            + "not know: it was written by a newer version. Update the program; the file was left untouched."
                    )
                }
                if version == 1 {
                    try FormatMigration.upgradeFormat1(connection, schemas: schemas)
                    wroteRows = true
                }
                for migration in migrations where !applied.contains(migration.name) {
                    try connection.execute(
                        "CREATE TABLE IF NOT EXISTS \(table) (name TEXT NOT NULL PRIMARY KEY, applied REAL NOT NULL)")
                    let tx = ObjectTransaction(connection: connection, writable: true)
                    tx.refreshesFolds = false
                    tx.isMigration = true
                    defer { tx.isOpen = false }
                    do {
                        try migration.body(tx)
                    } catch {
                        let cause = error as? PersistenceError
                        throw PersistenceError(
                            .migrationFailed,
                            "The migration \"\(migration.name)\" failed: \(error). Nothing was changed and the store "
                                + "was not opened; fix the migration and open it again.", entity: cause?.entity,
                            property: cause?.property)
                    }
                    let insert = try connection.prepare(
                        "INSERT INTO \(table) (name, applied) VALUES (?, julianday('now'))")
                    try insert.bind([.text(migration.name)])
                    try insert.run()
                    wroteRows = true
                }
            }
            let ddl = try SchemaReconciler.plan(connection, schemas: schemas)
            for statement in ddl { try connection.execute(statement) }
            for schema in schemas where try RelationMigration.needsRebuild(connection, schema) {
                try RelationMigration.rebuild(connection, schema)
            }
            // Migrations write with raw SQL: bring the folded-text columns up to date once.
            if wroteRows { try connection.refreshFolds() }
            if fresh, !migrations.isEmpty {
                try connection.execute(
                    "CREATE TABLE IF NOT EXISTS \(table) (name TEXT NOT NULL PRIMARY KEY, applied REAL NOT NULL)")
                let insert = try connection.prepare(
                    "INSERT OR IGNORE INTO \(table) (name, applied) VALUES (?, julianday('now'))")
                for migration in migrations {
                    insert.reset()
                    try insert.bind([.text(migration.name)])
                    try insert.run()
                }
            }
            if upgrading, let violation = try connection.rows("PRAGMA foreign_key_check").first {
                throw PersistenceError(
                    .migrationFailed,
                    "Upgrading the store at \(connection.path) from format 1 would break a foreign key "
                        + "(\(violation.map(\.description).joined(separator: ", "))); nothing was changed.")
            }
            // A format 1 file stays version 1 until every table in it was upgraded (an open
            // upgrades the tables of the entities it is given).
            let complete = version == 1 ? try FormatMigration.finish(connection, schemas: schemas) : true
            if version != SchemaReconciler.formatVersion, complete {
                try connection.execute("PRAGMA user_version = \(SchemaReconciler.formatVersion)")
            }
        }
    }

    /// A file with no tables and no format version: everything is created from the entities.
    static func isFresh(_ connection: Connection) throws(PersistenceError) -> Bool {
        let version = try connection.scalar("PRAGMA user_version").integerValue ?? 0
        let tables = try connection.scalar("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'")
        return version == 0 && tables == .integer(0)
    }

    static func appliedMigrations(_ connection: Connection) throws(PersistenceError) -> Set<String> {
        guard try SchemaReconciler.tableExists(connection, SchemaReconciler.migrationsTable) else { return [] }
        let rows = try connection.rows("SELECT name FROM \(quote(SchemaReconciler.migrationsTable))")
        return Set(rows.compactMap { $0[0].textValue })
    }

    static func transaction(
        _ connection: Connection, _ body: () throws(PersistenceError) -> Void
    ) throws(PersistenceError) {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            try body()
            try connection.execute("COMMIT")
        } catch {
            if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
            throw error
        }
    }
}
