import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// How store format 1 held a column, for reading the files it wrote (see ``FormatMigration``).
enum LegacyStorage: Sendable, Hashable {
    /// As format 2 holds it.
    case same
    /// A `Date`: seconds since 1970 in a `REAL` column.
    case date1970
    /// A single-value type format 1 kept as the primitive its sample encoded to (format 2 keeps
    /// it as JSON); the payload says which primitive.
    case primitive(SingleValueCapture.Captured)
    /// JSON text, as format 2.
    case json

    /// How format 1 stored a type that format 2 stores as JSON: it encoded a default sample and
    /// kept a single primitive in its own column.
    static func of<T: Decodable>(_ type: T.Type) -> LegacyStorage {
        guard let (sample, _) = SampleValue.make(T.self), let encodable = sample as? any Encodable else { return .json }
        let capture = SingleValueCapture()
        guard (try? encodable.encode(to: capture)) != nil, !capture.needsJSON, let captured = capture.captured else {
            return .json
        }
        return .primitive(captured)
    }
}

/// Encodes one value and notes which primitive it wrote, or that it wanted a container.
final class SingleValueCapture: Encoder, SingleValueEncodingContainer {
    enum Captured: Sendable, Hashable { case null, bool, integer, real, text, blob, date1970 }
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    var captured: Captured?
    /// The primitive itself, when one was encoded.
    var value: AnyHashable?
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

    func encodeNil() { captured = .null }
    func encode(_ value: Bool) { (captured, self.value) = (.bool, value) }
    func encode(_ value: String) { (captured, self.value) = (.text, value) }
    func encode(_ value: Double) { (captured, self.value) = (.real, value) }
    func encode(_ value: Float) { (captured, self.value) = (.real, value) }
    func encode(_ value: Int) { (captured, self.value) = (.integer, value) }
    func encode(_ value: Int8) { (captured, self.value) = (.integer, value) }
    func encode(_ value: Int16) { (captured, self.value) = (.integer, value) }
    func encode(_ value: Int32) { (captured, self.value) = (.integer, value) }
    func encode(_ value: Int64) { (captured, self.value) = (.integer, value) }
    func encode(_ value: UInt) { (captured, self.value) = (.integer, value) }
    func encode(_ value: UInt8) { (captured, self.value) = (.integer, value) }
    func encode(_ value: UInt16) { (captured, self.value) = (.integer, value) }
    func encode(_ value: UInt32) { (captured, self.value) = (.integer, value) }
    func encode(_ value: UInt64) { (captured, self.value) = (.integer, value) }
    func encode<T: Encodable>(_ value: T) throws {
        switch value {
        case is Date: captured = .date1970
        case is UUID, is URL: captured = .text
        case is Data: captured = .blob
        case is Decimal: captured = .text
        default: try value.encode(to: self)
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

/// Turns property values into column values and back, by the column's ``ValueKind``, refusing
/// anything that would not come back exactly.
enum ValueCoding {
    // MARK: Errors

    static func mismatch(_ schema: EntitySchema, _ column: ColumnSchema, stored: Int32) -> PersistenceError {
        PersistenceError(
            .typeMismatch,
            "\(schema.entityName).\(column.name) holds a \(Storage.name(ofSQLiteType: stored)) value, but the property "
                + "(\(column.swiftType)) is stored as \(column.storage.rawValue). The row was changed outside the "
                + "entity's own writes; fix it with a Migration.",
            entity: schema.entityName, property: column.name)
    }

    static func unsupported(_ schema: EntitySchema, _ column: ColumnSchema, _ problem: String) -> PersistenceError {
        PersistenceError(
            .unsupportedValue, "\(schema.entityName).\(column.name) \(problem)", entity: schema.entityName,
            property: column.name)
    }

    static func wrongWrite(_ schema: EntitySchema, _ column: ColumnSchema, wrote: String) -> PersistenceError {
        PersistenceError(
            .typeMismatch,
            "\(schema.entityName).\(column.name) is read as \(column.swiftType) (stored as \(column.storage.rawValue)), "
                + "but encode(to:) writes \(wrote) for it. Encode the same type init(from:) decodes.",
            entity: schema.entityName, property: column.name)
    }

    // MARK: Writing

    /// The column value of `value`, a value of the column's declared type (or its raw value).
    /// `json` encodes a JSON column's value; `nil` makes an encoder for it.
    static func databaseValue(
        of value: Any, column: ColumnSchema, schema: EntitySchema, json: JSONEncoder?
    ) throws(PersistenceError) -> DatabaseValue {
        var value = value
        if column.isRaw {
            guard let raw = value as? any RawRepresentable else {
                throw wrongWrite(schema, column, wrote: "a \(type(of: value))")
            }
            value = raw.rawValue
        }
        switch column.kind {
        case .integer:
            guard let integer = value as? any BinaryInteger, !(value is Bool) else { break }
            guard let exact = Int64(exactly: integer) else {
                throw unsupported(
                    schema, column,
                    "is \(integer), which does not fit in SQLite's 64-bit signed integer (at most \(Int64.max)). "
                        + "Store it as a String instead.")
            }
            return .integer(exact)
        case .bool:
            if let bool = value as? Bool { return .integer(bool ? 1 : 0) }
        case .double:
            if let double = value as? Double { return try real(double, column, schema) }
        case .float:
            if let float = value as? Float { return try real(Double(float), column, schema) }
        case .string:
            if let string = value as? String { return .text(string) }
        case .data:
            if let data = value as? Data { return .blob(data) }
        case .date:
            if let date = value as? Date { return try real(date.timeIntervalSinceReferenceDate, column, schema) }
        case .uuid:
            if let uuid = value as? UUID { return .text(uuid.uuidString) }
        case .url:
            if let url = value as? URL {
                guard url.baseURL == nil else {
                    throw unsupported(
                        schema, column,
                        "is a URL relative to a base URL (\(url.relativeString) against its base); the base would be "
                            + "lost. Store url.absoluteURL instead.")
                }
                return .text(url.absoluteString)
            }
        case .decimal:
            if let decimal = value as? Decimal {
                guard !decimal.isNaN else {
                    throw unsupported(schema, column, "is Decimal.nan, which the store refuses (it has no exact text).")
                }
                return .text(decimal.description)
            }
        case .json:
            guard let encodable = value as? any Encodable else { break }
            return .text(
                try StoreJSON.encode(encodable, column: column, schema: schema, using: json ?? StoreJSON.makeEncoder()))
        }
        throw wrongWrite(schema, column, wrote: "a \(type(of: value))")
    }

    @inline(__always)
    static func real(
        _ value: Double, _ column: ColumnSchema, _ schema: EntitySchema
    ) throws(PersistenceError)
        -> DatabaseValue
    {
        guard !value.isNaN else { throw nan(schema, column) }
        return .real(value)
    }

    static func nan(_ schema: EntitySchema, _ column: ColumnSchema) -> PersistenceError {
        unsupported(
            schema, column,
            "is NaN. The store refuses NaN (SQLite would store it as NULL, and NaN is not equal to itself, so it "
                + "could not come back as written); store nil in an Optional instead.")
    }

    // MARK: Reading

    /// Reads the column at `index` of the statement's current row as a value of `T` (the
    /// property's type), checking the stored SQLite type first.
    static func read<T: Decodable>(
        _ type: T.Type, at index: Int32, handle: OpaquePointer, column: ColumnSchema, schema: EntitySchema,
        json: JSONDecoder
    ) throws(PersistenceError) -> T {
        let stored = sqlite3_column_type(handle, index)
        guard stored == column.storage.sqliteType else { throw mismatch(schema, column, stored: stored) }
        if column.kind == .json {
            let bytes = Data(rawText(handle, index))
            return try StoreJSON.decode(T.self, from: bytes, column: column, schema: schema, using: json)
        }
        var value = try primitive(at: index, handle: handle, column: column, schema: schema, as: T.self)
        if column.isRaw, let rawType = T.self as? any RawRepresentable.Type {
            guard let made = makeRaw(rawType, from: value) else {
                throw PersistenceError(
                    .typeMismatch,
                    "\(schema.entityName).\(column.name) holds the raw value \(describe(value)), which is not a "
                        + "valid \(column.swiftType). Add the case back, or migrate the rows that use it.",
                    entity: schema.entityName, property: column.name)
            }
            value = made
        }
        guard let result = value as? T else {
            throw PersistenceError(
                .typeMismatch,
                "\(schema.entityName).\(column.name) is stored as \(column.swiftType), but init(from:) reads it as "
                    + "\(T.self). Decode the type the property was declared with.",
                entity: schema.entityName, property: column.name)
        }
        return result
    }

    private static func makeRaw<R: RawRepresentable>(_ type: R.Type, from raw: Any) -> Any? {
        (raw as? R.RawValue).flatMap(R.init(rawValue:))
    }

    private static func describe(_ value: Any) -> String {
        if let text = value as? String { return "\"\(text.prefix(80))\"" }
        return "\(value)"
    }

    /// The value of a primitive column (already checked to have the column's storage class),
    /// as the integer type `T` asks for when the column holds integers.
    private static func primitive<T>(
        at index: Int32, handle: OpaquePointer, column: ColumnSchema, schema: EntitySchema, as type: T.Type
    ) throws(PersistenceError) -> Any {
        func corrupt(_ detail: String) -> PersistenceError {
            PersistenceError(
                .typeMismatch, "\(schema.entityName).\(column.name) (\(column.swiftType)) \(detail)",
                entity: schema.entityName, property: column.name)
        }
        switch column.kind {
        case .integer:
            let raw = sqlite3_column_int64(handle, index)
            var target: Any.Type = T.self
            if column.isRaw, let rawType = T.self as? any RawRepresentable.Type { target = rawValueType(rawType) }
            guard let integerType = target as? any FixedWidthInteger.Type else { return raw }
            guard let value = integerType.init(exactly: raw) else {
                throw corrupt("holds the integer \(raw), which does not fit in \(integerType).")
            }
            return value
        case .bool:
            let raw = sqlite3_column_int64(handle, index)
            guard raw == 0 || raw == 1 else { throw corrupt("holds the integer \(raw); a Bool is stored as 0 or 1.") }
            return raw == 1
        case .double:
            return sqlite3_column_double(handle, index)
        case .float:
            let raw = sqlite3_column_double(handle, index)
            guard let value = Float(exactly: raw) else { throw corrupt("holds \(raw), which is not exactly a Float.") }
            return value
        case .string:
            guard let text = validString(rawText(handle, index)) else { throw invalidText(schema, column) }
            return text
        case .data:
            return blob(handle, index)
        case .date:
            return Date(timeIntervalSinceReferenceDate: sqlite3_column_double(handle, index))
        case .uuid:
            let text = String(decoding: rawText(handle, index), as: UTF8.self)
            guard let uuid = UUID(uuidString: text) else { throw corrupt("holds \"\(text.prefix(80))\", not a UUID.") }
            return uuid
        case .url:
            let text = String(decoding: rawText(handle, index), as: UTF8.self)
            guard let url = URL(string: text) else { throw corrupt("holds \"\(text.prefix(80))\", not a URL.") }
            return url
        case .decimal:
            let text = String(decoding: rawText(handle, index), as: UTF8.self)
            guard let decimal = Decimal(string: text, locale: nil), decimal.description == text else {
                throw corrupt("holds \"\(text.prefix(80))\", which is not a Decimal in the form the store writes.")
            }
            return decimal
        case .json:
            return String(decoding: rawText(handle, index), as: UTF8.self)
        }
    }

    /// A `Date` or `Data` property, or a raw-value property, read as its own type from the column
    /// at `index`, whose SQLite type is `stored`: without boxing the value in `Any` and casting it
    /// back (the general path, ``read(_:at:handle:column:schema:json:)``), and with the column's
    /// description read in place. ``RawFallback`` for any other type or stored value: the general
    /// path reads it, or names the problem. Thrown, not an optional: an optional of `T` would cost
    /// a generic metadata lookup per value in the unspecialized callers.
    @inline(__always)
    static func ownType<T>(
        _ type: T.Type, at index: Int32, stored: Int32, handle: OpaquePointer, _ column: UnsafePointer<ColumnSchema>
    ) throws(RawFallback) -> T {
        switch column.pointee.kind {
        case .date where stored == SQLITE_FLOAT && T.self == Date.self:
            return _identityCast(Date(timeIntervalSinceReferenceDate: sqlite3_column_double(handle, index)), to: T.self)
        case .data where stored == SQLITE_BLOB && T.self == Data.self:
            return _identityCast(blob(handle, index), to: T.self)
        case .string where stored == SQLITE_TEXT, .integer where stored == SQLITE_INTEGER:
            guard let raw = column.pointee.raw, raw.type == ObjectIdentifier(T.self) else { throw RawFallback() }
            return try raw.access.read(handle, index, as: T.self)
        default:
            throw RawFallback()
        }
    }

    /// The bytes of a blob column of the current row.
    @inline(__always)
    private static func blob(_ handle: OpaquePointer, _ index: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let pointer = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: pointer, count: count)
    }

    private static func rawValueType<R: RawRepresentable>(_ type: R.Type) -> Any.Type { R.RawValue.self }

    /// The text, when its bytes are valid UTF-8 (raw SQL can store anything in a TEXT value).
    @inline(__always)
    static func validString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        // ASCII, the common case, is valid UTF-8 as it is. Decoding it directly skips
        // `String(validating:as:)`, which is not specialized for the buffer and looks up two
        // generic types' metadata on every call (about 650 instructions a value).
        if isASCII(bytes) { return String(decoding: bytes, as: UTF8.self) }
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) { return String(validating: bytes, as: UTF8.self) }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// Whether every byte is below 0x80.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var combined: UInt8 = 0
        for byte in bytes { combined |= byte }
        return combined < 0x80
    }

    static func invalidText(_ schema: EntitySchema, _ column: ColumnSchema) -> PersistenceError {
        PersistenceError(
            .typeMismatch,
            "\(schema.entityName).\(column.name) holds text that is not valid UTF-8 (written by raw SQL or another "
                + "program); the store does not repair it silently. Fix the row with a Migration.",
            entity: schema.entityName, property: column.name)
    }

    /// The bytes of a text column of the current row (valid until the next step).
    @inline(__always)
    static func rawText(_ handle: OpaquePointer, _ index: Int32) -> UnsafeBufferPointer<UInt8> {
        let pointer = sqlite3_column_text(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return UnsafeBufferPointer(start: pointer, count: pointer == nil ? 0 : count)
    }
}

extension SingleValueCapture {
    /// Whether `T`'s own encoding is exactly its raw value (so storing the raw value loses
    /// nothing its `Codable` conformance would keep). Checked on a sample of `T`.
    static func encodesItsRawValue<T: Decodable>(_ type: T.Type) -> Bool {
        guard let (sample, _) = SampleValue.make(T.self), let raw = sample as? any RawRepresentable,
            let encodable = sample as? any Encodable
        else { return false }
        let capture = SingleValueCapture()
        guard (try? encodable.encode(to: capture)) != nil, !capture.needsJSON, let value = capture.value else {
            return false
        }
        return (raw.rawValue as? AnyHashable) == value
    }
}
