import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// The row ids a write transaction changed, table by table, recorded by SQLite's update hook so
/// observers can re-read only those rows (see `QueryObserver`).
///
/// Confined to its connection's thread like the connection: the hook runs inside the
/// connection's own `sqlite3_step` calls.
final class ChangeLog {
    /// Past this many changed rows of one table, observers of it refresh in full.
    static let limit = 10_000

    private(set) var rowids: [String: Set<Int64>] = [:]
    /// Tables whose changes were not all recorded (too many, or a write the hook cannot see).
    private(set) var overflowed: Set<String> = []
    private var lastName: UnsafePointer<CChar>?
    private var lastTable = ""

    func reset() {
        rowids.removeAll(keepingCapacity: true)
        overflowed.removeAll()
        lastName = nil
    }

    /// Marks a table whose changes are unknown (a `DELETE` of every row, which SQLite runs
    /// without reporting rows).
    func overflow(_ table: String) { overflowed.insert(table) }

    fileprivate func record(_ name: UnsafePointer<CChar>, _ rowid: Int64) {
        if name != lastName {
            lastName = name
            lastTable = String(cString: name)
        }
        guard !overflowed.contains(lastTable) else { return }
        let inserted = rowids[lastTable, default: []].insert(rowid).inserted
        if inserted, (rowids[lastTable]?.count ?? 0) > Self.limit {
            overflowed.insert(lastTable)
            rowids[lastTable] = nil
        }
    }

    /// Installs the update hook of `handle` to record into `log`. The connection keeps the log
    /// alive as long as the hook.
    static func install(_ log: ChangeLog, on handle: OpaquePointer) {
        sqlite3_update_hook(
            handle,
            { context, _, _, table, rowid in
                guard let context, let table else { return }
                Unmanaged<ChangeLog>.fromOpaque(context).takeUnretainedValue().record(table, rowid)
            }, Unmanaged.passUnretained(log).toOpaque())
    }
}
