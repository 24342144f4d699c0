import Foundation

/// The trampoline that hands a value's encoder to the value wrapped in a ``PathAwareEncoder``.
struct EncodingBox<Value: Encodable>: Encodable {
    let value: Value

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: PathAwareEncoder(base: encoder))
    }
}

/// An encoder that wraps Foundation's and writes keys with path syntax as nested objects.
struct PathAwareEncoder: Encoder {
    let base: any Encoder

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(
            PathKeyedEncodingContainer<Key>(
                base: base.container(keyedBy: AnyCodingKey.self), readsPaths: keysArePaths(Key.self)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        PathUnkeyedEncodingContainer(base: base.unkeyedContainer())
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        PathSingleValueEncodingContainer(base: base.singleValueContainer())
    }
}

/// Where a path being written has got to.
enum EncodingNode {
    case object(KeyedEncodingContainer<AnyCodingKey>)
    case array(any UnkeyedEncodingContainer)
}

/// The containers a keyed encoding container has opened by path prefix, so that sibling
/// paths write into the same nested object.
final class EncodingNavigationCache {
    var entries: [Int: EncodingNode] = [:]
}

/// An unkeyed encoding container whose elements may be types with path keys.
struct PathUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    var base: any UnkeyedEncodingContainer

    var codingPath: [any CodingKey] { base.codingPath }
    var count: Int { base.count }

    mutating func encodeNil() throws { try base.encodeNil() }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if isDirectlyDecodable(T.self) { return try base.encode(value) }
        try base.encode(EncodingBox(value: value))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    )
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(
            PathKeyedEncodingContainer<NestedKey>(
                base: base.nestedContainer(keyedBy: AnyCodingKey.self), readsPaths: keysArePaths(NestedKey.self)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        PathUnkeyedEncodingContainer(base: base.nestedUnkeyedContainer())
    }

    mutating func superEncoder() -> any Encoder {
        PathAwareEncoder(base: base.superEncoder())
    }
}

/// A single-value encoding container whose value may be a type with path keys.
struct PathSingleValueEncodingContainer: SingleValueEncodingContainer {
    var base: any SingleValueEncodingContainer

    var codingPath: [any CodingKey] { base.codingPath }

    mutating func encodeNil() throws { try base.encodeNil() }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if isDirectlyDecodable(T.self) { return try base.encode(value) }
        try base.encode(EncodingBox(value: value))
    }
}
