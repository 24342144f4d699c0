import Foundation

/// Converts the types the store keeps in a column of their own (`Date`, `UUID`, `URL`, `Data`).
enum SpecialValues {
    @inline(__always)
    static func databaseValue(of value: Any) -> DatabaseValue? {
        switch value {
        case let date as Date: .real(date.timeIntervalSince1970)
        case let uuid as UUID: .text(uuid.uuidString)
        case let url as URL: .text(url.absoluteString)
        case let data as Data: .blob(data)
        default: nil
        }
    }

    static func isSpecial<T>(_ type: T.Type) -> Bool {
        type == Date.self || type == UUID.self || type == URL.self || type == Data.self
    }
}

/// Encodes one value into one column value; notes when the value needs a container (JSON).
final class SingleValueCapture: Encoder, SingleValueEncodingContainer {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    var value: DatabaseValue?
    var needsJSON = false

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        needsJSON = true
        return KeyedEncodingContainer(DiscardingKeyedContainer<Key>())
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        needsJSON = true
        return DiscardingUnkeyedContainer()
    }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() { value = .null }
    func encode(_ value: Bool) { self.value = .integer(value ? 1 : 0) }
    func encode(_ value: String) { self.value = .text(value) }
    func encode(_ value: Double) { self.value = .real(value) }
    func encode(_ value: Float) { self.value = .real(Double(value)) }
    func encode(_ value: Int) { self.value = .integer(Int64(value)) }
    func encode(_ value: Int8) { self.value = .integer(Int64(value)) }
    func encode(_ value: Int16) { self.value = .integer(Int64(value)) }
    func encode(_ value: Int32) { self.value = .integer(Int64(value)) }
    func encode(_ value: Int64) { self.value = .integer(value) }
    func encode(_ value: UInt8) { self.value = .integer(Int64(value)) }
    func encode(_ value: UInt16) { self.value = .integer(Int64(value)) }
    func encode(_ value: UInt32) { self.value = .integer(Int64(value)) }
    func encode(_ value: UInt) throws { self.value = .integer(try RowValues.int64(value)) }
    func encode(_ value: UInt64) throws { self.value = .integer(try RowValues.int64(value)) }
    func encode<T: Encodable>(_ value: T) throws {
        if let special = SpecialValues.databaseValue(of: value) {
            self.value = special
        } else {
            try value.encode(to: self)
        }
    }
}

struct DiscardingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {}
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        DiscardingUnkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { SingleValueCapture() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { SingleValueCapture() }
}

struct DiscardingUnkeyedContainer: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }
    mutating func encodeNil() {}
    mutating func encode<T: Encodable>(_ value: T) {}
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { DiscardingUnkeyedContainer() }
    mutating func superEncoder() -> any Encoder { SingleValueCapture() }
}

/// Thrown inside ``ColumnValueDecoder`` when a value wants a container: decode it from JSON.
struct NeedsJSON: Error {}

/// Decodes one value from one column of the current row.
struct ColumnValueDecoder: Decoder, SingleValueDecodingContainer {
    let statement: Statement
    let index: Int32
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw NeedsJSON() }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NeedsJSON() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { statement.isNull(index) }
    private func nonNull<T>(_ type: T.Type) throws {
        if statement.isNull(index) {
            throw DecodingError.valueNotFound(
                T.self, .init(codingPath: codingPath, debugDescription: "The column is NULL."))
        }
    }
    func decode(_ type: Bool.Type) throws -> Bool {
        try nonNull(type)
        return statement.int64(index) != 0
    }
    func decode(_ type: String.Type) throws -> String {
        try nonNull(type)
        return statement.text(index)
    }
    func decode(_ type: Double.Type) throws -> Double {
        try nonNull(type)
        return statement.double(index)
    }
    func decode(_ type: Float.Type) throws -> Float {
        try nonNull(type)
        return Float(statement.double(index))
    }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try nonNull(type)
        if let integer = try RowValues.integer(statement.int64(index), as: T.self, codingPath: codingPath) {
            return integer
        }
        if SpecialValues.isSpecial(T.self) {
            return try RowValues.special(T.self, statement: statement, index: index, codingPath: codingPath)
        }
        return try T(from: self)
    }
}

/// Shared conversions for the row coders.
enum RowValues {
    static func int64<I: BinaryInteger>(_ value: I) throws -> Int64 {
        guard let result = Int64(exactly: value) else {
            throw PersistenceError(
                .unsupportedValue,
                "The integer \(value) does not fit in SQLite's 64-bit signed integer; store it as a String instead.")
        }
        return result
    }

    /// The raw integer as `T`, when `T` is an integer type; `nil` when it is not.
    static func integer<T>(_ raw: Int64, as type: T.Type, codingPath: [any CodingKey]) throws -> T? {
        guard let integerType = T.self as? any FixedWidthInteger.Type else { return nil }
        guard let value = integerType.init(exactly: raw) as? T else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "The stored integer \(raw) does not fit in \(T.self)."))
        }
        return value
    }

    static func special<T>(_ type: T.Type, statement: Statement, index: Int32, codingPath: [any CodingKey]) throws -> T
    {
        let value: Any?
        switch type {
        case is Date.Type: value = Date(timeIntervalSince1970: statement.double(index))
        case is UUID.Type: value = UUID(uuidString: statement.text(index))
        case is URL.Type: value = URL(string: statement.text(index))
        case is Data.Type: value = statement.blob(index)
        default: value = nil
        }
        guard let result = value as? T else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "The stored value is not a valid \(T.self)."))
        }
        return result
    }
}
