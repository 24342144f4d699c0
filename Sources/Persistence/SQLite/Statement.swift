import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// A prepared statement; binds and reads values straight through the C API.
final class Statement {
    let handle: OpaquePointer
    unowned let connection: Connection

    init(_ handle: OpaquePointer, connection: Connection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// The last entity schema mapped onto this statement's result columns, the mapping, and how
    /// many times SQLite had prepared the statement again (after schema changes) when it was made.
    private var mapped: (of: EntitySchema.Shared, as: EntitySchema, prepared: Int32)?

    /// How many times SQLite prepared this statement again after a schema change.
    private var timesPreparedAgain: Int32 { sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0) }

    /// Whether SQLite prepared the statement again since ``resultSchema(of:)`` mapped its columns.
    var wasPreparedAgain: Bool { mapped.map { $0.prepared != timesPreparedAgain } ?? false }

    /// `schema` with its columns in the order of this statement's result columns (for
    /// `fetch(_:sql:)`): `schema` itself when they are its columns in order. Kept for the next
    /// run of the statement until SQLite prepares it again.
    func resultSchema(of schema: EntitySchema) throws(PersistenceError) -> EntitySchema {
        let prepared = timesPreparedAgain
        if let mapped, mapped.of === schema.shared, mapped.prepared == prepared { return mapped.as }
        var names: [String] = []
        for index in 0..<columnCount { names.append(columnName(index)) }
        let result = names == schema.names ? schema : try EntitySchema(reordering: schema, to: names)
        mapped = (schema.shared, result, prepared)
        return result
    }

    var sql: String { String(cString: sqlite3_sql(handle)) }
    var columnCount: Int32 { sqlite3_column_count(handle) }
    var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }
    var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    func columnName(_ index: Int32) -> String { String(cString: sqlite3_column_name(handle, index)) }

    func reset() {
        sqlite3_reset(handle)
    }

    func clearBindings() { sqlite3_clear_bindings(handle) }

    /// Steps once: `true` when a row is available, `false` when done.
    @inline(__always)
    func step() throws(PersistenceError) -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw failure(code)
    }

    /// The error of a step that returned `code`, after resetting the statement.
    @inline(never)
    private func failure(_ code: Int32) -> PersistenceError {
        let extended = sqlite3_extended_errcode(connection.handle)
        sqlite3_reset(handle)
        return connection.error(extended == 0 ? code : extended, sql: sql)
    }

    /// Steps to completion, ignoring rows.
    @inline(__always)
    func run() throws(PersistenceError) {
        while try step() {}
    }

    func bind(_ values: [DatabaseValue]) throws(PersistenceError) {
        guard values.count == Int(parameterCount) else {
            throw PersistenceError(
                .misuse, "The SQL has \(parameterCount) parameters but \(values.count) arguments were given: \(sql)")
        }
        for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
    }

    func bind(_ value: DatabaseValue, at index: Int32) throws(PersistenceError) {
        switch value {
        // Bind errors (range, too big) surface again at step, with a message.
        case .null: sqlite3_bind_null(handle, index)
        case .integer(let v): sqlite3_bind_int64(handle, index, v)
        case .real(let v): sqlite3_bind_double(handle, index, v)
        case .text(let v): bindText(v, at: index)
        case .blob(let v): bindBlob(v, at: index)
        }
    }

    @inline(__always)
    func bindNull(at index: Int32) { sqlite3_bind_null(handle, index) }

    /// Binds text with its exact byte length, so NUL characters inside survive.
    func bindText(_ value: String, at index: Int32) {
        var value = value
        _ = value.withUTF8 { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else {
                return sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
            }
            return sqlite3_bind_text64(
                handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                sqlite3_uint64(buffer.count), sqliteTransient, UInt8(SQLITE_UTF8))
        }
    }

    func bindBlob(_ value: Data, at index: Int32) {
        if value.isEmpty {
            sqlite3_bind_zeroblob(handle, index, 0)
            return
        }
        _ = value.withUnsafeBytes { buffer in
            sqlite3_bind_blob64(handle, index, buffer.baseAddress, sqlite3_uint64(buffer.count), sqliteTransient)
        }
    }

    // MARK: Reading

    @inline(__always)
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    @inline(__always)
    func isInteger(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_INTEGER }

    @inline(__always)
    func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    @inline(__always)
    func double(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }

    func text(_ index: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func blob(_ index: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let pointer = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: pointer, count: count)
    }

    /// The text or blob bytes of a column, for JSON decoding.
    func bytes(_ index: Int32) -> Data {
        if sqlite3_column_type(handle, index) == SQLITE_BLOB { return blob(index) }
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let pointer = sqlite3_column_text(handle, index) else { return Data() }
        return Data(bytes: pointer, count: count)
    }

    func value(at index: Int32) -> DatabaseValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: .integer(int64(index))
        case SQLITE_FLOAT: .real(double(index))
        case SQLITE_TEXT: .text(text(index))
        case SQLITE_BLOB: .blob(blob(index))
        default: .null
        }
    }
}
