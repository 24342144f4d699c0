import CAtomicWord
import Foundation
import Locking

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// The `Encoder` an entity's `encode(to:)` receives for one row: the row's encoder and its
/// generation. A copy kept past the row writes nothing: its containers fail.
struct RowEncodingScope: Encoder {
    let unmanaged: Unmanaged<RowEncoder>
    let generation: UInt
    var encoder: RowEncoder { unmanaged._withUnsafeGuaranteedRef { $0 } }
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        guard encoder.generation == generation else {
            // A scope kept past its row: a container whose every write fails (no stamp is 0).
            return KeyedEncodingContainer(RowKeyedEncoder<Key>(unmanaged: unmanaged, stamp: 0, row: generation))
        }
        return encoder.keyedContainer(Key.self, row: generation)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        guard encoder.generation == generation else { return DiscardingUnkeyedContainer() }
        return encoder.unkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        guard encoder.generation == generation else { return SingleValueCapture() }
        return encoder.singleValueContainer()
    }
}

/// The keyed container of an entity's rows. It refers to its encoder unretained (encoders are
/// never freed, see ``RowEncoder``) and binds only while its stamp is the encoder's container
/// stamp: during a row's `encode(to:)`, and only until it is kept past a row; used later, every
/// write throws and nothing reaches another row's statement.
struct RowKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let unmanaged: Unmanaged<RowEncoder>
    let stamp: UInt
    /// The row it was made for: what names its entity in the error of a late write.
    let row: UInt
    var encoder: RowEncoder { unmanaged._withUnsafeGuaranteedRef { $0 } }
    var codingPath: [any CodingKey] { [] }

    /// `key`'s 1-based parameter, after checking that this container's row is still being encoded.
    @inline(__always)
    private func parameter(_ key: Key) throws -> Int32 {
        guard encoder.containerStamp == stamp else { throw encoder.outlived(key, row) }
        return try encoder.parameter(key)
    }

    /// Whether this container's row is still being encoded (a late nested or super request
    /// must not record a failure against another row).
    private var isCurrent: Bool { encoder.containerStamp == stamp }

    /// Binds an integer. A property written in order to a plain integer column (after the first
    /// row, every one a synthesized `encode(to:)` writes) is bound here, in a few instructions
    /// kept together; anything else, and every failure, by ``anyInteger(_:_:)``.
    @inline(__always)
    private func integer(_ value: Int64, _ key: Key) throws {
        let bound = unmanaged._withUnsafeGuaranteedRef { encoder -> Bool in
            guard encoder.containerStamp == stamp, let parameter = encoder.predictedParameter(key) else { return false }
            let index = Int(parameter) - 1
            guard encoder.kinds[index] == .integer, encoder.integerRanges[index] == nil else {
                encoder.next -= 1
                return false
            }
            sqlite3_bind_int64(encoder.handle, parameter, value)
            return true
        }
        if !bound { try anyInteger(value, key) }
    }

    /// ``integer(_:_:)`` for a key found by name, a narrow integer, and every failure.
    @inline(never)
    private func anyInteger(_ value: Int64, _ key: Key) throws {
        try unmanaged._withUnsafeGuaranteedRef { encoder in
            guard encoder.containerStamp == stamp else { throw encoder.outlived(key, row) }
            let index = try encoder.parameter(key)
            try encoder.expect(.integer, at: index, wrote: "an integer")
            if let range = encoder.integerRanges[Int(index) - 1], !range.contains(value) {
                throw encoder.outOfRange(value, at: index)
            }
            sqlite3_bind_int64(encoder.handle, index, value)
        }
    }

    private func unsigned(_ value: some BinaryInteger, _ key: Key) throws {
        let index = try parameter(key)
        try encoder.expect(.integer, at: index, wrote: "an integer")
        guard let exact = Int64(exactly: value) else {
            throw encoder.refused(
                ValueCoding.unsupported(
                    encoder.schema, encoder.schema.columns[Int(index) - 1],
                    "is \(value), which does not fit in SQLite's 64-bit signed integer (at most \(Int64.max)). "
                        + "Store it as a String instead."))
        }
        sqlite3_bind_int64(encoder.handle, index, exact)
    }

    mutating func encodeNil(forKey key: Key) throws {
        let index = try parameter(key)
        encoder.bindNull(at: index)
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try unmanaged._withUnsafeGuaranteedRef { encoder in
            guard encoder.containerStamp == stamp else { throw encoder.outlived(key, row) }
            let index = try encoder.parameter(key)
            try encoder.expect(.bool, at: index, wrote: "a Bool")
            sqlite3_bind_int64(encoder.handle, index, value ? 1 : 0)
        }
    }
    @inline(__always)
    mutating func encode(_ value: Int, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try integer(Int64(value), key) }
    @inline(__always)
    mutating func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try unsigned(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try integer(Int64(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try unsigned(value, key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try unmanaged._withUnsafeGuaranteedRef { encoder in
            guard encoder.containerStamp == stamp else { throw encoder.outlived(key, row) }
            let index = try encoder.parameter(key)
            try encoder.expect(.double, at: index, wrote: "a Double")
            try encoder.bindDouble(value, at: index)
        }
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        let index = try parameter(key)
        try encoder.expect(.float, at: index, wrote: "a Float")
        try encoder.bindDouble(Double(value), at: index)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        try unmanaged._withUnsafeGuaranteedRef { encoder in
            guard encoder.containerStamp == stamp else { throw encoder.outlived(key, row) }
            let index = try encoder.parameter(key)
            try encoder.expect(.string, at: index, wrote: "a String")
            encoder.bindString(value, at: index)
        }
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let index = try parameter(key)
        try encoder.bindValue(value, at: index)
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
        guard isCurrent else { return KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>()) }
        encoder.failure = PersistenceError(
            .encodingFailed,
            "\(encoder.schema.entityName) writes a nested container for '\(key.stringValue)'; "
                + "encode a nested value with encode(_:forKey:) so it is stored as JSON.")
        return KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        guard isCurrent else { return DiscardingUnkeyedContainer() }
        encoder.failure = PersistenceError(
            .encodingFailed,
            "\(encoder.schema.entityName) writes a nested array for '\(key.stringValue)'; "
                + "encode the array with encode(_:forKey:) so it is stored as JSON.")
        return DiscardingUnkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder {
        guard isCurrent else { return SingleValueCapture() }
        encoder.failure = PersistenceError(.encodingFailed, "\(encoder.schema.entityName) uses superEncoder().")
        return SingleValueCapture()
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        guard isCurrent else { return SingleValueCapture() }
        encoder.failure = PersistenceError(.encodingFailed, "\(encoder.schema.entityName) uses superEncoder(forKey:).")
        return SingleValueCapture()
    }
}
