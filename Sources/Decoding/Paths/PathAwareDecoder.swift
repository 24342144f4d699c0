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
            PathKeyedDecodingContainer<Key>(base: container, plan: KeyPlan.of(Key.self)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        PathUnkeyedDecodingContainer(base: try base.unkeyedContainer())
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        PathSingleValueDecodingContainer(base: try base.singleValueContainer())
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
