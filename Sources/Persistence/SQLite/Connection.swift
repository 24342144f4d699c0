import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// One SQLite connection with its cache of prepared statements.
///
/// Not thread-safe: a connection is confined to its ``ObjectContext``'s queue (or,
/// for an in-memory store, used only under the store's writer lock).
final class Connection {
    let handle: OpaquePointer
    let path: String
    private var cache: [String: Statement] = [:]
    static let cacheLimit = 256
    /// Entity schemas by type, copied from the store so lookups need no lock.
    var schemas: [ObjectIdentifier: EntitySchema] = [:]
    /// Per-entity statements and coders, created on first use. (`@exclusivity(unchecked)` here and
    /// on the codec's statement slots: the connection is confined to one queue, and these are read
    /// once or more per row written.)
    @exclusivity(unchecked) var codecs: [ObjectIdentifier: EntityCodec] = [:]
    /// The codec used last: a transaction writing many rows of one entity skips the dictionary.
    @exclusivity(unchecked) var lastCodec: (key: ObjectIdentifier, codec: EntityCodec)?
    /// The rows the current write transaction changed.
    let changeLog: ChangeLog
    /// The page cache the store's configuration gives this connection, in KiB.
    var pageCacheKiB = 0
    /// Whether a transaction lowered the page cache (`ObjectTransaction.limitPageCache(toBytes:)`);
    /// the context restores `pageCacheKiB` when the transaction ends.
    var pageCacheLimited = false

    init(path: String, flags: Int32) throws(PersistenceError) {
        self.path = path
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteErrors.error(code: code, message: message, path: path)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        TextFold.register(on: db)
        changeLog = ChangeLog(handle: db)
    }

    deinit {
        changeLog.stop()
        lastCodec = nil
        codecs.removeAll()
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    func closeStatements() {
        lastCodec = nil
        codecs.removeAll()
        cache.removeAll()
    }

    var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }

    func error(_ code: Int32, sql: String? = nil) -> PersistenceError {
        SQLiteErrors.error(code: code, message: lastMessage, sql: sql, path: path == ":memory:" ? nil : path)
    }

    /// Runs SQL without arguments (may hold several statements).
    func execute(_ sql: String) throws(PersistenceError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(sqlite3_extended_errcode(handle), sql: sql) }
    }

    /// Prepares a statement that is not cached.
    func prepare(_ sql: String) throws(PersistenceError) -> Statement {
        var stmt: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, 0, &stmt, nil)
        guard code == SQLITE_OK, let stmt else { throw error(code == SQLITE_OK ? SQLITE_MISUSE : code, sql: sql) }
        return Statement(stmt, connection: self)
    }

    /// Returns the cached prepared statement for `sql`, preparing it on first use.
    func cached(_ sql: String) throws(PersistenceError) -> Statement {
        if let statement = cache[sql] {
            statement.reset()
            return statement
        }
        // Bound the cache: filters with varying IN-list lengths would otherwise grow it forever.
        // Statements in use elsewhere stay alive through their own references.
        if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        var stmt: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard code == SQLITE_OK, let stmt else { throw error(code == SQLITE_OK ? SQLITE_MISUSE : code, sql: sql) }
        let statement = Statement(stmt, connection: self)
        cache[sql] = statement
        return statement
    }

    /// Runs a one-row, one-column query and returns its value.
    func scalar(_ sql: String, _ arguments: [DatabaseValue] = []) throws(PersistenceError) -> DatabaseValue {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        guard try statement.step() else { return .null }
        return statement.value(at: 0)
    }

    /// Runs a query and returns all rows as values.
    func rows(_ sql: String, _ arguments: [DatabaseValue] = []) throws(PersistenceError) -> [[DatabaseValue]] {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        var result: [[DatabaseValue]] = []
        let count = statement.columnCount
        while try statement.step() {
            result.append((0..<count).map { statement.value(at: $0) })
        }
        return result
    }

    var changes: Int { Int(sqlite3_changes(handle)) }
    /// Rows changed since the connection opened, by any statement and its triggers.
    var totalChanges: Int { Int(sqlite3_total_changes(handle)) }
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }
}
