import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// Decodes entities straight from a statement's current row.
///
/// One instance is reused for every row of a statement run: column positions are
/// resolved once and the next column is predicted from property order.
final class RowDecoder: Decoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    let schema: EntitySchema
    let names: [String]
    let count: Int
    var statement: Statement
    /// The statement's handle, read directly on the hot path (no retain/release per column).
    let handle: OpaquePointer
    @exclusivity(unchecked) var next = 0
    private lazy var json = JSONDecoder()

    /// The keyed container handed out for every row (it holds no per-row state), kept in raw
    /// memory so returning it costs one load rather than two metadata lookups, an allocation
    /// and a deallocation per row.
    private var cachedKeyType: ObjectIdentifier?
    private var cachedContainer: UnsafeMutableRawPointer?
    private var destroyCachedContainer: ((UnsafeMutableRawPointer) -> Void)?

    /// The column names in raw memory: reading one per column costs no retain of an array buffer.
    private let namePointer: UnsafeMutablePointer<String>

    deinit {
        if let cachedContainer, let destroyCachedContainer { destroyCachedContainer(cachedContainer) }
        namePointer.deinitialize(count: count)
        namePointer.deallocate()
    }

    init(schema: EntitySchema, statement: Statement) {
        self.schema = schema
        names = schema.names
        count = names.count
        self.statement = statement
        handle = statement.handle
        namePointer = UnsafeMutablePointer<String>.allocate(capacity: max(1, names.count))
        namePointer.initialize(from: names, count: names.count)
    }

    /// Decodes the statement's current row.
    @inline(__always)
    func decodeRow<E: Decodable>(_ type: E.Type) throws(PersistenceError) -> E {
        next = 0
        do {
            return try E(from: self)
        } catch let error as PersistenceError {
            throw error
        } catch {
            throw PersistenceError(
                .decodingFailed,
                "A stored \(schema.entityName) row could not be decoded: \(Self.describe(error)). "
                    + "If the entity changed, add a Migration that converts the stored rows.",
                entity: schema.entityName, property: Self.property(of: error))
        }
    }

    static func property(of error: any Error) -> String? {
        guard let error = error as? DecodingError else { return nil }
        switch error {
        case .keyNotFound(let key, _): return key.stringValue
        case .valueNotFound(_, let context), .typeMismatch(_, let context), .dataCorrupted(let context):
            return context.codingPath.first?.stringValue
        @unknown default: return nil
        }
    }

    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, _): return "no column for '\(key.stringValue)'"
        case .valueNotFound(let type, let context):
            return
                "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' is NULL but \(type) is not optional"
        case .typeMismatch(let type, let context):
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' is not a \(type)"
        case .dataCorrupted(let context):
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))': \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    /// The 0-based column index for `key`.
    @inline(__always)
    func column(_ key: some CodingKey) throws -> Int32 {
        let name = key.stringValue
        if next < count, namePointer[next] == name {
            next += 1
            return Int32(next - 1)
        }
        guard let index = schema.indexByName[name] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: [key], debugDescription: "\(schema.entityName) has no column '\(name)'."))
        }
        next = index + 1
        return Int32(index)
    }

    func decodeValue<T: Decodable>(_ type: T.Type, at index: Int32, key: some CodingKey) throws -> T {
        let decoder = ColumnValueDecoder(statement: statement, index: index, codingPath: [key])
        do {
            return try decoder.decode(T.self)
        } catch is NeedsJSON {
            do {
                return try json.decode(T.self, from: statement.bytes(index))
            } catch {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: [key], debugDescription: "The stored JSON is not a valid \(T.self): \(error)"))
            }
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        if cachedKeyType == ObjectIdentifier(Key.self), let cachedContainer {
            return cachedContainer.load(as: KeyedDecodingContainer<Key>.self)
        }
        let container = KeyedDecodingContainer(RowKeyedDecoder<Key>(unmanaged: Unmanaged.passUnretained(self)))
        if cachedContainer == nil {
            let storage = UnsafeMutableRawPointer.allocate(
                byteCount: MemoryLayout<KeyedDecodingContainer<Key>>.size,
                alignment: MemoryLayout<KeyedDecodingContainer<Key>>.alignment)
            storage.initializeMemory(as: KeyedDecodingContainer<Key>.self, repeating: container, count: 1)
            cachedContainer = storage
            cachedKeyType = ObjectIdentifier(Key.self)
            destroyCachedContainer = { storage in
                storage.assumingMemoryBound(to: KeyedDecodingContainer<Key>.self).deinitialize(count: 1)
                storage.deallocate()
            }
        }
        return container
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw PersistenceError(
            .decodingFailed,
            "\(schema.entityName) decodes itself from an array; an entity must decode a keyed container.")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw PersistenceError(
            .decodingFailed,
            "\(schema.entityName) decodes itself from one value; an entity must decode a keyed container.")
    }
}

struct RowKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    // Unretained: the decoder keeps this container cached, so a strong reference would be a
    // cycle. A container lives only inside the `init(from:)` call that asked the decoder for it,
    // while the decoder is alive; the guaranteed reference also spares a retain per column.
    let unmanaged: Unmanaged<RowDecoder>
    var decoder: RowDecoder { unmanaged._withUnsafeGuaranteedRef { $0 } }
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { decoder.names.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { decoder.schema.indexByName[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        decoder.statement.isNull(try decoder.column(key))
    }

    @inline(__always)
    private func nonNull<T>(_ key: Key, _ type: T.Type) throws -> Int32 {
        let index = try decoder.column(key)
        if decoder.statement.isNull(index) {
            throw DecodingError.valueNotFound(
                T.self, .init(codingPath: [key], debugDescription: "The column is NULL."))
        }
        return index
    }

    /// Reads a non-optional integer: NULL reads as 0, so the column type is only checked for 0.
    @inline(__always)
    private func int64(_ key: Key) throws -> Int64 {
        try unmanaged._withUnsafeGuaranteedRef { decoder in
            let index = try decoder.column(key)
            let value = sqlite3_column_int64(decoder.handle, index)
            if value == 0, sqlite3_column_type(decoder.handle, index) == SQLITE_NULL {
                throw DecodingError.valueNotFound(
                    Int64.self, .init(codingPath: [key], debugDescription: "The column is NULL."))
            }
            return value
        }
    }

    @inline(__always)
    private func double(_ key: Key) throws -> Double {
        try unmanaged._withUnsafeGuaranteedRef { decoder in
            let index = try decoder.column(key)
            let value = sqlite3_column_double(decoder.handle, index)
            if value == 0, sqlite3_column_type(decoder.handle, index) == SQLITE_NULL {
                throw DecodingError.valueNotFound(
                    Double.self, .init(codingPath: [key], debugDescription: "The column is NULL."))
            }
            return value
        }
    }

    @inline(__always)
    private func exact<I: FixedWidthInteger>(_ key: Key, _ type: I.Type) throws -> I {
        let raw = try int64(key)
        guard let value = I(exactly: raw) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [key], debugDescription: "The stored integer \(raw) does not fit in \(I.self)."))
        }
        return value
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try int64(key) != 0 }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try unmanaged._withUnsafeGuaranteedRef { decoder in
            let index = try decoder.column(key)
            guard let pointer = sqlite3_column_text(decoder.handle, index) else {
                throw DecodingError.valueNotFound(
                    String.self, .init(codingPath: [key], debugDescription: "The column is NULL."))
            }
            let count = Int(sqlite3_column_bytes(decoder.handle, index))
            return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
        }
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try double(key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try double(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { Int(truncatingIfNeeded: try int64(key)) }
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
        try decoder.decodeValue(T.self, at: try nonNull(key, type), key: key)
    }

    @inline(__always)
    private func present(_ key: Key) throws -> Int32? {
        try unmanaged._withUnsafeGuaranteedRef { decoder in
            let index = try decoder.column(key)
            return sqlite3_column_type(decoder.handle, index) == SQLITE_NULL ? nil : index
        }
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try present(key).map { sqlite3_column_int64(decoder.handle, $0) != 0 }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try present(key).map { decoder.statement.text($0) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try present(key).map { sqlite3_column_double(decoder.handle, $0) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try present(key).map { Int(truncatingIfNeeded: sqlite3_column_int64(decoder.handle, $0)) }
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try present(key).map { sqlite3_column_int64(decoder.handle, $0) }
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = try present(key) else { return nil }
        return try decoder.decodeValue(T.self, at: index, key: key)
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
