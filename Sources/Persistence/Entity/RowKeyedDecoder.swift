import CAtomicWord
import Foundation
import Locking

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// The `Decoder` an entity's `init(from:)` receives for one row: the row's decoder and its
/// generation. A copy kept past the row fails instead of reading another row.
struct RowDecodingScope: Decoder {
    let unmanaged: Unmanaged<RowDecoder>
    let generation: UInt
    let row: UInt
    var decoder: RowDecoder { unmanaged._withUnsafeGuaranteedRef { $0 } }
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try unmanaged._withUnsafeGuaranteedRef { decoder in
            guard decoder.generation == generation, decoder.row == row else { throw decoder.outlived(nil, generation) }
            return decoder.container(keyedBy: Key.self)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard decoder.generation == generation, decoder.row == row else { throw decoder.outlived(nil, generation) }
        throw decoder.unkeyedContainerError()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard decoder.generation == generation, decoder.row == row else { throw decoder.outlived(nil, generation) }
        throw decoder.singleValueContainerError()
    }
}

/// The keyed container of one row. It refers to its decoder unretained (decoders are never
/// freed, see ``RowDecoder``) and reads only while its row's generation is current.
struct RowKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let unmanaged: Unmanaged<RowDecoder>
    let generation: UInt
    var decoder: RowDecoder { unmanaged._withUnsafeGuaranteedRef { $0 } }
    var codingPath: [any CodingKey] { [] }
    /// The row's keys; none once the row is over (the decoder may serve another entity by then,
    /// on another thread: a kept container reads nothing but the generation).
    var allKeys: [Key] {
        guard decoder.generation == generation else { return [] }
        return decoder.names.compactMap { Key(stringValue: $0) }
    }

    /// Whether the row has `key`. Once the row is over, true, without reading the decoder: the
    /// read that follows (`decodeIfPresent` asks this first) then fails with the misuse error,
    /// instead of passing for a key the row lacks.
    func contains(_ key: Key) -> Bool {
        guard decoder.generation == generation else { return true }
        return decoder.schema.indexByName[key.stringValue] != nil
    }

    /// `key`'s column, after checking that this container's row is still being decoded.
    @inline(__always)
    private func column(_ key: Key) throws -> Int32 {
        guard decoder.generation == generation else { throw decoder.outlived(key, generation) }
        return try decoder.column(key)
    }

    /// `key`'s column, or `nil` when the row has none, after the same check.
    @inline(__always)
    private func columnIfPresent(_ key: Key) throws -> Int32? {
        guard decoder.generation == generation else { throw decoder.outlived(key, generation) }
        return decoder.columnIfPresent(key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        sqlite3_column_type(decoder.handle, try column(key)) == SQLITE_NULL
    }

    @inline(__always)
    private func nonNull<T>(_ key: Key, _ type: T.Type) throws -> Int32 {
        let index = try column(key)
        if sqlite3_column_type(decoder.handle, index) == SQLITE_NULL {
            throw DecodingError.valueNotFound(
                T.self, .init(codingPath: [key], debugDescription: "The column is NULL."))
        }
        return index
    }

    /// The index of `key`'s column after checking that it holds a value of `storage`: NULL is
    /// `valueNotFound`, another type is ``PersistenceError/Code-swift.struct/typeMismatch``.
    @inline(__always)
    private func checked(_ key: Key, _ storage: Int32) throws -> Int32 {
        try unmanaged._withUnsafeGuaranteedRef { decoder in
            guard decoder.generation == generation else { throw decoder.outlived(key, generation) }
            let index = try decoder.column(key)
            let stored = sqlite3_column_type(decoder.handle, index)
            if stored != storage { throw decoder.unexpected(at: index, stored: stored, key: key) }
            return index
        }
    }

    /// Reads an integer, checking its type: one `sqlite3_column_value` call (a `sqlite3_column_*`
    /// call costs about as much as the row's whole decoding step), then the value's type and
    /// integer. The value is "unprotected" in SQLite's terms, which differs from a protected one
    /// only by the connection's mutex, and the store's connections have none (`SQLITE_OPEN_NOMUTEX`,
    /// confined to one queue).
    @inline(__always)
    private func int64(_ key: Key) throws -> Int64 {
        if let value = predicted(key, SQLITE_INTEGER, sqlite3_value_int64) { return value }
        return try anyInt64(key)
    }

    /// ``int64(_:)`` for a key found by name, and every failure.
    @inline(never)
    private func anyInt64(_ key: Key) throws -> Int64 {
        try stored(key, SQLITE_INTEGER, sqlite3_value_int64)
    }

    /// The value of `key`'s column, read by `read`, when the column is the predicted one
    /// (``RowDecoder/predictedColumn(_:)``) and holds `storage`; `nil` for anything else, which
    /// the caller then reads by ``stored(_:_:_:)``: it finds the column by name, reads it, and
    /// throws when it holds another type. After the first row, every integer and `Double`
    /// property a synthesized `init(from:)` reads takes this path, which keeps the checks for the
    /// rest out of it (and with them, most of the registers it saves).
    @inline(__always)
    private func predicted<Value>(_ key: Key, _ storage: Int32, _ read: (OpaquePointer?) -> Value) -> Value? {
        unmanaged._withUnsafeGuaranteedRef { decoder in
            guard decoder.generation == generation, let index = decoder.predictedColumn(key) else { return nil }
            let value = sqlite3_column_value(decoder.handle, index)
            guard sqlite3_value_type(value) == storage else {
                decoder.next -= 1
                return nil
            }
            return read(value)
        }
    }

    /// Reads a column that must hold `storage` (`SQLITE_INTEGER` or `SQLITE_FLOAT`) with one
    /// `sqlite3_column_value` call, as ``int64(_:)`` explains, and `read` for the value.
    @inline(__always)
    private func stored<Value>(
        _ key: Key, _ storage: Int32, _ read: (OpaquePointer?) -> Value
    ) throws -> Value {
        try unmanaged._withUnsafeGuaranteedRef { decoder in
            guard decoder.generation == generation else { throw decoder.outlived(key, generation) }
            let index = try decoder.column(key)
            let value = sqlite3_column_value(decoder.handle, index)
            let stored = sqlite3_value_type(value)
            if stored != storage { throw decoder.unexpected(at: index, stored: stored, key: key) }
            return read(value)
        }
    }

    /// The ``PersistenceError/Code-swift.struct/typeMismatch`` for a column whose stored value the
    /// property's type cannot hold: "`Entity.property` " followed by `problem`.
    private func notStored(_ key: Key, _ problem: String) -> PersistenceError {
        PersistenceError(
            .typeMismatch, "\(decoder.schema.entityName).\(key.stringValue) \(problem)",
            entity: decoder.schema.entityName, property: key.stringValue)
    }

    @inline(__always)
    private func exact<I: FixedWidthInteger>(_ key: Key, _ type: I.Type) throws -> I {
        let raw = try int64(key)
        guard let value = I(exactly: raw) else {
            throw notStored(key, "holds the integer \(raw), which does not fit in \(I.self).")
        }
        return value
    }

    private func bool(at index: Int32, _ key: Key) throws -> Bool {
        let raw = sqlite3_column_int64(decoder.handle, index)
        guard raw == 0 || raw == 1 else {
            throw notStored(key, "holds the integer \(raw); a Bool is stored as 0 or 1.")
        }
        return raw == 1
    }

    private func float(at index: Int32, _ key: Key) throws -> Float {
        let raw = sqlite3_column_double(decoder.handle, index)
        guard let value = Float(exactly: raw) else {
            throw notStored(key, "holds \(raw), which is not exactly a Float.")
        }
        return value
    }

    @inline(__always)
    private func string(at index: Int32) throws -> String {
        guard let text = ValueCoding.validString(ValueCoding.rawText(decoder.handle, index)) else {
            throw ValueCoding.invalidText(decoder.schema, decoder.schema.columns[Int(index)])
        }
        return text
    }

    @inline(__always)
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try bool(at: try checked(key, SQLITE_INTEGER), key)
    }
    @inline(__always)
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try string(at: try checked(key, SQLITE_TEXT))
    }
    @inline(__always)
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        if let value = predicted(key, SQLITE_FLOAT, sqlite3_value_double) { return value }
        return try anyDouble(key)
    }
    /// `decode(Double.self, forKey:)` for a key found by name, and every failure.
    @inline(never)
    private func anyDouble(_ key: Key) throws -> Double {
        try stored(key, SQLITE_FLOAT, sqlite3_value_double)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try float(at: try checked(key, SQLITE_FLOAT), key)
    }
    @inline(__always)
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        Int.bitWidth == 64 ? Int(truncatingIfNeeded: try int64(key)) : try exact(key, type)
    }
    @inline(__always)
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try int64(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try exact(key, type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try exact(key, type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try exact(key, type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try exact(key, type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try exact(key, type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try exact(key, type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try exact(key, type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try exact(key, type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let index = try column(key)
        let stored = sqlite3_column_type(decoder.handle, index)
        if stored == SQLITE_NULL {
            throw DecodingError.valueNotFound(T.self, .init(codingPath: [key], debugDescription: "The column is NULL."))
        }
        return try decoder.decodeValue(T.self, at: index, stored: stored)
    }

    /// The index of `key`'s column when it holds `storage`, `nil` when it is NULL (or, in a raw
    /// query that left it out, absent).
    @inline(__always)
    private func present(_ key: Key, _ storage: Int32) throws -> Int32? {
        try unmanaged._withUnsafeGuaranteedRef { decoder in
            guard decoder.generation == generation else { throw decoder.outlived(key, generation) }
            guard let index = decoder.columnIfPresent(key) else { return nil }
            let stored = sqlite3_column_type(decoder.handle, index)
            if stored == storage { return index }
            if stored == SQLITE_NULL { return nil }
            throw decoder.mismatch(at: index, stored: stored)
        }
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let index = try present(key, SQLITE_INTEGER) else { return nil }
        return try bool(at: index, key)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let index = try present(key, SQLITE_TEXT) else { return nil }
        return try string(at: index)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try present(key, SQLITE_FLOAT).map { sqlite3_column_double(decoder.handle, $0) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let index = try present(key, SQLITE_FLOAT) else { return nil }
        return try float(at: index, key)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try present(key, SQLITE_INTEGER).map { sqlite3_column_int64(decoder.handle, $0) }
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = try columnIfPresent(key) else { return nil }
        let stored = sqlite3_column_type(decoder.handle, index)
        if stored == SQLITE_NULL { return nil }
        return try decoder.decodeValue(T.self, at: index, stored: stored)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw PersistenceError(
            .decodingFailed, "\(decoder.schema.entityName) reads a nested container for '\(key.stringValue)'.")
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw PersistenceError(
            .decodingFailed, "\(decoder.schema.entityName) reads a nested array for '\(key.stringValue)'.")
    }
    func superDecoder() throws -> any Decoder {
        throw PersistenceError(.decodingFailed, "\(decoder.schema.entityName) uses superDecoder().")
    }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw PersistenceError(.decodingFailed, "\(decoder.schema.entityName) uses superDecoder(forKey:).")
    }
}
