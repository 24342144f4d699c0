import Foundation

/// Learns an entity's columns by decoding a sample value: every key the entity's
/// `init(from:)` asks for becomes a column, typed by the requested type; keys asked for
/// with `decodeIfPresent` (the synthesized code for `Optional` properties) are nullable.
final class SchemaProbe: Decoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    var columns: [ColumnSchema] = []
    var seen: Set<String> = []
    /// Keys the entity asked `decodeNil(forKey:)` about: the default `decodeIfPresent` does
    /// that for `Optional` properties before decoding.
    var nilChecked: Set<String> = []
    var failure: PersistenceError?
    let entityName: String

    init(entityName: String) { self.entityName = entityName }

    static func columns<E: StoredEntity>(of type: E.Type) throws(PersistenceError) -> [ColumnSchema] {
        let probe = SchemaProbe(entityName: E.entityName)
        do {
            _ = try E(from: probe)
        } catch let error as PersistenceError {
            throw error
        } catch {
            if let failure = probe.failure { throw failure }
            throw PersistenceError(
                .unsupportedValue,
                "The store could not learn \(E.entityName)'s columns by decoding a sample value: \(error). "
                    + "Its init(from:) must accept any value for each property.",
                entity: E.entityName)
        }
        if let failure = probe.failure { throw failure }
        guard !probe.columns.isEmpty else {
            throw PersistenceError(
                .unsupportedValue, "\(E.entityName) decodes no properties, so it has nothing to store.",
                entity: E.entityName)
        }
        return probe.columns
    }

    func record(_ name: String, _ type: ColumnType, optional: Bool) {
        guard seen.insert(name).inserted else { return }
        columns.append(ColumnSchema(name: name, type: type, isOptional: optional))
    }

    func unsupported(_ detail: String) -> PersistenceError {
        PersistenceError(
            .unsupportedValue,
            "\(entityName) \(detail). An entity must decode each stored property from a keyed container "
                + "with decode(_:forKey:) or decodeIfPresent(_:forKey:).",
            entity: entityName)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ProbeKeyedContainer<Key>(probe: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let error = unsupported("decodes itself from an unkeyed container")
        failure = error
        throw error
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        let error = unsupported("decodes itself from a single value")
        failure = error
        throw error
    }
}

struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let probe: SchemaProbe
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool {
        probe.nilChecked.insert(key.stringValue)
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let (value, columnType) = try SampleValues.sample(T.self, property: key.stringValue, entity: probe.entityName)
        probe.record(key.stringValue, columnType, optional: probe.nilChecked.contains(key.stringValue))
        return value
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let columnType =
            (try? SampleValues.sample(T.self, property: key.stringValue, entity: probe.entityName))?.1 ?? .json
        probe.record(key.stringValue, columnType, optional: true)
        return nil
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let error = probe.unsupported("reads a nested container for '\(key.stringValue)'")
        probe.failure = error
        throw error
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let error = probe.unsupported("reads a nested unkeyed container for '\(key.stringValue)'")
        probe.failure = error
        throw error
    }

    func superDecoder() throws -> any Decoder {
        let error = probe.unsupported("uses superDecoder()")
        probe.failure = error
        throw error
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        let error = probe.unsupported("uses superDecoder(forKey: \(key.stringValue))")
        probe.failure = error
        throw error
    }
}

/// Sample values of any decodable type, and the column type each is stored in.
enum SampleValues {
    static func sample<T: Decodable>(
        _ type: T.Type, property: String, entity: String
    ) throws(PersistenceError) -> (T, ColumnType) {
        if let (value, columnType) = primitive(T.self) { return (value, columnType) }
        let value: T
        if let cases = T.self as? any CaseIterable.Type, let first = firstCase(cases) as? T {
            value = first
        } else {
            do {
                value = try T(from: DefaultValueDecoder())
            } catch {
                throw PersistenceError(
                    .unsupportedValue,
                    "The store cannot make a sample \(T.self) to learn how \(entity).\(property) is stored: \(error). "
                        + "Make \(T.self) CaseIterable, make the property Optional, or let its init(from:) accept defaults.",
                    entity: entity, property: property)
            }
        }
        guard let encodable = value as? any Encodable else { return (value, .json) }
        let capture = SingleValueCapture()
        do {
            try encodable.encode(to: capture)
        } catch {
            return (value, .json)
        }
        if capture.needsJSON { return (value, .json) }
        guard let stored = capture.value else { return (value, .json) }
        return (value, ColumnType(of: stored))
    }

    static func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? { type.allCases.first }

    static func primitive<T>(_ type: T.Type) -> (T, ColumnType)? {
        func pair(_ value: Any, _ columnType: ColumnType) -> (T, ColumnType)? {
            (value as? T).map { ($0, columnType) }
        }
        switch type {
        case is Int.Type: return pair(0 as Int, .integer)
        case is Int8.Type: return pair(0 as Int8, .integer)
        case is Int16.Type: return pair(0 as Int16, .integer)
        case is Int32.Type: return pair(0 as Int32, .integer)
        case is Int64.Type: return pair(0 as Int64, .integer)
        case is UInt.Type: return pair(0 as UInt, .integer)
        case is UInt8.Type: return pair(0 as UInt8, .integer)
        case is UInt16.Type: return pair(0 as UInt16, .integer)
        case is UInt32.Type: return pair(0 as UInt32, .integer)
        case is UInt64.Type: return pair(0 as UInt64, .integer)
        case is Bool.Type: return pair(false, .integer)
        case is Double.Type: return pair(0 as Double, .real)
        case is Float.Type: return pair(0 as Float, .real)
        case is String.Type: return pair("", .text)
        case is Data.Type: return pair(Data(), .blob)
        case is Date.Type: return pair(Date(timeIntervalSince1970: 0), .real)
        case is UUID.Type: return pair(UUID(), .text)
        case is URL.Type: return URL(string: "about:blank").flatMap { pair($0, .text) }
        default: return nil
        }
    }
}

/// A decoder that answers every request with a default value (for nested sample values).
struct DefaultValueDecoder: Decoder, SingleValueDecodingContainer {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(DefaultKeyedContainer<Key>())
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { EmptyUnkeyedContainer() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try DefaultValueDecoder.make(T.self) }

    static func make<T: Decodable>(_ type: T.Type) throws -> T {
        if let (value, _) = SampleValues.primitive(T.self) { return value }
        if let cases = T.self as? any CaseIterable.Type, let first = SampleValues.firstCase(cases) as? T {
            return first
        }
        return try T(from: DefaultValueDecoder())
    }
}

struct DefaultKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try DefaultValueDecoder.make(T.self) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { nil }
    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(DefaultKeyedContainer<NestedKey>())
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { EmptyUnkeyedContainer() }
    func superDecoder() throws -> any Decoder { DefaultValueDecoder() }
    func superDecoder(forKey key: Key) throws -> any Decoder { DefaultValueDecoder() }
}

struct EmptyUnkeyedContainer: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }
    private func end() -> DecodingError {
        DecodingError.valueNotFound(Any.self, .init(codingPath: [], debugDescription: "empty sample"))
    }
    mutating func decodeNil() throws -> Bool { throw end() }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw end() }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> { throw end() }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw end() }
    mutating func superDecoder() throws -> any Decoder { throw end() }
}
