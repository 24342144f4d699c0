import Foundation

/// An unkeyed container whose elements may be types with path keys.
struct PathUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    var base: any UnkeyedDecodingContainer

    var codingPath: [any CodingKey] { base.codingPath }
    var count: Int? { base.count }
    var isAtEnd: Bool { base.isAtEnd }
    var currentIndex: Int { base.currentIndex }

    mutating func decodeNil() throws -> Bool { try base.decodeNil() }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if isDirectlyDecodable(T.self) { return try base.decodeLeaf(type) }
        return try base.decode(DecodingBox<T>.self).value
    }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        if isDirectlyDecodable(T.self) { return try base.decodeLeafIfPresent(type) }
        return try base.decodeIfPresent(DecodingBox<T>.self)?.value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let nested = try base.nestedContainer(keyedBy: AnyCodingKey.self)
        return KeyedDecodingContainer(
            PathKeyedDecodingContainer<NestedKey>(base: nested, plan: KeyPlan.of(NestedKey.self)))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        PathUnkeyedDecodingContainer(base: try base.nestedUnkeyedContainer())
    }

    mutating func superDecoder() throws -> any Decoder {
        PathAwareDecoder(try base.superDecoder())
    }
}

/// A single-value container whose value may be a type with path keys.
struct PathSingleValueDecodingContainer: SingleValueDecodingContainer {
    let base: any SingleValueDecodingContainer

    var codingPath: [any CodingKey] { base.codingPath }

    func decodeNil() -> Bool { base.decodeNil() }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if isDirectlyDecodable(T.self) {
            do { return try base.decode(type) } catch { throw NumberFit.named(error, T.self, at: codingPath) }
        }
        return try base.decode(DecodingBox<T>.self).value
    }
}
