#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// A context-confined object store over SQLite (placeholder: the module lands with issue 4).
public enum PersistenceModule {
    /// The version of the SQLite library the store is linked against.
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }
}
