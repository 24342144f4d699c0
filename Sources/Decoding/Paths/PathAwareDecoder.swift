import Foundation

/// A decoder that wraps another one (Foundation's `JSONDecoder` inside ``PathDecoder``) and
/// reads the string values of coding keys as paths.
///
/// A class: passed as `any Decoder` it is one reference, where a struct holding an `any Decoder`
/// would not fit an existential's inline buffer and would be boxed (and telling whether the
/// wrapped decoder is a class, to hold it in less, costs a dynamic cast).
final class PathAwareDecoder: Decoder {
    /// The wrapped decoder.
    let base: any Decoder

    init(_ base: any Decoder) {
        self.base = base
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
