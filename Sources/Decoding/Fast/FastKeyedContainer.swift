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
    var allKeys: [Key] {
        session.keysWereListed = true
        return session.keys(of: object).compactMap { Key(stringValue: $0) }
    }

    /// How `key` reads: a plain key or a parsed path; an invalid path throws as the
    /// `JSONDecoder` route's container throws.
    @inline(__always)
    private func lookup(_ key: Key) throws -> KeyPlan.Lookup {
        let lookup = literalFirst(key)
        if case .invalid(let error) = lookup { throw invalidPath(error, key) }
        return lookup
    }

    /// How `key` reads, a key the object holds as it is (`"a.b"`, one ``allKeys`` listed) read
    /// as that key before its path syntax counts, as ``PathKeyedDecodingContainer`` reads it.
    @inline(__always)
    private func literalFirst(_ key: Key) -> KeyPlan.Lookup {
        let lookup = plan.lookup(key.stringValue, keyType: Key.self)
        if case .plain = lookup { return lookup }
        return session.member(key.stringValue, in: object) != nil ? .plain(AnyCodingKey(key)) : lookup
    }

    /// The error for a key whose path syntax is invalid.
    private func invalidPath(_ error: PathSyntaxError, _ key: Key) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: codingPath + [key], debugDescription: error.description))
    }

    /// The value a key names, the coding path before its last step and that step; nil when
    /// it is absent and not required. A missing plain key throws as `JSONDecoder` throws; a
    /// path that does not resolve throws as ``PathNavigator`` throws.
    @inline(__always)
    private func value(
        _ key: Key, required: Bool
    ) throws -> (index: Int, parent: CodingPathNode?, component: CodingPathNode.Component?)? {
        switch try lookup(key) {
        case .plain(let plain):
            guard let index = session.member(plain.stringValue, in: object) else {
                if required { throw FastDecodingSession.keyNotFound(plain, codingPath) }
                return nil
            }
            return (index, location, .key(plain.stringValue))
        case .path(let path):
            let outcome = try session.resolve(
                path, from: object, location: location, required: required, cacheMayDecide: true)
            switch outcome {
            case .found(let index, let valueLocation):
                // The last step apart, as the `JSONDecoder` route reads it from the container before.
                return (index, valueLocation?.parent, valueLocation?.component)
            case .absent: return nil
            }
        case .invalid(let error):
            throw invalidPath(error, key)
        }
    }

    func contains(_ key: Key) -> Bool {
        switch literalFirst(key) {
        case .plain(let plain): return session.member(plain.stringValue, in: object) != nil
        case .path(let path):
            // ``PathNavigator/contains(_:in:)`` answers false where a step does not fit.
            do {
                if case .found = try session.resolve(path, from: object, location: location, required: false) {
                    return true
                }
                return false
            } catch {
                // ``PathNavigator/contains(_:in:)`` answers false where its walk throws.
                return false
            }
        case .invalid:
            // The `JSONDecoder` route looks an invalid path up as a plain key.
            return session.member(key.stringValue, in: object) != nil
        }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        // `JSONDecoder` throws for a missing plain key; a path reads absent as nil.
        guard let found = try value(key, required: false) else {
            if case .plain = try lookup(key) {
                throw FastDecodingSession.keyNotFound(AnyCodingKey(key), codingPath)
            }
            return true
        }
        return session.nodes[found.index].kind == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let found = try required(key, T.self)
        return try session.decodeValue(type, at: found.index, parent: found.parent, component: found.component)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let found = try present(key) else { return nil }
        return try session.decodeValue(type, at: found.index, parent: found.parent, component: found.component)
    }

    // The concrete overloads the compiler's `init(from:)` calls most, straight to the scalars.
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let found = try required(key, String.self)
        return try session.string(at: found.index, found.parent, found.component)
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let found = try required(key, Bool.self)
        return try session.bool(at: found.index, found.parent, found.component)
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        let found = try required(key, Int.self)
        return try session.integer(Int.self, at: found.index, found.parent, found.component)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        let found = try required(key, Double.self)
        return try session.double(at: found.index, found.parent, found.component)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let found = try present(key) else { return nil }
        return try session.string(at: found.index, found.parent, found.component)
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let found = try present(key) else { return nil }
        return try session.bool(at: found.index, found.parent, found.component)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let found = try present(key) else { return nil }
        return try session.integer(Int.self, at: found.index, found.parent, found.component)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let found = try present(key) else { return nil }
        return try session.double(at: found.index, found.parent, found.component)
    }

    /// A required value of `type`.
    @inline(__always)
    private func required(
        _ key: Key, _ type: Any.Type
    ) throws -> (index: Int, parent: CodingPathNode?, component: CodingPathNode.Component?) {
        // `value(_:required:)` throws rather than give nil for a required value; the error
        // below is the one ``PathKeyedDecodingContainer`` keeps for that case.
        guard let found = try value(key, required: true) else {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "no value"))
        }
        return found
    }

    /// A value that is present and not null.
    @inline(__always)
    private func present(
        _ key: Key
    ) throws -> (index: Int, parent: CodingPathNode?, component: CodingPathNode.Component?)? {
        guard let found = try value(key, required: false), session.nodes[found.index].kind != .null else {
            return nil
        }
        return found
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (plain, index) = try plainMember(key)
        let nestedLocation = CodingPathNode(parent: location, component: .key(plain.stringValue))
        guard session.nodes[index].kind == .object else {
            throw session.containerMismatch(keyed: true, at: index, nestedLocation.codingPath)
        }
        return KeyedDecodingContainer(
            FastKeyedContainer<NestedKey>(
                session: session, object: index, location: nestedLocation, plan: KeyPlan.of(NestedKey.self)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let (plain, index) = try plainMember(key)
        let nestedLocation = CodingPathNode(parent: location, component: .key(plain.stringValue))
        guard session.nodes[index].kind == .array else {
            throw session.containerMismatch(keyed: false, at: index, nestedLocation.codingPath)
        }
        return FastUnkeyedContainer(session: session, array: index, location: nestedLocation)
    }

    /// The value of a plain key, for a nested container; a nested container opened with a path
    /// key is left to the other path.
    private func plainMember(_ key: Key) throws -> (AnyCodingKey, Int) {
        guard case .plain = try lookup(key) else { throw session.fail(.unsupported) }
        // The `JSONDecoder` route asks for the key as `AnyCodingKey(key)`.
        let plain = AnyCodingKey(key)
        guard let index = session.member(plain.stringValue, in: object) else {
            throw FastDecodingSession.keyNotFound(plain, codingPath)
        }
        return (plain, index)
    }

    func superDecoder() throws -> any Decoder {
        throw session.fail(.unsupported)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw session.fail(.unsupported)
    }
}
