/// An unkeyed container over an array of text parsed by ``JSONParser``.
struct FastUnkeyedContainer: UnkeyedDecodingContainer {
    let session: FastDecodingSession
    /// The array's coding path.
    let location: CodingPathNode?
    let count: Int?
    private(set) var currentIndex = 0
    /// The node of the current element (past the end, the node after the last element).
    private var cursor: Int

    init(session: FastDecodingSession, array: Int, location: CodingPathNode?) {
        self.session = session
        self.location = location
        self.count = Int(session.nodes[array].length)
        self.cursor = array + 1
    }

    var codingPath: [any CodingKey] { CodingPathNode.codingPath(location) }
    var isAtEnd: Bool { currentIndex >= count ?? 0 }

    /// The current element's node; past the end, the error `JSONDecoder` throws when asked for
    /// an element as `type`.
    private func current(_ type: Any.Type) throws -> Int {
        guard !isAtEnd else { throw FastDecodingSession.atEnd(type, codingPath, index: currentIndex) }
        return cursor
    }

    private mutating func advance() {
        if !isAtEnd { cursor = Int(session.nodes[cursor].next) }
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        guard session.nodes[try current(Never.self)].kind == .null else { return false }
        advance()
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // The `JSONDecoder` route asks for other types than its leaves wrapped in a `DecodingBox`.
        let element = try current(isDirectlyDecodable(T.self) ? T.self : DecodingBox<T>.self)
        let value = try session.decodeValue(type, at: element, parent: location, component: .index(currentIndex))
        advance()
        return value
    }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        // Past the end `JSONDecoder` gives nil, and moves on all the same.
        if isAtEnd || session.nodes[cursor].kind == .null {
            advance()
            return nil
        }
        return try decode(type)
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let value = try session.string(at: try current(String.self), location, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let value = try session.bool(at: try current(Bool.self), location, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: Int.Type) throws -> Int {
        let value = try session.integer(Int.self, at: try current(Int.self), location, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        let value = try session.double(at: try current(Double.self), location, .index(currentIndex))
        advance()
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let element = try current(KeyedDecodingContainer<AnyCodingKey>.self)
        let elementLocation = CodingPathNode(parent: location, component: .index(currentIndex))
        guard session.nodes[element].kind == .object else {
            throw session.containerMismatch(keyed: true, at: element, elementLocation.codingPath)
        }
        let container = FastKeyedContainer<NestedKey>(
            session: session, object: element, location: elementLocation, plan: KeyPlan.of(NestedKey.self))
        advance()
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let element = try current((any UnkeyedDecodingContainer).self)
        let elementLocation = CodingPathNode(parent: location, component: .index(currentIndex))
        guard session.nodes[element].kind == .array else {
            throw session.containerMismatch(keyed: false, at: element, elementLocation.codingPath)
        }
        let container = FastUnkeyedContainer(session: session, array: element, location: elementLocation)
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        throw session.fail(.unsupported)
    }
}
