import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// Binds an entity's properties straight to a prepared statement's parameters.
///
/// One instance is reused for every row written through a statement: column positions
/// are resolved once, and the next column is predicted from property order (a key is
/// compared with the expected name; a dictionary is the fallback).
final class RowEncoder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    let schema: EntitySchema
    let names: [String]
    let count: Int
    var statement: Statement?
    /// The statement's handle, bound directly on the hot path.
    var handle: OpaquePointer?
    @exclusivity(unchecked) var next = 0
    /// Which columns this row bound (bit per column), when the entity has at most 64.
    @exclusivity(unchecked) var boundMask: UInt64 = 0
    let fullMask: UInt64?
    var failure: (any Error)?
    private lazy var json: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    init(schema: EntitySchema) {
        self.schema = schema
        names = schema.names
        count = names.count
        fullMask = count <= 64 ? (count == 64 ? UInt64.max : (UInt64(1) << UInt64(count)) - 1) : nil
    }

    /// Binds every column of `entity` to `statement` (a statement numbered in column order).
    func bind<E: Encodable>(_ entity: E, to statement: Statement) throws(PersistenceError) {
        self.statement = statement
        handle = statement.handle
        next = 0
        failure = nil
        boundMask = 0
        // Bindings outlive a reset: a column the entity skipped would keep the previous row's value.
        if fullMask == nil { statement.clearBindings() }
        do {
            try entity.encode(to: self)
        } catch {
            throw wrap(error)
        }
        if let failure { throw wrap(failure) }
        if let fullMask, boundMask != fullMask {
            for index in 0..<count where boundMask & (UInt64(1) << UInt64(index)) == 0 {
                statement.bindNull(at: Int32(index + 1))
            }
        }
    }

    private func wrap(_ error: any Error) -> PersistenceError {
        if let error = error as? PersistenceError {
            return PersistenceError(
                error.kind, "\(schema.entityName): \(error.message)", entity: schema.entityName,
                property: error.property, sqliteCode: error.sqliteCode)
        }
        return PersistenceError(
            .encodingFailed, "\(schema.entityName) could not be encoded into a row: \(error).",
            entity: schema.entityName)
    }

    /// The 1-based parameter index for `key`.
    @inline(__always)
    func parameter(_ key: some CodingKey) throws -> Int32 {
        let name = key.stringValue
        if next < count, names[next] == name {
            boundMask |= UInt64(1) << UInt64(next & 63)
            next += 1
            return Int32(next)
        }
        guard let index = schema.indexByName[name] else {
            throw PersistenceError(
                .encodingFailed,
                "\(schema.entityName) encodes a key '\(name)' that its decoder never reads, so it has no column.",
                entity: schema.entityName, property: name)
        }
        boundMask |= UInt64(1) << UInt64(index & 63)
        next = index + 1
        return Int32(next)
    }

    func bindValue<T: Encodable>(_ value: T, at index: Int32, key: String) throws {
        guard let statement else { return }
        if let special = SpecialValues.databaseValue(of: value) {
            try statement.bind(special, at: index)
            return
        }
        let capture = SingleValueCapture()
        try value.encode(to: capture)
        if capture.needsJSON {
            let data = try json.encode(value)
            statement.bindText(String(decoding: data, as: UTF8.self), at: index)
        } else if let captured = capture.value {
            try statement.bind(captured, at: index)
        } else {
            statement.bindNull(at: index)
        }
    }

    /// The keyed container handed out for every row (it holds no per-row state), kept in raw
    /// memory so returning it costs one load rather than two metadata lookups, an allocation
    /// and a deallocation per row.
    private var cachedKeyType: ObjectIdentifier?
    private var cachedContainer: UnsafeMutableRawPointer?
    private var destroyCachedContainer: ((UnsafeMutableRawPointer) -> Void)?

    deinit {
        if let cachedContainer, let destroyCachedContainer { destroyCachedContainer(cachedContainer) }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if cachedKeyType == ObjectIdentifier(Key.self), let cachedContainer {
            return cachedContainer.load(as: KeyedEncodingContainer<Key>.self)
        }
        let container = KeyedEncodingContainer(RowKeyedEncoder<Key>(unmanaged: Unmanaged.passUnretained(self)))
        if cachedContainer == nil {
            let storage = UnsafeMutableRawPointer.allocate(
                byteCount: MemoryLayout<KeyedEncodingContainer<Key>>.size,
                alignment: MemoryLayout<KeyedEncodingContainer<Key>>.alignment)
            storage.initializeMemory(as: KeyedEncodingContainer<Key>.self, repeating: container, count: 1)
            cachedContainer = storage
            cachedKeyType = ObjectIdentifier(Key.self)
            destroyCachedContainer = { storage in
                storage.assumingMemoryBound(to: KeyedEncodingContainer<Key>.self).deinitialize(count: 1)
                storage.deallocate()
            }
        }
        return container
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        failure = PersistenceError(
            .encodingFailed, "\(schema.entityName) encodes itself as an array; an entity must encode a keyed container."
        )
        return DiscardingUnkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        failure = PersistenceError(
            .encodingFailed,
            "\(schema.entityName) encodes itself as a single value; an entity must encode a keyed container.")
        return SingleValueCapture()
    }
}

struct RowKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    // Unretained: the encoder keeps this container cached, so a strong reference would be a
    // cycle. A container lives only inside the `encode(to:)` call that asked the encoder for it,
    // while the encoder is alive; the guaranteed reference also spares a retain per column.
    let unmanaged: Unmanaged<RowEncoder>
    var encoder: RowEncoder { unmanaged.takeUnretainedValue() }
    var codingPath: [any CodingKey] { [] }

    @inline(__always)
    private func integer(_ value: Int64, _ key: Key) throws {
        try unmanaged._withUnsafeGuaranteedRef { encoder in
            let index = try encoder.parameter(key)
            sqlite3_bind_int64(encoder.handle, index, value)
        }
    }

    mutating func encodeNil(forKey key: Key) throws {
        let index = try encoder.parameter(key)
        sqlite3_bind_null(encoder.handle, index)
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try integer(value ? 1 : 0, key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try integer(try RowValues.int64(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try integer(try RowValues.int64(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        let index = try encoder.parameter(key)
        sqlite3_bind_double(encoder.handle, index, value)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        let index = try encoder.parameter(key)
        sqlite3_bind_double(encoder.handle, index, Double(value))
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        let index = try encoder.parameter(key)
        encoder.statement?.bindText(value, at: index)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let index = try encoder.parameter(key)
        try encoder.bindValue(value, at: index, key: key.stringValue)
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.failure = PersistenceError(
            .encodingFailed,
            "\(encoder.schema.entityName) writes a nested container for '\(key.stringValue)'; "
                + "encode a nested value with encode(_:forKey:) so it is stored as JSON.")
        return KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.failure = PersistenceError(
            .encodingFailed,
            "\(encoder.schema.entityName) writes a nested array for '\(key.stringValue)'; "
                + "encode the array with encode(_:forKey:) so it is stored as JSON.")
        return DiscardingUnkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder {
        encoder.failure = PersistenceError(.encodingFailed, "\(encoder.schema.entityName) uses superEncoder().")
        return SingleValueCapture()
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.failure = PersistenceError(.encodingFailed, "\(encoder.schema.entityName) uses superEncoder(forKey:).")
        return SingleValueCapture()
    }
}
