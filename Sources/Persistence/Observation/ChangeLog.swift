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

    /// The rows of one table; a class, so recording a row costs no lookup by table name.
    private final class Rows {
        var ids: Set<Int64> = []
        var overflowed = false
    }

    private let handle: OpaquePointer
    private var tables: [String: Rows] = [:]
    private var lastName: UnsafePointer<CChar>?
    private var last: Rows?

    /// `handle` is the connection's; the connection keeps this log as long as itself.
    init(handle: OpaquePointer) { self.handle = handle }

    /// The row ids recorded since ``begin(recording:)``, by table.
    var rowids: [String: Set<Int64>] {
        tables.compactMapValues { $0.overflowed ? nil : $0.ids }
    }

    /// Tables whose changes were not all recorded (too many, or a write the hook cannot see).
    var overflowed: Set<String> { Set(tables.filter { $0.value.overflowed }.keys) }

    /// Starts a write transaction's log. Rows are recorded only while someone observes the
    /// store: otherwise SQLite's update hook is not even installed, and writes pay nothing.
    /// (A commit without recorded rows makes every observer refresh in full, which is right for
    /// one that started observing meanwhile.)
    func begin(recording: Bool) {
        tables.removeAll(keepingCapacity: true)
        lastName = nil
        last = nil
        if recording {
            sqlite3_update_hook(
                handle,
                { context, _, _, table, rowid in
                    guard let context, let table else { return }
                    Unmanaged<ChangeLog>.fromOpaque(context).takeUnretainedValue().record(table, rowid)
                }, Unmanaged.passUnretained(self).toOpaque())
        } else {
            sqlite3_update_hook(handle, nil, nil)
        }
    }

    /// Stops recording (the connection is going away).
    func stop() { sqlite3_update_hook(handle, nil, nil) }

    /// Marks a table whose changes are unknown (a `DELETE` of every row, which SQLite runs
    /// without reporting rows).
    func overflow(_ table: String) { rows(of: table).overflowed = true }

    private func rows(of table: String) -> Rows {
        if let rows = tables[table] { return rows }
        let rows = Rows()
        tables[table] = rows
        return rows
    }

    private func record(_ name: UnsafePointer<CChar>, _ rowid: Int64) {
        if name != lastName {
            lastName = name
            last = rows(of: String(cString: name))
        }
        guard let rows = last, !rows.overflowed else { return }
        if rows.ids.insert(rowid).inserted, rows.ids.count > Self.limit {
            rows.overflowed = true
            rows.ids = []
        }
    }
}
