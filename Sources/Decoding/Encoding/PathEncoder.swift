public import Foundation

/// Encodes `Encodable` types whose `CodingKeys` name paths back into the nested JSON they
/// were decoded from.
///
/// A `Book` with `case title = "volumeInfo.title"` encodes as
/// `{"volumeInfo": {"title": …}}`, so decoding the output with ``PathDecoder`` gives the
/// same value back. Types without path keys encode exactly as with `JSONEncoder`.
///
/// Encoding is well defined for paths made of keys, for a filter step
/// (`industryIdentifiers[type=ISBN_13].identifier` writes an element
/// `{"type": "ISBN_13", "identifier": …}`), and for `first`, `last` and `0`, which each
/// append one element. It throws `EncodingError.invalidValue` for the cases that are not:
/// an index above 0, a path whose last step is a filter, and a path that continues below a
/// value another key already wrote. See <doc:NestedKeysAndLenientDecoding>.
public struct PathEncoder: Sendable {
    /// Formatting of the output, such as `.sortedKeys` or `.prettyPrinted`.
    public var outputFormatting: JSONEncoder.OutputFormatting = []
    /// How dates are encoded; the default writes seconds since 2001, as `JSONEncoder` does.
    public var dateEncodingStrategy: JSONEncoder.DateEncodingStrategy = .deferredToDate
    /// How `Data` values are encoded; the default writes Base64.
    public var dataEncodingStrategy: JSONEncoder.DataEncodingStrategy = .base64
    /// How keys are written, for example `.convertToSnakeCase`.
    public var keyEncodingStrategy: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys
    /// How `NaN` and infinities are encoded; the default throws.
    public var nonConformingFloatEncodingStrategy: JSONEncoder.NonConformingFloatEncodingStrategy = .throw

    /// Creates an encoder with default settings.
    public init() {}

    /// Creates an encoder and configures it.
    ///
    /// - Parameter configure: changes the settings of the new encoder.
    public init(_ configure: (inout PathEncoder) -> Void) {
        configure(&self)
    }

    /// Encodes `value` as JSON, expanding path keys into nested objects.
    ///
    /// - Parameter value: the value to encode.
    /// - Returns: UTF-8 JSON.
    /// - Throws: `EncodingError` when a value cannot be encoded or a path cannot be written back.
    public func encode<T: Encodable>(_ value: T) throws(EncodingError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = outputFormatting
        encoder.dateEncodingStrategy = dateEncodingStrategy
        encoder.dataEncodingStrategy = dataEncodingStrategy
        encoder.keyEncodingStrategy = keyEncodingStrategy
        encoder.nonConformingFloatEncodingStrategy = nonConformingFloatEncodingStrategy
        do {
            if isDirectlyDecodable(T.self) { return try encoder.encode(value) }
            return try encoder.encode(EncodingBox(value: value))
        } catch let error as EncodingError {
            throw error
        } catch {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(error)", underlyingError: error))
        }
    }
}

/// The trampoline that hands a value's encoder to the value wrapped in a ``PathAwareEncoder``.
struct EncodingBox<Value: Encodable>: Encodable {
    let value: Value

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: PathAwareEncoder(base: encoder))
    }
}

/// An encoder that wraps Foundation's and writes keys with path syntax as nested objects.
struct PathAwareEncoder: Encoder {
    let base: any Encoder

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(
            PathKeyedEncodingContainer<Key>(
                base: base.container(keyedBy: AnyCodingKey.self), readsPaths: keysArePaths(Key.self)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        PathUnkeyedEncodingContainer(base: base.unkeyedContainer())
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        PathSingleValueEncodingContainer(base: base.singleValueContainer())
    }
}

/// Where a path being written has got to.
enum EncodingNode {
    case object(KeyedEncodingContainer<AnyCodingKey>)
    case array(any UnkeyedEncodingContainer)
}

/// The containers a keyed encoding container has opened by path prefix, so that sibling
/// paths write into the same nested object.
final class EncodingNavigationCache {
    var entries: [Int: EncodingNode] = [:]
}

/// A keyed encoding container that writes path keys as nested objects.
struct PathKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var base: KeyedEncodingContainer<AnyCodingKey>
    let readsPaths: Bool
    let cache = EncodingNavigationCache()

    var codingPath: [any CodingKey] { base.codingPath }

    private func path(of key: Key) throws -> PathExpression? {
        guard readsPaths, !PathExpression.isPlainKey(key.stringValue) else { return nil }
        switch PathCache.shared.expression(for: key.stringValue) {
        case .success(let path): return path
        case .failure(let error):
            throw EncodingError.invalidValue(
                key.stringValue,
                EncodingError.Context(codingPath: codingPath + [key], debugDescription: error.description))
        }
    }

    mutating func encodeNil(forKey key: Key) throws {
        guard let path = try path(of: key) else { return try base.encodeNil(forKey: AnyCodingKey(key)) }
        try write(Optional<Int>.none, at: path, key: key, isNil: true)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        guard let path = try path(of: key) else {
            if isDirectlyDecodable(T.self) { return try base.encode(value, forKey: AnyCodingKey(key)) }
            return try base.encode(EncodingBox(value: value), forKey: AnyCodingKey(key))
        }
        try write(value, at: path, key: key, isNil: false)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(
            PathKeyedEncodingContainer<NestedKey>(
                base: base.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey(key)),
                readsPaths: keysArePaths(NestedKey.self)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        PathUnkeyedEncodingContainer(base: base.nestedUnkeyedContainer(forKey: AnyCodingKey(key)))
    }

    mutating func superEncoder() -> any Encoder {
        PathAwareEncoder(base: base.superEncoder())
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        PathAwareEncoder(base: base.superEncoder(forKey: AnyCodingKey(key)))
    }

    // MARK: Writing paths

    private mutating func write<T: Encodable>(_ value: T, at path: PathExpression, key: Key, isNil: Bool) throws {
        let steps = path.steps
        let last = steps.count - 1
        var node = EncodingNode.object(base)
        var start = 0
        var index = last - 1
        while index >= 0 {
            if let cached = cache.entries[path.prefixIDs[index]] {
                node = cached
                start = index + 1
                break
            }
            index -= 1
        }
        for step in start..<last {
            node = try open(node, path: path, step: step, key: key, value: value)
            cache.entries[path.prefixIDs[step]] = node
        }
        switch node {
        case .object(var container):
            guard let lastKey = steps[last].key else {
                throw notWellDefined(path, step: last, key: key, value: value, "a filter cannot be the last step")
            }
            if isNil { return try container.encodeNil(forKey: lastKey) }
            if isDirectlyDecodable(T.self) { return try container.encode(value, forKey: lastKey) }
            try container.encode(EncodingBox(value: value), forKey: lastKey)
        case .array(var container):
            switch steps[last].arrayStep {
            case .first?, .last?, .index(0)?:
                if isNil { return try container.encodeNil() }
                if isDirectlyDecodable(T.self) { return try container.encode(value) }
                try container.encode(EncodingBox(value: value))
            default:
                throw notWellDefined(
                    path, step: last, key: key, value: value,
                    "only first, last or 0 can end a path written into an array")
            }
        }
    }

    private func open<T>(
        _ node: EncodingNode, path: PathExpression, step: Int, key: Key, value: T
    ) throws
        -> EncodingNode
    {
        let current = path.steps[step]
        let next = path.steps[step + 1]
        let nextIsArray = next.key == nil || next.arrayStep != nil
        switch node {
        case .object(var container):
            guard let stepKey = current.key else {
                throw notWellDefined(path, step: step, key: key, value: value, "an array step cannot follow an object")
            }
            if nextIsArray { return .array(container.nestedUnkeyedContainer(forKey: stepKey)) }
            return .object(container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: stepKey))
        case .array(var container):
            switch current.arrayStep {
            case .filter(let field, let fieldValue)?:
                guard !nextIsArray else {
                    throw notWellDefined(path, step: step, key: key, value: value, "a filter must be followed by a key")
                }
                var element = container.nestedContainer(keyedBy: AnyCodingKey.self)
                try element.encode(fieldValue, forKey: field)
                return .object(element)
            case .first?, .last?, .index(0)?:
                if nextIsArray { return .array(container.nestedUnkeyedContainer()) }
                return .object(container.nestedContainer(keyedBy: AnyCodingKey.self))
            default:
                throw notWellDefined(
                    path, step: step, key: key, value: value,
                    "only first, last, 0 and filters can be written into an array")
            }
        }
    }

    private func notWellDefined<T>(
        _ path: PathExpression, step: Int, key: Key, value: T, _ reason: String
    )
        -> EncodingError
    {
        EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: codingPath + [key],
                debugDescription:
                    "cannot write path \"\(path.text)\" back at step \(path.steps[step].text): \(reason)"))
    }
}

/// An unkeyed encoding container whose elements may be types with path keys.
struct PathUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    var base: any UnkeyedEncodingContainer

    var codingPath: [any CodingKey] { base.codingPath }
    var count: Int { base.count }

    mutating func encodeNil() throws { try base.encodeNil() }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if isDirectlyDecodable(T.self) { return try base.encode(value) }
        try base.encode(EncodingBox(value: value))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    )
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(
            PathKeyedEncodingContainer<NestedKey>(
                base: base.nestedContainer(keyedBy: AnyCodingKey.self), readsPaths: keysArePaths(NestedKey.self)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        PathUnkeyedEncodingContainer(base: base.nestedUnkeyedContainer())
    }

    mutating func superEncoder() -> any Encoder {
        PathAwareEncoder(base: base.superEncoder())
    }
}

/// A single-value encoding container whose value may be a type with path keys.
struct PathSingleValueEncodingContainer: SingleValueEncodingContainer {
    var base: any SingleValueEncodingContainer

    var codingPath: [any CodingKey] { base.codingPath }

    mutating func encodeNil() throws { try base.encodeNil() }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if isDirectlyDecodable(T.self) { return try base.encode(value) }
        try base.encode(EncodingBox(value: value))
    }
}
