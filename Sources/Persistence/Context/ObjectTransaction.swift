/// The handle a ``ObjectContext/persist(_:isolation:completion:)`` or ``ObjectContext/read(_:isolation:completion:)``
/// block receives: every operation on the store's entities goes through it.
///
/// A transaction is valid only inside its block, on the context's queue. It is not
/// `Sendable`, so the compiler stops it from escaping to another thread; using it after
/// its block returned throws ``PersistenceError/Code-swift.struct/misuse``. Reads inside a `persist` block
/// see the block's own uncommitted writes.
public final class ObjectTransaction {
    let connection: Connection
    /// Whether writes are allowed (a `persist` block) or not (a `read` block).
    let isWritable: Bool
    var isOpen = true
    var touched: Set<String> = []
    /// The entities this transaction wrote through the typed API (not the tables a delete's
    /// rules may reach), for `WriteGuards`.
    var written: Set<String> = []
    /// The guarded entities this transaction may write (`WriteGuards`), or all of them.
    var allowed: Set<String> = []
    var allowsEveryGuardedWrite = false
    var touchedEverything = false
    /// After commit: the row ids each table's changes touched, and the tables whose changed rows
    /// are not all known (observers of those refresh in full).
    var changedRows: [String: Set<Int64>] = [:]
    var unknownChanges: Set<String> = []
    /// After commit: the new values of updates by filter, by table (see `WrittenValues`).
    var writtenValues: [String: [WrittenValues]] = [:]
    /// Whether raw SQL that changes rows recomputes the folded-text columns afterwards (the
    /// migration runner does it once for all its migrations instead).
    var refreshesFolds = true
    /// Whether this transaction runs a ``Migration`` (where schema changes are allowed).
    var isMigration = false
    private var lastTouched: String?

    init(connection: Connection, writable: Bool) {
        self.connection = connection
        isWritable = writable
    }

    func checkOpen() throws(PersistenceError) {
        guard isOpen else {
            throw PersistenceError(
                .misuse,
                "The transaction was used after its block returned. Do all the work inside the persist or read block.")
        }
    }

    /// Checks that the transaction is open and may write. Inlined, and its errors made apart, so a
    /// write of many rows runs one short test a row.
    @inline(__always)
    func checkWritable(_ operation: String) throws(PersistenceError) {
        if isOpen, isWritable { return }
        throw notWritable(operation)
    }

    @inline(never)
    private func notWritable(_ operation: String) -> PersistenceError {
        do { try checkOpen() } catch { return error }
        return PersistenceError(
            .misuse, "\(operation) is a write, but this is a read block. Use persist { } for writes.")
    }

    @inline(__always)
    func touch(_ table: String) {
        if lastTouched != table {
            lastTouched = table
            touched.insert(table)
            written.insert(table)
        }
    }

    // MARK: Raw SQL

    /// Runs one SQL statement with bound arguments and returns how many rows it changed.
    ///
    /// The escape hatch for anything the typed API does not cover. Use `?` placeholders;
    /// values are bound, never spliced:
    ///
    /// ```swift
    /// try tx.execute("UPDATE Book SET rating = ? WHERE title = ?", [.real(5), .text(title)])
    /// ```
    ///
    /// - Parameters:
    ///   - sql: one SQL statement with `?` or `?NNN` placeholders.
    ///   - arguments: the values for the placeholders, in order.
    /// - Returns: the number of rows the statement inserted, updated or deleted.
    /// - Throws: ``PersistenceError``; ``PersistenceError/Code-swift.struct/misuse`` for a write in a read block.
    @discardableResult
    public func execute(_ sql: String, _ arguments: [DatabaseValue] = []) throws(PersistenceError) -> Int {
        let (statement, before) = try prepared(sql, arguments)
        try statement.run()
        guard !statement.isReadOnly else { return 0 }
        // Rows this statement changed, its triggers' included (a DDL statement changes none).
        let changes = connection.totalChanges != before ? connection.changes : 0
        try refreshFolds(after: statement, changesBefore: before)
        return changes
    }

    /// The cached statement for `sql` with `arguments` bound, after the checks every raw SQL
    /// statement passes: the transaction is open, and a statement that writes is in a write block
    /// (and makes observers see every entity as touched).
    ///
    /// - Returns: the statement, and the connection's change count before it runs (for
    ///   ``refreshFolds(after:changesBefore:)``).
    private func prepared(
        _ sql: String, _ arguments: [DatabaseValue]
    ) throws(PersistenceError) -> (statement: Statement, changesBefore: Int) {
        try checkOpen()
        let statement = try connection.cached(sql)
        if !statement.isReadOnly {
            try checkWritable("This SQL statement")
            touchedEverything = true
        }
        let before = connection.totalChanges
        try statement.bind(arguments)
        return (statement, before)
    }

    /// Brings the folded-text columns up to date after a raw SQL statement that changed rows,
    /// when the store keeps such columns.
    private func refreshFolds(after statement: Statement, changesBefore before: Int) throws(PersistenceError) {
        if !statement.isReadOnly, refreshesFolds, connection.totalChanges != before { try connection.refreshFolds() }
    }

    /// Runs an SQL query with bound arguments and returns its rows.
    ///
    /// - Parameters:
    ///   - sql: one SQL query with `?` placeholders.
    ///   - arguments: the values for the placeholders, in order.
    /// - Returns: every row the query produced.
    /// - Throws: ``PersistenceError``.
    public func rows(_ sql: String, _ arguments: [DatabaseValue] = []) throws(PersistenceError) -> [Row] {
        let (statement, before) = try prepared(sql, arguments)
        let count = statement.columnCount
        let columns = (0..<count).map { statement.columnName($0) }
        var result: [Row] = []
        while try statement.step() {
            result.append(Row(columns: columns, values: (0..<count).map { statement.value(at: $0) }))
        }
        try refreshFolds(after: statement, changesBefore: before)
        return result
    }

    /// Fetches entities with raw SQL: the query must return the entity's columns by name.
    ///
    /// - Parameters:
    ///   - type: the entity type.
    ///   - sql: a query selecting the entity's columns, such as `SELECT * FROM Book WHERE …`.
    ///   - arguments: the values for the placeholders, in order.
    /// - Returns: the decoded entities.
    /// - Throws: ``PersistenceError``; ``PersistenceError/Code-swift.struct/decodingFailed`` when a column is missing.
    public func fetch<E: StoredEntity>(
        _ type: E.Type, sql: String, _ arguments: [DatabaseValue] = []
    ) throws(PersistenceError) -> [E] {
        try checkOpen()
        let codec = try connection.codec(E.self)
        let statement = try connection.cached(sql)
        let writes = !statement.isReadOnly  // `UPDATE … RETURNING *`
        if writes {
            try checkWritable("This SQL statement")
            touchedEverything = true
        }
        let before = connection.totalChanges
        try statement.bind(arguments)
        // Reset on every exit, as `fetchEntities` does: a statement left stepping would keep this
        // connection's read snapshot.
        defer { statement.reset() }
        // The entity's columns mapped onto the query's result columns (kept by the statement).
        // Before the first step the statement may still be the one prepared before a schema
        // change (SQLite prepares it again at the step): a mapping that fails then is made again
        // after it, except for a statement that writes, which is refused before it writes.
        var premapped: EntitySchema?
        do {
            premapped = try statement.resultSchema(of: codec.schema)
        } catch where writes {
            throw error
        } catch {
            premapped = nil
        }
        var decoder = premapped.map { RowDecoder.make(schema: $0, statement: statement) }
        defer { decoder?.recycle() }
        var result: [E] = []
        var first = true
        while try statement.step() {
            // A schema change since the statement last ran: SQLite prepared it again at this step,
            // and `SELECT *` may now return other columns.
            if first, premapped == nil || statement.wasPreparedAgain {
                let schema = try statement.resultSchema(of: codec.schema)
                decoder?.recycle()
                decoder = RowDecoder.make(schema: schema, statement: statement)
            }
            first = false
            guard let decoder else { break }
            result.append(try decoder.decodeRow(E.self))
        }
        // No row: a mapping that failed before the step says why now.
        if first, premapped == nil { _ = try statement.resultSchema(of: codec.schema) }
        if writes, refreshesFolds, connection.totalChanges != before { try connection.refreshFolds() }
        return result
    }

    /// SQLite's plan for a query, one line per step (as `EXPLAIN QUERY PLAN` reports it).
    ///
    /// Use it to check that a filter or sort uses an index (`SEARCH … USING INDEX …`)
    /// rather than scanning the table.
    ///
    /// - Parameter query: the query.
    /// - Returns: the plan's lines.
    /// - Throws: ``PersistenceError/Code-swift.struct/unknownProperty`` for a bad field.
    public func queryPlan<E: StoredEntity>(for query: Query<E>) throws(PersistenceError) -> [String] {
        try checkOpen()
        let codec = try connection.codec(E.self)
        let built = try QuerySQL.select(query, schema: codec.schema)
        let statement = try connection.statement(for: built, explain: true)
        var lines: [String] = []
        while try statement.step() { lines.append(statement.text(3)) }
        return lines
    }
}
