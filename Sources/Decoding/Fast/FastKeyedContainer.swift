/// A keyed container over an object of text parsed by ``JSONParser``: keys with path syntax
/// are read as paths, as ``PathKeyedDecodingContainer`` reads them over `JSONDecoder`.
struct FastKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let session: FastDecodingSession
    /// The object's node.
    let object: Int
    /// The object's coding path.
    let location: CodingPathNode?
    /// How this key type's keys read, resolved once per type.
    let plan: KeyPlan

    var codingPath: [any CodingKey] { CodingPathNode.codingPath(location) }

    /// The object's keys that `Key` can represent, in document order.
    var allKeys: [Key] { session.keys(of: object).compactMap { Key(stringValue: $0) } }

    /// How `key` reads: a plain key or a parsed path; an invalid path gives up.
    @inline(__always)
    private func lookup(_ key: Key) throws(FastDeferral) -> KeyPlan.Lookup {
        let lookup = plan.lookup(key.stringValue, keyType: Key.self)
        if case .invalid = lookup { throw session.fail(.decodingError) }
        return lookup
    }

    /// The value a key names and its coding path's last step; nil when it is absent and not
    /// required. Whatever `JSONDecoder` and ``PathNavigator`` would throw for, gives up.
    @inline(__always)
    private func value(
        _ key: Key, required: Bool
    ) throws(FastDeferral) -> (index: Int, parent: CodingPathNode?, component: CodingPathNode.Component?)? {
        switch try lookup(key) {
        case .plain(let plain):
            guard let index = session.member(plain.stringValue, in: object) else {
                if required { throw session.fail(.decodingError) }
                return nil
            }
            return (index, location, .key(plain.stringValue))
        case .path(let path):
            switch try session.resolve(path, from: object, location: location, required: required) {
            case .found(let index, let valueLocation): return (index, valueLocation, nil)
            case .absent: return nil
            case .mismatch: throw session.fail(.decodingError)
            }
        case .invalid:
            throw session.fail(.decodingError)
        }
    }

    func contains(_ key: Key) -> Bool {
        do {
            switch try lookup(key) {
            case .plain(let plain): return session.member(plain.stringValue, in: object) != nil
            case .path(let path):
                // ``PathNavigator/contains(_:in:)`` answers false where a step does not fit.
                if case .found = try session.resolve(path, from: object, location: location, required: false) {
                    return true
                }
                return false
            case .invalid: return false
            }
        } catch {
            // Recorded by the session: the other path answers.
            return false
        }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        // `JSONDecoder` throws for a missing plain key; a path reads absent as nil.
        guard let found = try value(key, required: false) else {
            if case .plain = try lookup(key) { throw session.fail(.decodingError) }
            return true
        }
        return session.nodes[found.index].kind == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let found = try value(key, required: true) else { throw session.fail(.decodingError) }
        return try session.decodeValue(type, at: found.index, parent: found.parent, component: found.component)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let found = try value(key, required: false), session.nodes[found.index].kind != .null else {
            return nil
        }
        return try session.decodeValue(type, at: found.index, parent: found.parent, component: found.component)
    }

    // The concrete overloads the compiler's `init(from:)` calls most, straight to the scalars.
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try session.string(at: try required(key))
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try session.bool(at: try required(key))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try session.integer(Int.self, at: try required(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try session.double(at: try required(key))
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let index = try present(key) else { return nil }
        return try session.string(at: index)
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let index = try present(key) else { return nil }
        return try session.bool(at: index)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let index = try present(key) else { return nil }
        return try session.integer(Int.self, at: index)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let index = try present(key) else { return nil }
        return try session.double(at: index)
    }

    /// The node of a required value.
    @inline(__always)
    private func required(_ key: Key) throws(FastDeferral) -> Int {
        guard let found = try value(key, required: true) else { throw session.fail(.decodingError) }
        return found.index
    }

    /// The node of a value that is present and not null.
    @inline(__always)
    private func present(_ key: Key) throws(FastDeferral) -> Int? {
        guard let found = try value(key, required: false), session.nodes[found.index].kind != .null else {
            return nil
        }
        return found.index
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (plain, index) = try plainMember(key)
        guard session.nodes[index].kind == .object else { throw session.fail(.decodingError) }
        return KeyedDecodingContainer(
            FastKeyedContainer<NestedKey>(
                session: session, object: index,
                location: CodingPathNode(parent: location, component: .key(plain.stringValue)),
                plan: KeyPlan.of(NestedKey.self)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let (plain, index) = try plainMember(key)
        guard session.nodes[index].kind == .array else { throw session.fail(.decodingError) }
        return FastUnkeyedContainer(
            session: session, array: index,
            location: CodingPathNode(parent: location, component: .key(plain.stringValue)))
    }

    /// The value of a plain key, for a nested container; a nested container opened with a path
    /// key is left to the other path.
    private func plainMember(_ key: Key) throws(FastDeferral) -> (AnyCodingKey, Int) {
        guard case .plain(let plain) = try lookup(key) else { throw session.fail(.unsupported) }
        guard let index = session.member(plain.stringValue, in: object) else { throw session.fail(.decodingError) }
        return (plain, index)
    }

    func superDecoder() throws -> any Decoder {
        throw session.fail(.unsupported)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw session.fail(.unsupported)
    }
}
