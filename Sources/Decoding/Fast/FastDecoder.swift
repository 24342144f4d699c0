import Foundation

/// The decoder of one value of text parsed by ``JSONParser``, whose keyed containers read
/// coding keys with path syntax as paths, as ``PathAwareDecoder`` does over `JSONDecoder`.
///
/// It is its own single-value container, as `JSONDecoder`'s is. A request that does not fit the
/// value throws the `DecodingError` `JSONDecoder` throws; anything it is not sure to answer
/// exactly as the other path would, it refuses through its session (see
/// ``FastDecodingSession``).
final class FastDecoder: Decoder, SingleValueDecodingContainer {
    let session: FastDecodingSession
    /// The node of the value.
    let index: Int
    /// The value's coding path; nil at the top.
    let location: CodingPathNode?

    init(session: FastDecodingSession, index: Int, location: CodingPathNode?) {
        self.session = session
        self.index = index
        self.location = location
    }

    var codingPath: [any CodingKey] { CodingPathNode.codingPath(location) }
    var userInfo: [CodingUserInfoKey: Any] { session.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try session.checkNotDeferred()
        guard session.nodes[index].kind == .object else {
            throw session.containerMismatch(keyed: true, at: index, codingPath)
        }
        return KeyedDecodingContainer(
            FastKeyedContainer<Key>(session: session, object: index, location: location, plan: KeyPlan.of(Key.self)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try session.checkNotDeferred()
        guard session.nodes[index].kind == .array else {
            throw session.containerMismatch(keyed: false, at: index, codingPath)
        }
        return FastUnkeyedContainer(session: session, array: index, location: location)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { session.nodes[index].kind == .null }

    func decode(_ type: String.Type) throws -> String { try session.string(at: index, location, nil) }
    func decode(_ type: Bool.Type) throws -> Bool { try session.bool(at: index, location, nil) }
    func decode(_ type: Int.Type) throws -> Int { try session.integer(Int.self, at: index, location, nil) }
    func decode(_ type: Double.Type) throws -> Double { try session.double(at: index, location, nil) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try session.decodeValue(type, at: index, parent: location, component: nil)
    }
}
