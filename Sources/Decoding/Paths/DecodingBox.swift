import Foundation

/// The trampoline that hands a value's decoder to the value wrapped in a ``PathAwareDecoder``.
///
/// Foundation's containers decode `DecodingBox<T>`; its `init(from:)` decodes `T` through
/// the path-aware wrapper, so `T`'s own `CodingKeys` may use paths at any depth.
struct DecodingBox<Value: Decodable>: Decodable {
    let value: Value

    init(from decoder: any Decoder) throws {
        value = try Value(from: PathAwareDecoder(decoder))
    }
}

/// Recognises the key type the standard library's `Dictionary` decodes its keys with, so that
/// dictionary keys (which come from the data) are never read as paths.
enum DictionaryKeyType {
    /// `ObjectIdentifier` of the standard library's private dictionary key type.
    static let identifier: ObjectIdentifier? = {
        var probe = KeyTypeProbe()
        _ = try? [String: Int](from: probe)
        return probe.recorder.keyType
    }()

    private final class Recorder {
        var keyType: ObjectIdentifier?
    }

    /// A decoder that only records the key type of the first keyed container asked of it.
    private struct KeyTypeProbe: Decoder {
        let recorder = Recorder()
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            recorder.keyType = ObjectIdentifier(Key.self)
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "probe"))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "probe"))
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "probe"))
        }
    }
}

/// Whether keys of type `Key` may be read as paths: not dictionary keys, not ``LiteralCodingKey`` types.
@inline(__always)
func keysArePaths<Key: CodingKey>(_ type: Key.Type) -> Bool {
    ObjectIdentifier(Key.self) != DictionaryKeyType.identifier && !(Key.self is any LiteralCodingKey.Type)
}

/// Whether `T` is a leaf that Foundation's containers should decode themselves, so that
/// `dateDecodingStrategy` and the other strategies apply and no wrapper is needed.
///
/// The generic code here is not specialized for callers' types, so every metatype it
/// compares with is a plain global: no generic metadata is instantiated per call.
@inline(__always)
func isDirectlyDecodable<T>(_ type: T.Type) -> Bool {
    let id = ObjectIdentifier(T.self)
    return id == LeafTypes.string || id == LeafTypes.int || id == LeafTypes.double || id == LeafTypes.bool
        || LeafTypes.others.contains(id)
}

/// The metatypes ``isDirectlyDecodable(_:)`` compares with, computed once.
enum LeafTypes {
    static let string = ObjectIdentifier(String.self)
    static let int = ObjectIdentifier(Int.self)
    static let double = ObjectIdentifier(Double.self)
    static let bool = ObjectIdentifier(Bool.self)
    static let others: [ObjectIdentifier] = [
        Int64.self, Float.self, Date.self, URL.self, Decimal.self, Data.self, Int32.self, UInt.self, UInt64.self,
        Int8.self, Int16.self, UInt8.self, UInt16.self, UInt32.self, [String].self,
        SkippedValue.self, PartialDate.self,
    ].map { ObjectIdentifier($0) }
}
