import Foundation

/// A keyed container that reads keys with path syntax as paths and forwards plain keys.
struct PathKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<AnyCodingKey>
    /// How this key type's keys read, resolved once per type.
    let plan: KeyPlan
    /// The objects this container's paths reached; `nil` when its plan knows only plain keys
    /// (a key seen for the first time that turns out to be a path walks from the root).
    let cache: NavigationCache?

    init(base: KeyedDecodingContainer<AnyCodingKey>, plan: KeyPlan) {
        self.base = base
        self.plan = plan
        self.cache = plan.mayReadPaths ? NavigationCache() : nil
    }

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
        switch plan.lookup(key.stringValue, keyType: Key.self) {
        case .plain(let plain): return .plain(plain)
        case .path(let path):
            // A key the object holds as it is (`"a.b"`, one `allKeys` listed) is that key.
            let literal = AnyCodingKey(key)
            return base.contains(literal) ? .plain(literal) : .path(path)
        case .invalid(let error):
            let literal = AnyCodingKey(key)
            if base.contains(literal) { return .plain(literal) }
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath + [key], debugDescription: error.description))
        }
    }

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
            PathKeyedDecodingContainer<NestedKey>(base: nested, plan: KeyPlan.of(NestedKey.self)))
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
