import Foundation

/// A decoder that wraps another one (Foundation's `JSONDecoder` inside ``PathDecoder``) and
/// reads the string values of coding keys as paths.
struct PathAwareDecoder: Decoder {
    /// The wrapped decoder, held as a class reference so that this struct fits in an
    /// existential's inline buffer and passing it as `any Decoder` allocates nothing.
    let base: any Decoder & AnyObject

    init(_ base: any Decoder) {
        if let object = base as? any Decoder & AnyObject {
            self.base = object
        } else {
            self.base = DecoderReference(base)
        }
    }

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let container = try base.container(keyedBy: AnyCodingKey.self)
        return KeyedDecodingContainer(
            PathKeyedDecodingContainer<Key>(base: container, readsPaths: keysArePaths(Key.self)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        PathUnkeyedDecodingContainer(base: try base.unkeyedContainer())
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        PathSingleValueDecodingContainer(base: try base.singleValueContainer())
    }
}

/// A keyed container that reads keys with path syntax as paths and forwards plain keys.
struct PathKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<AnyCodingKey>
    let readsPaths: Bool
    let cache = NavigationCache()

    var codingPath: [any CodingKey] { base.codingPath }

    var allKeys: [Key] { base.allKeys.compactMap { Key(stringValue: $0.stringValue) } }

    /// How a key is read: as a plain key (the common, fast case) or as a parsed path.
    enum Lookup {
        case plain(AnyCodingKey)
        case path(PathExpression)
    }

    /// Reads `key` once: its string value decides whether it is a path.
    @inline(__always)
    private func lookup(_ key: Key) throws -> Lookup {
        let string = key.stringValue
        guard readsPaths, !PathExpression.isPlainKey(string) else { return .plain(AnyCodingKey(string)) }
        switch PathCache.shared.expression(for: string) {
        case .success(let path): return .path(path)
        case .failure(let error):
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath + [key], debugDescription: error.description))
        }
    }

    /// The parsed path of `key`, or nil when it is a plain key.
    @inline(__always)
    private func path(of key: Key) throws -> PathExpression? {
        if case .path(let path) = try lookup(key) { return path }
        return nil
    }

    func contains(_ key: Key) -> Bool {
        guard let path = try? path(of: key) else { return base.contains(AnyCodingKey(key)) }
        return PathNavigator.contains(path, in: base)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let path = try path(of: key) else { return try base.decodeNil(forKey: AnyCodingKey(key)) }
        // A path whose value is missing or null, or runs through a missing or null object, reads as nil.
        return try PathNavigator.decode(SkippedValue.self, at: path, in: base, cache: cache, required: false) == nil
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        switch try lookup(key) {
        case .plain(let plain):
            if isDirectlyDecodable(T.self) { return try base.decodeLeaf(type, forKey: plain) }
            return try base.decode(DecodingBox<T>.self, forKey: plain).value
        case .path(let path):
            guard let value = try PathNavigator.decode(type, at: path, in: base, cache: cache, required: true) else {
                throw DecodingError.valueNotFound(
                    type, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "no value"))
            }
            return value
        }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        switch try lookup(key) {
        case .plain(let plain):
            if isDirectlyDecodable(T.self) { return try base.decodeLeafIfPresent(type, forKey: plain) }
            return try base.decodeIfPresent(DecodingBox<T>.self, forKey: plain)?.value
        case .path(let path):
            return try PathNavigator.decode(type, at: path, in: base, cache: cache, required: false)
        }
    }

    // The concrete overloads go straight to the fast path the generic one takes for leaves.
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeLeaf(type, key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeLeaf(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeLeaf(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeLeaf(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeLeafIfPresent(type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeLeafIfPresent(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeLeafIfPresent(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeLeafIfPresent(type, key) }

    @inline(__always)
    private func decodeLeaf<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        switch try lookup(key) {
        case .plain(let plain):
            return try base.decodeLeaf(type, forKey: plain)
        case .path(let path):
            guard let value = try PathNavigator.decode(type, at: path, in: base, cache: cache, required: true) else {
                throw DecodingError.valueNotFound(
                    type, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "no value"))
            }
            return value
        }
    }

    @inline(__always)
    private func decodeLeafIfPresent<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        switch try lookup(key) {
        case .plain(let plain):
            return try base.decodeLeafIfPresent(type, forKey: plain)
        case .path(let path):
            return try PathNavigator.decode(type, at: path, in: base, cache: cache, required: false)
        }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        if try path(of: key) != nil { return try superDecoder(forKey: key).container(keyedBy: type) }
        let nested = try base.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey(key))
        return KeyedDecodingContainer(
            PathKeyedDecodingContainer<NestedKey>(
                base: nested, readsPaths: keysArePaths(NestedKey.self)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        if try path(of: key) != nil { return try superDecoder(forKey: key).unkeyedContainer() }
        return PathUnkeyedDecodingContainer(base: try base.nestedUnkeyedContainer(forKey: AnyCodingKey(key)))
    }

    func superDecoder() throws -> any Decoder {
        PathAwareDecoder(try base.superDecoder())
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        switch try lookup(key) {
        case .plain(let plain):
            return PathAwareDecoder(try base.superDecoder(forKey: plain))
        case .path(let path):
            return PathAwareDecoder(try PathNavigator.superDecoder(at: path, in: base, cache: cache))
        }
    }
}

/// Holds a decoder that is a value type, for ``PathAwareDecoder``.
final class DecoderReference: Decoder {
    let base: any Decoder

    init(_ base: any Decoder) {
        self.base = base
    }

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try base.container(keyedBy: type)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { try base.unkeyedContainer() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { try base.singleValueContainer() }
}

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
            PathKeyedDecodingContainer<NestedKey>(
                base: nested, readsPaths: keysArePaths(NestedKey.self)))
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
        if isDirectlyDecodable(T.self) { return try base.decode(type) }
        return try base.decode(DecodingBox<T>.self).value
    }
}
