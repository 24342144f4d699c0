#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

extension ObjectTransaction {
    /// Holds SQLite's page cache of this transaction's connection to at most `bytes` for the rest
    /// of the transaction, releasing the pages past it now; the context restores the store's
    /// ``ObjectStore/Configuration/pageCacheSize`` when the transaction ends. Never raises the cache.
    ///
    /// For a writer that fills a large file with pages it does not read again (a first pull of a
    /// large collection): the connection's cache would otherwise grow to its limit with them.
    package func limitPageCache(toBytes bytes: Int) throws(PersistenceError) {
        try checkOpen()
        let kib = Swift.max(64, bytes / 1024)
        guard kib < connection.pageCacheKiB else { return }
        try connection.cached("PRAGMA cache_size = -\(kib)").run()
        connection.pageCacheLimited = true
    }
}

extension Connection {
    /// Gives back the page cache the store's configuration sets, after a transaction that
    /// limited it (`ObjectTransaction.limitPageCache(toBytes:)`).
    func restorePageCache() {
        guard pageCacheLimited else { return }
        pageCacheLimited = false
        try? cached("PRAGMA cache_size = -\(pageCacheKiB)").run()
    }
}

extension ObjectTransaction {
    /// The bytes SQLite's page cache of this transaction's connection holds now.
    package var pageCacheUsed: Int {
        var current: Int32 = 0
        var highest: Int32 = 0
        sqlite3_db_status(connection.handle, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
        return Int(current)
    }
}
