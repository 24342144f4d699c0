import Foundation

/// The JSON the store keeps in `TEXT` columns for values that have no column type of their own.
///
/// Keys are sorted; infinities are written as the strings `"+Infinity"` and `"-Infinity"` and
/// read back as infinities; NaN is refused, naming the path to it, as it is in a column of its own.
enum StoreJSON {
    static let nanSentinel = "fk.nan.7d1c2a"

    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: nanSentinel)
        return encoder
    }

    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: nanSentinel)
        return decoder
    }

    static func encode(
        _ value: any Encodable, column: ColumnSchema, schema: EntitySchema, using encoder: JSONEncoder
    ) throws(PersistenceError) -> String {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw PersistenceError(
                .unsupportedValue,
                "\(schema.entityName).\(column.name) (\(column.swiftType)) could not be encoded as JSON: \(error).",
                entity: schema.entityName, property: column.name)
        }
        let text = String(decoding: data, as: UTF8.self)
        if text.contains(nanSentinel) {
            let finder = NaNFinder()
            try? value.encode(to: finder)
            if let path = finder.found {
                let location = path.isEmpty ? "" : " at \(path)"
                throw PersistenceError(
                    .unsupportedValue,
                    "\(schema.entityName).\(column.name) holds NaN\(location). The store refuses NaN (it is not "
                        + "equal to itself, so it could not come back as written); use an Optional for a missing number.",
                    entity: schema.entityName, property: column.name)
            }
        }
        return text
    }

    static func decode<T: Decodable>(
        _ type: T.Type, from data: Data, column: ColumnSchema, schema: EntitySchema, using decoder: JSONDecoder
    ) throws(PersistenceError) -> T {
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            throw PersistenceError(
                .decodingFailed,
                "\(schema.entityName).\(column.name) holds JSON that is not a valid \(T.self): \(error). "
                    + "If the property's type changed, add a Migration that converts the stored rows.",
                entity: schema.entityName, property: column.name)
        }
    }
}

/// Walks a value's encoding and notes the path of its first NaN.
final class NaNFinder: Encoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var found: String?

    func note(_ value: Double, _ path: [any CodingKey]) {
        guard found == nil, value.isNaN else { return }
        found = path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
    }

    func visit<T: Encodable>(_ value: T, _ path: [any CodingKey]) throws {
        guard found == nil else { return }
        if let double = value as? Double { return note(double, path) }
        if let float = value as? Float { return note(Double(float), path) }
        let saved = codingPath
        codingPath = path
        defer { codingPath = saved }
        try value.encode(to: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed<Key>(finder: self, codingPath: codingPath))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(finder: self, codingPath: codingPath) }
    func singleValueContainer() -> any SingleValueEncodingContainer { Single(finder: self, codingPath: codingPath) }

    struct IndexKey: CodingKey {
        var intValue: Int?
        var stringValue: String { "\(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let finder: NaNFinder
        var codingPath: [any CodingKey]
        mutating func encodeNil(forKey key: Key) {}
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try finder.visit(value, codingPath + [key])
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Keyed<NestedKey>(finder: finder, codingPath: codingPath + [key]))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            Unkeyed(finder: finder, codingPath: codingPath + [key])
        }
        mutating func superEncoder() -> any Encoder { finder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { finder }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let finder: NaNFinder
        var codingPath: [any CodingKey]
        var count = 0
        init(finder: NaNFinder, codingPath: [any CodingKey]) {
            self.finder = finder
            self.codingPath = codingPath
        }
        mutating func encodeNil() { count += 1 }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try finder.visit(value, codingPath + [IndexKey(count)])
            count += 1
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            defer { count += 1 }
            return KeyedEncodingContainer(Keyed<NestedKey>(finder: finder, codingPath: codingPath + [IndexKey(count)]))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            defer { count += 1 }
            return Unkeyed(finder: finder, codingPath: codingPath + [IndexKey(count)])
        }
        mutating func superEncoder() -> any Encoder { finder }
    }

    struct Single: SingleValueEncodingContainer {
        let finder: NaNFinder
        var codingPath: [any CodingKey]
        mutating func encodeNil() {}
        mutating func encode<T: Encodable>(_ value: T) throws { try finder.visit(value, codingPath) }
    }
}
