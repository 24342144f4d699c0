import Foundation

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
    var next = 0
    private lazy var json = JSONDecoder()

    init(schema: EntitySchema, statement: Statement) {
        self.schema = schema
        names = schema.names
        count = names.count
        self.statement = statement
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
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' is NULL but \(type) is not optional"
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
        if next < count, names[next] == name {
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
        KeyedDecodingContainer(RowKeyedDecoder<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw PersistenceError(
            .decodingFailed, "\(schema.entityName) decodes itself from an array; an entity must decode a keyed container.")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw PersistenceError(
            .decodingFailed, "\(schema.entityName) decodes itself from one value; an entity must decode a keyed container.")
    }
}

struct RowKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: RowDecoder
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

    @inline(__always)
    private func exact<I: FixedWidthInteger>(_ key: Key, _ type: I.Type) throws -> I {
        let raw = decoder.statement.int64(try nonNull(key, type))
        guard let value = I(exactly: raw) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [key], debugDescription: "The stored integer \(raw) does not fit in \(I.self)."))
        }
        return value
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        decoder.statement.int64(try nonNull(key, type)) != 0
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        decoder.statement.text(try nonNull(key, type))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        decoder.statement.double(try nonNull(key, type))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        Float(decoder.statement.double(try nonNull(key, type)))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        Int(truncatingIfNeeded: decoder.statement.int64(try nonNull(key, type)))
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        decoder.statement.int64(try nonNull(key, type))
    }
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
        let index = try decoder.column(key)
        return decoder.statement.isNull(index) ? nil : index
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try present(key).map { decoder.statement.int64($0) != 0 }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try present(key).map { decoder.statement.text($0) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try present(key).map { decoder.statement.double($0) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try present(key).map { Int(truncatingIfNeeded: decoder.statement.int64($0)) }
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try present(key).map { decoder.statement.int64($0) }
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
