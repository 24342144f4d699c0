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
        /// While an update that reads its new values back runs: its rows are counted here instead
        /// of being recorded, and checked against what the statement returned.
        var capturing = false
        var captured = 0
    }

    private let handle: OpaquePointer
    private var tables: [String: Rows] = [:]
    private var lastName: UnsafePointer<CChar>?
    private var last: Rows?
    /// The updates whose new values are known, in the order they ran.
    private var writtenLog: [(table: String, values: WrittenValues)] = []
    /// Whether rows are recorded in this transaction (someone observes the store).
    private(set) var isRecording = false
    /// The tables whose updates by filter read their new values back for observers.
    private var valueTables: Set<String> = []

    /// `handle` is the connection's; the connection keeps this log as long as itself.
    init(handle: OpaquePointer) { self.handle = handle }

    /// The row ids recorded since ``begin(recording:valueTables:)``, by table.
    var rowids: [String: Set<Int64>] {
        tables.compactMapValues { $0.overflowed ? nil : $0.ids }
    }

    /// Tables whose changes were not all recorded (too many, or a write the hook cannot see).
    var overflowed: Set<String> { Set(tables.filter { $0.value.overflowed }.keys) }

    /// The updates by filter whose new values are known, by table, in the order they ran. Their
    /// rows are not in ``rowids`` (unless another write changed them too).
    var written: [String: [WrittenValues]] {
        var result: [String: [WrittenValues]] = [:]
        for entry in writtenLog where tables[entry.table]?.overflowed != true {
            result[entry.table, default: []].append(entry.values)
        }
        return result
    }

    /// Starts an update of `table` whose statement returns its new values: the rows SQLite reports
    /// for the table are counted until ``endCapture(_:_:)``. Returns `false` (and captures
    /// nothing) when rows are not recorded or no observer applies the table's new values: its
    /// rows are then recorded as any write's are.
    func beginCapture(_ table: String) -> Bool {
        guard isRecording, valueTables.contains(table) else { return false }
        let rows = rows(of: table)
        rows.capturing = true
        rows.captured = 0
        return true
    }

    /// How an update that reads its new values back ended.
    enum CaptureOutcome {
        /// The statement failed: nothing it wrote stays.
        case failed
        /// It changed more rows than ``WrittenValues/limit``: their values were not kept.
        case tooMany
        /// It returned these values.
        case returned(WrittenValues)
    }

    /// Ends a capture. When the statement's values are not kept, or SQLite reported other rows of
    /// the table than the statement returned (a trigger wrote to it), the table's changes become
    /// unknown.
    func endCapture(_ table: String, _ outcome: CaptureOutcome) {
        let rows = rows(of: table)
        rows.capturing = false
        let values: WrittenValues
        switch outcome {
        case .failed: return
        case .tooMany:
            rows.overflowed = true
            rows.ids = []
            return
        case .returned(let returned): values = returned
        }
        if rows.captured == values.rowids.count {
            writtenLog.append((table, values))
        } else {
            rows.overflowed = true
            rows.ids = []
        }
    }

    /// How many updates with known values ran so far: a savepoint's mark for ``rollBack(to:)``.
    var writtenMark: Int { writtenLog.count }

    /// Forgets the new values of updates a rolled-back savepoint undid, keeping their rows as
    /// changed (observers re-read them).
    func rollBack(to mark: Int) {
        guard mark < writtenLog.count else { return }
        for entry in writtenLog[mark...] {
            let rows = rows(of: entry.table)
            for rowid in entry.values.rowids { insert(rowid, into: rows) }
        }
        writtenLog.removeSubrange(mark...)
    }

    /// Starts a write transaction's log. Rows are recorded only while someone observes the
    /// store: otherwise SQLite's update hook is not even installed, and writes pay nothing.
    /// (A commit without recorded rows makes every observer refresh in full, which is right for
    /// one that started observing meanwhile.) Updates by filter of `valueTables` read their new
    /// values back (see ``beginCapture(_:)``).
    func begin(recording: Bool, valueTables: Set<String>) {
        tables.removeAll(keepingCapacity: true)
        writtenLog.removeAll()
        lastName = nil
        last = nil
        isRecording = recording
        self.valueTables = valueTables
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
    func stop() {
        isRecording = false
        sqlite3_update_hook(handle, nil, nil)
    }

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
        guard let rows = last else { return }
        if rows.capturing {
            rows.captured += 1
            return
        }
        insert(rowid, into: rows)
    }

    private func insert(_ rowid: Int64, into rows: Rows) {
        guard !rows.overflowed else { return }
        if rows.ids.insert(rowid).inserted, rows.ids.count > Self.limit {
            rows.overflowed = true
            rows.ids = []
        }
    }
}
