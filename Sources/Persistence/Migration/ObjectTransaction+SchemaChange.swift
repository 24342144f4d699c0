#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

extension ObjectTransaction {
    /// Renames a stored property of an entity's table, inside a ``Migration``: the column keeps its
    /// values, and the store's own bookkeeping follows it.
    ///
    /// ```swift
    /// Migration("rename-owner-name") { tx in
    ///     try tx.renameProperty("ownerName", to: "photographerName", in: Photo.self)
    /// }
    /// ```
    ///
    /// The folded copy of a case-insensitively indexed text moves with it (no refold), and so does
    /// the record of how it was folded; the store's indexes over the column are made again under
    /// their new names when the store opens (a unique key is checked again then), references and
    /// indexes of your own follow SQLite's `RENAME COLUMN`, and a full-text index over it is
    /// rebuilt. The entity describes the table after the migration: declare the property under its
    /// new name.
    ///
    /// - Parameters:
    ///   - name: the property's stored name before the migration.
    ///   - newName: its name after the migration.
    ///   - entity: the entity whose table holds it.
    /// - Throws: ``PersistenceError/Code-swift.struct/misuse`` outside a migration, or when `newName` is
    ///   already a column of the table or a name the store keeps for itself;
    ///   ``PersistenceError/Code-swift.struct/unknownProperty`` naming the entity and the property when the
    ///   table has no such column. Throwing rolls the whole migration back.
    public func renameProperty<E: StoredEntity>(
        _ name: String, to newName: String, in entity: E.Type
    ) throws(PersistenceError) {
        let columns = try schemaChangeColumns(E.self, name, "rename")
        guard !columns.contains(newName) else {
            throw PersistenceError(
                .misuse,
                "\(E.entityName) already stores '\(newName)', so '\(name)' cannot be renamed to it. Drop or rename "
                    + "'\(newName)' first.", entity: E.entityName, property: newName)
        }
        guard !newName.lowercased().hasPrefix("fk_"), !newName.isEmpty else {
            throw PersistenceError(
                .misuse,
                "'\(newName)' cannot name a property of \(E.entityName): names beginning with fk_ are the store's own.",
                entity: E.entityName, property: newName)
        }
        let oldFold = EntitySchema.foldPrefix + name
        let newFold = EntitySchema.foldPrefix + newName
        try dropStoreObjects(E.self, over: [name, oldFold])
        try schemaChange(E.self, name) { () throws(PersistenceError) in
            try connection.execute(
                "ALTER TABLE \(quote(E.entityName)) RENAME COLUMN \(quote(name)) TO \(quote(newName))")
            if columns.contains(oldFold) {
                try connection.execute(
                    "ALTER TABLE \(quote(E.entityName)) RENAME COLUMN \(quote(oldFold)) TO \(quote(newFold))")
                try renameFoldRecord(E.self, from: oldFold, to: newFold)
            }
        }
    }

    /// Drops a stored property of an entity's table, inside a ``Migration``, with everything of the
    /// store's that belongs to it.
    ///
    /// ```swift
    /// Migration("drop-owner-name") { tx in
    ///     try tx.dropProperty("ownerName", from: Photo.self)
    /// }
    /// ```
    ///
    /// The indexes over the column (the store's, a unique key, and your own), the folded copy of a
    /// case-insensitively indexed text and its record go with it; a full-text index over it is
    /// rebuilt without it when the store opens. The values are gone: copy what you need before.
    /// A property the entity no longer declares may also just stay in the table (the store ignores
    /// it when it is optional or has a default); drop it to reclaim the space or to free its name.
    ///
    /// - Parameters:
    ///   - name: the property's stored name.
    ///   - entity: the entity whose table holds it.
    /// - Throws: ``PersistenceError/Code-swift.struct/misuse`` outside a migration, for the identity, for
    ///   a reference with a foreign key (remove the relation first; the store rebuilds the table without
    ///   its key when it opens) or with an SQLite older than 3.35;
    ///   ``PersistenceError/Code-swift.struct/unknownProperty`` naming the entity and the property when the
    ///   table has no such column. Throwing rolls the whole migration back.
    public func dropProperty<E: StoredEntity>(_ name: String, from entity: E.Type) throws(PersistenceError) {
        let columns = try schemaChangeColumns(E.self, name, "drop")
        guard sqlite3_libversion_number() >= 3_035_000 else {
            throw PersistenceError(
                .misuse,
                "Dropping \(E.entityName).\(name) needs SQLite 3.35 or later (DROP COLUMN); this one is "
                    + "\(sqliteLibraryVersion). Leave the column in place: the store ignores a column the entity "
                    + "does not declare when it is optional or has a default.", entity: E.entityName, property: name)
        }
        let info = try connection.rows(
            "SELECT pk FROM pragma_table_info(?) WHERE name = ?",
            [
                .text(E.entityName), .text(name),
            ])
        if info.first?.first.map({ $0 != .integer(0) }) == true {
            throw PersistenceError(
                .misuse, "\(E.entityName).\(name) is the table's identity and cannot be dropped.",
                entity: E.entityName, property: name)
        }
        let keys = try connection.rows(
            "SELECT \"table\" FROM pragma_foreign_key_list(?) WHERE \"from\" = ?",
            [
                .text(E.entityName), .text(name),
            ])
        if let target = keys.first?.first?.textValue {
            throw PersistenceError(
                .misuse,
                "\(E.entityName).\(name) is a reference to \(target) with a foreign key. Remove the relation from "
                    + "\(E.entityName) first (the store rebuilds the table without the key when it opens), then drop "
                    + "the property in a later migration.", entity: E.entityName, property: name)
        }
        let fold = EntitySchema.foldPrefix + name
        try dropStoreObjects(E.self, over: [name, fold], includingYours: true)
        try schemaChange(E.self, name) { () throws(PersistenceError) in
            if columns.contains(fold) {
                try connection.execute("ALTER TABLE \(quote(E.entityName)) DROP COLUMN \(quote(fold))")
                try renameFoldRecord(E.self, from: fold, to: nil)
            }
            try connection.execute("ALTER TABLE \(quote(E.entityName)) DROP COLUMN \(quote(name))")
        }
    }

    /// Drops a unique key the entity no longer declares, inside a ``Migration``: the store then
    /// accepts rows that share those values.
    ///
    /// The store refuses to open while a table keeps a unique key its entity no longer declares:
    /// dropping one changes what the store accepts, so it is done explicitly, by this call.
    ///
    /// ```swift
    /// Migration("isbn-no-longer-unique") { tx in
    ///     try tx.dropUniqueKey(["isbn"], from: Book.self)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - properties: the key's properties, in the order the key declared them.
    ///   - entity: the entity whose table holds the key.
    /// - Throws: ``PersistenceError/Code-swift.struct/misuse`` outside a migration;
    ///   ``PersistenceError/Code-swift.struct/unknownProperty`` naming the entity and the properties when the
    ///   table has no such key.
    public func dropUniqueKey<E: StoredEntity>(_ properties: [String], from entity: E.Type) throws(PersistenceError) {
        try checkMigration(E.self, "drop a unique key of")
        let name = EntitySchema.uniqueIndexName(table: E.entityName, columns: properties)
        let exists = try connection.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? AND tbl_name = ?",
            [
                .text(name), .text(E.entityName),
            ])
        guard exists != .integer(0) else {
            throw PersistenceError(
                .unknownProperty,
                "\(E.entityName) has no unique key on (\(properties.joined(separator: ", "))) to drop.",
                entity: E.entityName, property: properties.joined(separator: ", "))
        }
        try connection.execute("DROP INDEX \(quote(name))")
        touchedEverything = true
    }

    /// Throws unless this transaction runs a migration and `E`'s table stores `name`; returns the
    /// table's columns.
    private func schemaChangeColumns<E: StoredEntity>(
        _ type: E.Type, _ name: String, _ use: String
    ) throws(PersistenceError) -> Set<String> {
        try checkMigration(E.self, "\(use) a property of")
        let columns = Set(
            try connection.rows("SELECT name FROM pragma_table_info(?)", [.text(E.entityName)]).compactMap {
                $0.first?.textValue
            })
        guard columns.contains(name), !name.lowercased().hasPrefix("fk_") else {
            throw PersistenceError(
                .unknownProperty,
                "\(E.entityName) stores no property '\(name)' to \(use). Its table's columns are: "
                    + columns.filter { !$0.lowercased().hasPrefix("fk_") }.sorted().joined(separator: ", ") + ".",
                entity: E.entityName, property: name)
        }
        return columns
    }

    private func checkMigration<E: StoredEntity>(_ type: E.Type, _ use: String) throws(PersistenceError) {
        try checkWritable("A schema change")
        guard isMigration else {
            throw PersistenceError(
                .misuse,
                "A schema change can \(use) \(E.entityName) only inside a Migration, which runs once per store file "
                    + "before the store compares its entities with its tables.", entity: E.entityName)
        }
    }

    /// Runs `change`, reporting an SQLite refusal as an error naming the entity and the property.
    private func schemaChange<E: StoredEntity>(
        _ type: E.Type, _ name: String, _ change: () throws(PersistenceError) -> Void
    ) throws(PersistenceError) {
        do {
            try change()
        } catch  where error.code == .sqlite {
            throw PersistenceError(
                .misuse,
                "SQLite refused to change \(E.entityName).\(name): \(error.message). A view or trigger of your own "
                    + "that uses it must be dropped first.", entity: E.entityName, property: name,
                sqliteCode: error.sqliteCode)
        }
        touchedEverything = true
    }

    /// Drops the indexes and triggers over `columns` of `E`'s table that the store makes again
    /// when it opens (under their current names): its indexes and unique keys, and its full-text
    /// triggers. With `includingYours`, indexes of your own over them go too.
    private func dropStoreObjects<E: StoredEntity>(
        _ type: E.Type, over columns: [String], includingYours: Bool = false
    ) throws(PersistenceError) {
        let indexes = try connection.rows(
            "SELECT DISTINCT l.name FROM pragma_index_list(?) AS l, pragma_index_info(l.name) AS i "
                + "WHERE i.name IN (\(Array(repeating: "?", count: columns.count).joined(separator: ", "))) "
                + "AND l.origin = 'c'", [.text(E.entityName)] + columns.map { .text($0) })
        for row in indexes {
            guard let index = row.first?.textValue else { continue }
            guard includingYours || index.hasPrefix("fk_") else { continue }
            try connection.execute("DROP INDEX \(quote(index))")
        }
        let triggers = try connection.rows(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? AND name LIKE 'fk\\_fts%' ESCAPE '\\'",
            [.text(E.entityName)])
        for row in triggers {
            if let trigger = row.first?.textValue { try connection.execute("DROP TRIGGER \(quote(trigger))") }
        }
    }

    /// Moves the record of how the folded column `old` was filled to `new`, or drops it.
    private func renameFoldRecord<E: StoredEntity>(
        _ type: E.Type, from old: String, to new: String?
    ) throws(PersistenceError) {
        guard try SchemaReconciler.tableExists(connection, FormatMigration.metaTable) else { return }
        let table = quote(FormatMigration.metaTable)
        let oldKey = DatabaseValue.text("fold.\(E.entityName).\(old)")
        if let new {
            _ = try connection.rows(
                "UPDATE \(table) SET key = ? WHERE key = ?", [.text("fold.\(E.entityName).\(new)"), oldKey])
        } else {
            _ = try connection.rows("DELETE FROM \(table) WHERE key = ?", [oldKey])
        }
    }
}
