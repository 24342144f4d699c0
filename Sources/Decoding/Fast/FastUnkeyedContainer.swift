/// An unkeyed container over an array of text parsed by ``JSONParser``.
struct FastUnkeyedContainer: UnkeyedDecodingContainer {
    let session: FastDecodingSession
    /// The array's coding path.
    let location: CodingPathNode?
    let count: Int?
    private(set) var currentIndex = 0
    /// The node of the current element.
    private var cursor: Int

    init(session: FastDecodingSession, array: Int, location: CodingPathNode?) {
        self.session = session
        self.location = location
        self.count = Int(session.nodes[array].length)
        self.cursor = array + 1
    }

    var codingPath: [any CodingKey] { CodingPathNode.codingPath(location) }
    var isAtEnd: Bool { currentIndex >= count ?? 0 }

    /// The current element's node; past the end the fast path gives up (`JSONDecoder` throws,
    /// or gives nil from `decodeIfPresent`).
    private func current() throws(FastDeferral) -> Int {
        guard !isAtEnd else { throw session.fail(.decodingError) }
        return cursor
    }

    private mutating func advance() {
        cursor = Int(session.nodes[cursor].next)
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        guard session.nodes[try current()].kind == .null else { return false }
        advance()
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try session.decodeValue(
            type, at: try current(), parent: location, component: .index(currentIndex))
        advance()
        return value
    }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        if try decodeNil() { return nil }
        return try decode(type)
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let value = try session.string(at: try current())
        advance()
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let value = try session.bool(at: try current())
        advance()
        return value
    }

    mutating func decode(_ type: Int.Type) throws -> Int {
        let value = try session.integer(Int.self, at: try current())
        advance()
        return value
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        let value = try session.double(at: try current())
        advance()
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let element = try current()
        guard session.nodes[element].kind == .object else { throw session.fail(.decodingError) }
        let container = FastKeyedContainer<NestedKey>(
            session: session, object: element,
            location: CodingPathNode(parent: location, component: .index(currentIndex)),
            plan: KeyPlan.of(NestedKey.self))
        advance()
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let element = try current()
        guard session.nodes[element].kind == .array else { throw session.fail(.decodingError) }
        let container = FastUnkeyedContainer(
            session: session, array: element,
            location: CodingPathNode(parent: location, component: .index(currentIndex)))
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        throw session.fail(.unsupported)
    }
}
