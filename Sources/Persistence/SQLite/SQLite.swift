#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// SQLite's "copy this buffer now" destructor.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The version of the SQLite library the module is linked against.
///
/// For example `"3.40.1"`.
public var sqliteLibraryVersion: String { String(cString: sqlite3_libversion()) }

enum SQLiteErrors {
    /// Turns a SQLite result code into a typed error with an actionable message.
    static func error(code: Int32, message: String, sql: String? = nil, path: String? = nil) -> PersistenceError {
        let primary = code & 0xFF
        let place = path.map { " (\($0))" } ?? ""
        let statement = sql.map { " while running: \($0.prefix(200))" } ?? ""
        switch primary {
        case SQLITE_NOTADB:
            return PersistenceError(
                .notADatabase, "The file\(place) is not a SQLite database. Choose another file, or move this one away.",
                sqliteCode: code)
        case SQLITE_CORRUPT:
            return PersistenceError(
                .corrupt,
                "The database\(place) is corrupt: \(message). Restore it from a backup or delete it to start empty.",
                sqliteCode: code)
        case SQLITE_CANTOPEN:
            return PersistenceError(
                .cannotOpen,
                "The database file\(place) cannot be opened: \(message). Check that its directory exists and is writable.",
                sqliteCode: code)
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH:
            return PersistenceError(
                .readOnly,
                "The database\(place) is read-only: \(message). The store needs write access to the file and its directory.",
                sqliteCode: code)
        case SQLITE_FULL:
            return PersistenceError(
                .diskFull, "The disk is full\(place): \(message). Free some space and try again; nothing was written.",
                sqliteCode: code)
        case SQLITE_CONSTRAINT:
            let unique = code == 2067 || code == 1555  // SQLITE_CONSTRAINT_UNIQUE, SQLITE_CONSTRAINT_PRIMARYKEY
            return PersistenceError(
                unique ? .uniqueKeyViolation : .constraintViolation,
                unique
                    ? "Another row already has this identity or unique key (\(message)). Use upsert to replace it."
                    : "A constraint failed (\(message))\(statement).",
                sqliteCode: code)
        case SQLITE_BUSY, SQLITE_LOCKED:
            return PersistenceError(
                .busy,
                "The database stayed locked by another writer (\(message)). Retry later or raise the busy timeout.",
                sqliteCode: code)
        case SQLITE_TOOBIG:
            return PersistenceError(
                .unsupportedValue, "A value is larger than SQLite allows (\(message)).", sqliteCode: code)
        default:
            return PersistenceError(.sqlite, "SQLite error \(code): \(message)\(statement)", sqliteCode: code)
        }
    }
}
