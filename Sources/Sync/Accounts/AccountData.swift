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
    /// The folder name of an account: every byte but `a-z`, `0-9`, `_` and `-` as `%XX`, so that
    /// no two identities share a folder, even on a file system that ignores case.
    static func folderName(of id: String) -> String {
        var name = ""
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"),
                UInt8(ascii: "-"):
                name.append(Character(Unicode.Scalar(byte)))
            default:
                name += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return name
    }

    /// The identity of a folder ``folderName(of:)`` named; `nil` for any other name.
    static func id(ofFolder name: String) -> String? {
        var bytes: [UInt8] = []
        var rest = Substring(name)
        while let first = rest.first {
            if first == "%" {
                guard rest.count >= 3, let byte = UInt8(rest.dropFirst().prefix(2), radix: 16) else { return nil }
                bytes.append(byte)
                rest = rest.dropFirst(3)
            } else {
                guard let ascii = first.asciiValue else { return nil }
                bytes.append(ascii)
                rest = rest.dropFirst()
            }
        }
        guard !bytes.isEmpty, let id = String(validating: bytes, as: UTF8.self), folderName(of: id) == name else {
            return nil
        }
        return id
    }

    /// The collections the store's sync tables hold rows of (its outbox and its cursors).
    static func collectionNames(in tx: ObjectTransaction) throws -> Set<String> {
        var names = try OutboxTable.collections(in: tx)
        for checkpoint in try tx.fetch(Query<SyncCheckpoint>()) { names.insert(checkpoint.collection ?? checkpoint.id) }
        return names
    }

    /// Removes the synced rows of `collections` (collection name and entity table) that no
    /// write in the outbox writes and that no row left refers to (a link of a many-to-many
    /// relation, in `linkTables`, goes with its row), and every cursor: the next pull of each
    /// collection reads it whole. Returns the rows removed.
    static func forgetSyncedRows(
        of collections: [(name: String, table: String)], linkTables: Set<String>, in tx: ObjectTransaction
    ) throws -> Int {
        tx.allowEveryGuardedWrite()
        try tx.execute("CREATE TEMP TABLE IF NOT EXISTS fetchkit_kept(tbl TEXT NOT NULL, value)")
        try tx.execute("DELETE FROM temp.fetchkit_kept")
        for collection in collections {
            for record in try OutboxTable.recordIDs(in: collection.name, tx) {
                // The outbox keeps an identity as text; the row's key may be an integer.
                try tx.execute(
                    "INSERT INTO temp.fetchkit_kept VALUES (?, ?)", [.text(collection.table), .text(record)])
                if let integer = Int64(record) {
                    try tx.execute(
                        "INSERT INTO temp.fetchkit_kept VALUES (?, ?)", [.text(collection.table), .integer(integer)])
                }
            }
        }
        // Who refers to each table: (referring table, its column, the referred column).
        var referrers: [String: [(table: String, column: String, key: String?)]] = [:]
        let tables = try tx.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        for row in tables {
            guard let table = row[0].textValue, !linkTables.contains(table) else { continue }
            for key in try tx.rows(#"SELECT "table", "from", "to" FROM pragma_foreign_key_list(?)"#, [.text(table)]) {
                guard let parent = key[0].textValue, let column = key[1].textValue else { continue }
                referrers[parent, default: []].append((table, column, key[2].textValue))
            }
        }
        var removed = 0
        // Children first, without knowing which are: a pass removes what nothing left refers to,
        // until a pass removes nothing.
        while true {
            var pass = 0
            for collection in collections {
                guard
                    let key = try tx.rows(
                        "SELECT name FROM pragma_table_info(?) WHERE pk = 1", [.text(collection.table)]
                    ).first?[0].textValue
                else { continue }
                let table = quoted(collection.table)
                var sql =
                    "DELETE FROM \(table) WHERE \(quoted(key)) NOT IN (SELECT value FROM temp.fetchkit_kept WHERE tbl = ?)"
                for referrer in referrers[collection.table] ?? [] {
                    sql +=
                        " AND NOT EXISTS (SELECT 1 FROM \(quoted(referrer.table)) AS r WHERE r.\(quoted(referrer.column)) = "
                        + "\(table).\(quoted(referrer.key ?? key)))"
                }
                pass += try tx.execute(sql, [.text(collection.table)])
            }
            removed += pass
            if pass == 0 { break }
        }
        try tx.execute("DROP TABLE temp.fetchkit_kept")
        try tx.delete(Query<SyncCheckpoint>())
        try tx.delete(Query<SyncSeenRecord>())
        try tx.delete(Query<SyncHeldDelete>())
        try tx.delete(Query<SyncScopeMember>())
        return removed
    }

    private static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
