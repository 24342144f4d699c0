import Foundation
import Persistence

/// The account a store belongs to: one row, written when the account first signs in, checked at
/// every later sign-in.
struct SyncAccountStamp: StoredEntity {
    /// The account's identity.
    var id: String

    static let entityName = "SyncAccountStamp"
}

/// The account's rows as a sign-out leaves them (``SignOut/keepUnsentWrites``).
enum AccountData {
    /// The collections the store's sync tables hold rows of (its outbox and its cursors).
    static func collectionNames(in tx: ObjectTransaction) throws -> Set<String> {
        var names = try OutboxTable.collections(in: tx)
        for checkpoint in try tx.fetch(Query<SyncCheckpoint>()) { names.insert(checkpoint.collection ?? checkpoint.id) }
        return names
    }

    /// A synced collection's rows as a sign-out keeping the unsent writes sees them.
    struct Kept {
        /// The collection's name.
        var collection: String
        /// Its entity's table.
        var table: String
        /// The table's key column (the entity's identity).
        var key: String
        /// The identities of the rows that stay whatever refers to them: the rows the outbox
        /// writes, the rows ``RemoteCollection/retaining`` keeps, and the rows holding a value of
        /// a field only this device has (``RemoteCollection/keeping``).
        var identities: [DatabaseValue]
    }

    /// Removes the synced rows that no write in the outbox writes, that the collection does not
    /// otherwise keep, and that no row left refers to (a link of a many-to-many relation the
    /// row's entity declares, in `linkTables`, goes with its row; a link another entity declares
    /// keeps it, as any reference does). Returns the rows removed. The members then start their
    /// pulls over (``AccountMember/restartPulls(in:)``), in the same transaction.
    static func forgetSyncedRows(_ collections: [Kept], linkTables: Set<String>, in tx: ObjectTransaction) throws -> Int
    {
        tx.allowEveryGuardedWrite()
        try tx.execute("CREATE TEMP TABLE IF NOT EXISTS fetchkit_kept(tbl TEXT NOT NULL, value)")
        try tx.execute("DELETE FROM temp.fetchkit_kept")
        try tx.execute("CREATE TEMP TABLE IF NOT EXISTS fetchkit_gone(value)")
        for collection in collections {
            for identity in collection.identities {
                try tx.execute("INSERT INTO temp.fetchkit_kept VALUES (?, ?)", [.text(collection.table), identity])
            }
        }
        // Who refers to each table: (referring table, its column, the referred column).
        var referrers: [String: [(table: String, column: String, key: String?)]] = [:]
        let tables = try tx.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        for row in tables {
            guard let table = row[0].textValue else { continue }
            for key in try tx.rows(#"SELECT "table", "from", "to" FROM pragma_foreign_key_list(?)"#, [.text(table)]) {
                guard let parent = key[0].textValue, let column = key[1].textValue else { continue }
                // A link's `source` is the row that declares the relation: the link is part of it.
                if linkTables.contains(table), column == "source" { continue }
                referrers[parent, default: []].append((table, column, key[2].textValue))
            }
        }
        var removed = 0
        // Children first, without knowing which are: a pass removes what nothing left refers to,
        // until a pass removes nothing.
        while true {
            var pass = 0
            for collection in collections {
                let key = collection.key
                let table = quote(collection.table)
                var condition = "\(quote(key)) NOT IN (SELECT value FROM temp.fetchkit_kept WHERE tbl = ?)"
                for referrer in referrers[collection.table] ?? [] {
                    condition +=
                        " AND NOT EXISTS (SELECT 1 FROM \(quote(referrer.table)) AS r WHERE r.\(quote(referrer.column)) = "
                        + "\(table).\(quote(referrer.key ?? key)))"
                }
                // The rows this pass removes, noted first (no `RETURNING`: older SQLites lack it).
                try tx.execute("DELETE FROM temp.fetchkit_gone")
                try tx.execute(
                    "INSERT INTO temp.fetchkit_gone SELECT \(quote(key)) FROM \(table) WHERE \(condition)",
                    [.text(collection.table)])
                let gone = try tx.rows("SELECT count(*) FROM temp.fetchkit_gone").first?[0].integerValue ?? 0
                guard gone > 0 else { continue }
                try tx.execute("DELETE FROM \(table) WHERE \(quote(key)) IN (SELECT value FROM temp.fetchkit_gone)")
                // The scopes that listed a removed row forget it.
                if try tx.exists(Query<SyncScopeMember>(where: SyncScopeMember.collection == collection.collection)) {
                    let texts = try tx.rows("SELECT value FROM temp.fetchkit_gone").map { $0[0].identityText }
                    try inChunks(texts) { chunk in
                        _ = try tx.delete(
                            Query<SyncScopeMember>(
                                where: SyncScopeMember.collection == collection.collection
                                    && SyncScopeMember.recordID.isIn(chunk)))
                    }
                }
                pass += Int(gone)
            }
            removed += pass
            if pass == 0 { break }
        }
        try tx.execute("DROP TABLE temp.fetchkit_kept")
        try tx.execute("DROP TABLE temp.fetchkit_gone")
        return removed
    }
}
