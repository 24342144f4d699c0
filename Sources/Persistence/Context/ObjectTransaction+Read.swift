extension ObjectTransaction {
    /// Fetches the entity with the given identity.
    ///
    /// - Parameters:
    ///   - type: the entity type.
    ///   - id: the identity.
    /// - Returns: the entity, or `nil` when none has that identity.
    /// - Throws: ``PersistenceError``.
    public func fetch<E: StoredEntity>(_ type: E.Type, id: E.ID) throws(PersistenceError) -> E? {
        try checkOpen()
        let codec = try connection.codec(E.self)
        let (statement, decoder) = try codec.selectByID()
        try statement.bind(id.databaseValue, at: 1)
        decoder.begin()
        defer {
            decoder.end()
            statement.reset()
        }
        guard try statement.step() else { return nil }
        return try decoder.decodeRow(E.self)
    }

    /// Runs a read: a ``Query``'s entities, an ``IncludingQuery``'s rows with what each brings, or
    /// a ``SectionedQuery``'s sections.
    ///
    /// ```swift
    /// let books = try tx.fetch(Query<Book>(sortedBy: [Book.title.ascending(caseInsensitive: true)]))
    /// let withAuthors = try tx.fetch(Query<Book>().including(Book.author))  // [(Book, Author?)]
    /// ```
    ///
    /// The query's filter, sort and window run in SQL; what it includes runs in one more query per
    /// relation, and its aggregates and section keys in the same statement as its rows.
    ///
    /// - Parameter request: what to read.
    /// - Returns: what the request reads, in the query's order: for `Query<Book>`, `[Book]`; for
    ///   `Query<Book>().including(Book.author)`, `[(Book, Author?)]`.
    /// - Throws: ``PersistenceError/Code-swift.struct/unknownProperty`` for a field the entity does not
    ///   store; ``PersistenceError/Code-swift.struct/misuse`` for a relation to an entity the store was not
    ///   opened with; what the request's parts throw (see ``Query/including(_:)``).
    public func fetch<R: FetchRequest>(_ request: R) throws(PersistenceError) -> R.Result {
        try request.plan.run(self)
    }

    /// The entities a query selects, filtered, sorted and windowed in SQL.
    func fetchEntities<E: StoredEntity>(_ query: Query<E>) throws(PersistenceError) -> [E] {
        try checkOpen()
        let codec = try connection.codec(E.self)
        let built = try QuerySQL.select(query, schema: codec.schema)
        let statement = try connection.statement(for: built)
        // Reset on every exit: a statement left stepping (a row that fails to decode) would keep
        // this connection's read snapshot, and later reads would not see later commits.
        defer { statement.reset() }
        let decoder = RowDecoder.make(schema: codec.schema, statement: statement)
        defer { decoder.recycle() }
        return try collectRows(E.self, statement, decoder)
    }

    /// Fetches the first entity a query selects.
    ///
    /// - Parameter query: the filter and sort.
    /// - Returns: the first entity, or `nil`.
    /// - Throws: ``PersistenceError``.
    public func first<E: StoredEntity>(_ query: Query<E>) throws(PersistenceError) -> E? {
        try fetchEntities(query.limit(1, offset: query.offset)).first
    }

    /// Counts the entities a query selects, in SQL (its window too, when it has one).
    ///
    /// ```swift
    /// let unrated = try tx.count(Query<Book>(where: Book.rating == nil))
    /// ```
    ///
    /// - Parameter query: the rows to count.
    /// - Returns: the count.
    /// - Throws: ``PersistenceError``.
    public func count<E: StoredEntity>(_ query: Query<E>) throws(PersistenceError) -> Int {
        Int(try integer(query) { "SELECT COUNT(*) FROM \($0)" + $1 })
    }

    /// Whether a query selects any entity (stops at the first).
    ///
    /// - Parameter query: the rows to look for; `Query<Book>()` asks whether there is any row.
    /// - Returns: `true` when the query selects a row.
    /// - Throws: ``PersistenceError``.
    public func exists<E: StoredEntity>(_ query: Query<E>) throws(PersistenceError) -> Bool {
        try integer(query) { "SELECT EXISTS(SELECT 1 FROM \($0)" + $1 + ")" } != 0
    }

    /// Runs a query that returns one integer (`0` when it returns no row), built by `sql` from
    /// the entity's table and the query's `WHERE` clause (empty, or starting with a space).
    private func integer<E: StoredEntity>(
        _ query: Query<E>, _ sql: (_ table: String, _ whereClause: String) -> String
    ) throws(PersistenceError) -> Int64 {
        try checkOpen()
        let codec = try connection.codec(E.self)
        var built = QuerySQL(schema: codec.schema)
        try built.appendWhere(query.selection)
        built.sql = sql(codec.schema.table, built.sql)
        let statement = try connection.statement(for: built)
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return statement.int64(0)
    }

    /// Fetches the rows a query selects with their raw values, row ids and sort keys, for
    /// observation: all of them, or only `rowids` (those that still match the filter).
    func fetchObserved<E: StoredEntity>(
        _ query: Query<E>, keys: Bool, rowids: Set<Int64>? = nil
    ) throws(PersistenceError) -> [ObservedRow<E>] {
        let codec = try connection.codec(E.self)
        let built = try QuerySQL.observed(query, schema: codec.schema, keys: keys, rowids: rowids)
        let statement = try connection.statement(for: built)
        defer { statement.reset() }
        let decoder = RowDecoder.make(schema: codec.schema, statement: statement)
        defer { decoder.recycle() }
        let count = Int32(codec.schema.names.count)
        let keyCount = keys ? Int32(query.sort.count) : 0
        var result: [ObservedRow<E>] = []
        while try statement.step() {
            let entity = try decoder.decodeRow(E.self)
            let row = (0..<count).map { statement.value(at: $0) }
            let rowid = statement.int64(count)
            let key = (0..<keyCount).map { statement.value(at: count + 1 + $0) }
            result.append(ObservedRow(entity: entity, row: row, rowid: rowid, key: key))
        }
        return result
    }
}

extension ObjectTransaction {
    /// Decodes entities from rows of column values in the schema's column order, with the
    /// decoder a fetch uses: each row is bound to a statement that selects its parameters, so a
    /// value decodes exactly as it does when read from its table.
    func decode<E: StoredEntity>(_ type: E.Type, rows: [[DatabaseValue]]) throws(PersistenceError) -> [E] {
        let schema = try connection.codec(E.self).schema
        guard !rows.isEmpty else { return [] }
        let statement = try connection.cached(
            "SELECT " + (1...schema.names.count).map { "?\($0)" }.joined(separator: ", "))
        defer {
            statement.reset()
            statement.clearBindings()
        }
        let decoder = RowDecoder.make(schema: schema, statement: statement)
        defer { decoder.recycle() }
        var failure: PersistenceError?
        // Written in place (an append to `[E]` in generic code looks up the array's metadata for
        // every row); on an error, the rows decoded so far are kept and freed.
        let result = [E](unsafeUninitializedCapacity: rows.count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            do throws(PersistenceError) {
                for row in rows {
                    statement.reset()
                    try statement.bind(row)
                    _ = try statement.step()
                    (base + initialized).initialize(to: try decoder.decodeRow(E.self))
                    initialized += 1
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return result
    }
}

/// Steps through a statement's rows, decoding each into `E`, and returns them as an array.
///
/// The array is built by the standard library from ``DecodedRows``: it grows its own buffer as
/// the rows come and keeps it, so the rows are not copied once more into an array of the right
/// size at the end (for 200,000 rows of 80 bytes, about an eighth of the fetch's CPU time when it
/// runs alone, most of it the page faults of the new memory), and no metadata is looked up per row.
func collectRows<E: Decodable>(
    _ type: E.Type, _ statement: Statement, _ decoder: RowDecoder
) throws(PersistenceError) -> [E] {
    let rows = DecodedRows<E>(statement: statement, decoder: decoder)
    let result = Array(rows)
    if let failure = rows.failure { throw failure }
    return result
}

/// A statement's rows as a sequence of decoded entities, for ``collectRows(_:_:_:)``: it ends at
/// the last row or at the first error, which it keeps in ``failure``.
final class DecodedRows<E: Decodable>: Sequence, IteratorProtocol {
    private let statement: Statement
    private let decoder: RowDecoder
    /// The error that ended the rows early, if any.
    private(set) var failure: PersistenceError?
    /// Whether ``failure`` is set: a test of a `Bool`, where `failure == nil` would copy the
    /// optional error and compare it (about 150 instructions a row).
    private var failed = false

    init(statement: Statement, decoder: RowDecoder) {
        self.statement = statement
        self.decoder = decoder
    }

    func next() -> E? {
        guard !failed else { return nil }
        do throws(PersistenceError) {
            guard try statement.step() else { return nil }
            return try decoder.decodeRow(E.self)
        } catch {
            failure = error
            failed = true
            return nil
        }
    }
}

/// Rows of a generic type collected in raw memory.
///
/// In unspecialized generic code, appending to `[T]` looks up the array's metadata for every
/// row, and so does calling a method of a generic type that is not inlined: callgrind showed a
/// metadata lookup (about 300 instructions) per row either way. These methods are always
/// inlined, and pointer arithmetic on `UnsafeMutablePointer<T>` needs only `T`'s own value
/// witnesses, which the caller passes in.
struct RowBuffer<T> {
    private(set) var base: UnsafeMutablePointer<T>?
    private(set) var count = 0
    private var capacity = 0

    /// Adds `row` at the end, doubling the memory when it is full.
    @inline(__always)
    mutating func append(_ row: T) {
        if count == capacity {
            let newCapacity = max(64, capacity * 2)
            let grown = UnsafeMutablePointer<T>.allocate(capacity: newCapacity)
            if let base {
                grown.moveInitialize(from: base, count: count)
                base.deallocate()
            }
            base = grown
            capacity = newCapacity
        }
        if let base { (base + count).initialize(to: row) }
        count += 1
    }

    /// Moves every row into new memory, row `i` to `starts[owners[i]]` (which then moves on by
    /// one), leaving this buffer empty. The caller deallocates the result, whose rows it moves
    /// out first.
    @inline(__always)
    mutating func movedInOrder(of owners: [Int], starts: inout [Int]) -> UnsafeMutablePointer<T> {
        let ordered = UnsafeMutablePointer<T>.allocate(capacity: max(1, count))
        if let base {
            for index in 0..<count {
                let slot = starts[owners[index]]
                starts[owners[index]] = slot + 1
                (ordered + slot).moveInitialize(from: base + index, count: 1)
            }
        }
        count = 0
        return ordered
    }

    /// The rows as an array, moved out of this buffer, which is left empty.
    @inline(__always)
    mutating func movedIntoArray() -> [T] {
        guard let source = base, count > 0 else { return [] }
        let total = count
        count = 0
        return [T](unsafeUninitializedCapacity: total) { buffer, initialized in
            if let target = buffer.baseAddress { target.moveInitialize(from: source, count: total) }
            initialized = total
        }
    }

    /// Destroys the rows still held and frees the memory.
    @inline(__always)
    mutating func free() {
        base?.deinitialize(count: count)
        base?.deallocate()
        base = nil
        count = 0
        capacity = 0
    }
}
