import Foundation

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
