import Foundation

/// Walks parsed paths through Foundation's containers.
enum PathNavigator {
    /// Decodes the value at `path` below `root`.
    ///
    /// - Parameters:
    ///   - required: when false, a missing or null value anywhere on the path gives nil; when
    ///     true it throws a `DecodingError` that names the whole path.
    ///   - cache: the objects this container already reached by path prefix, if it keeps them.
    static func decode<T: Decodable, Key: CodingKey>(
        _ type: T.Type, at path: PathExpression, in root: KeyedDecodingContainer<Key>,
        cache: NavigationCache?, required: Bool
    ) throws -> T? {
        let last = path.steps.count - 1
        if last == 0 {
            return try decodeValue(type, in: root, key: try rootKey(of: root, path: path), required: required)
        }
        // The usual case, properties sharing a prefix: the last step's parent object is cached.
        // Read straight from it, without the walk's `PathNode` (whose copies go through the
        // runtime, as `KeyedDecodingContainer` is a resilient type).
        if let parent = cache?.object(at: last - 1, of: path)?.container {
            return try decodeValue(type, in: parent, key: try lastKey(of: path, in: parent), required: required)
        }
        guard let node = try walk(path, in: root, cache: cache, required: required) else { return nil }
        return try decodeLast(type, in: node, path: path, required: required)
    }

    /// Decodes the value at `path` from the root of `decoder`, which may be an object or an array.
    static func decode<T: Decodable>(
        _ type: T.Type, at path: PathExpression, from decoder: any Decoder, required: Bool
    ) throws -> T? {
        if try decoder.singleValueContainer().decodeNil() {
            if required {
                throw missing(path, step: 0, codingPath: decoder.codingPath, reason: "the data is null")
            }
            return nil
        }
        if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            return try decode(type, at: path, in: object, cache: nil, required: required)
        }
        let array = PathNode.array(try decoder.unkeyedContainer())
        guard let node = try walk(path, from: array, step: 0, cache: nil, required: required) else { return nil }
        return try decodeLast(type, in: node, path: path, required: required)
    }

    /// A fresh decoder for the value at `path` below `root`, for `superDecoder(forKey:)` and
    /// nested containers opened with a path key.
    ///
    /// Foundation's decoder is reused while it decodes, so a decoder captured inside a
    /// value's `init(from:)` must not outlive it: the last step asks the parent container
    /// for a super decoder, which Foundation creates anew.
    static func superDecoder(
        at path: PathExpression, in root: KeyedDecodingContainer<AnyCodingKey>, cache: NavigationCache?
    ) throws -> any Decoder {
        let last = path.steps.count - 1
        var node = PathNode.object(ObjectNode(root))
        if last > 0 {
            guard let found = try walk(path, in: root, cache: cache, required: true) else {
                throw missing(path, step: 0, codingPath: root.codingPath, reason: "no value")
            }
            node = found
        }
        switch node {
        case .object(let object):
            let container = object.container
            let key = try lastKey(of: path, in: container)
            guard container.contains(key) else {
                throw missing(path, step: last, codingPath: container.codingPath, reason: "no \"\(key.stringValue)\"")
            }
            return try container.superDecoder(forKey: key)
        case .array(var container):
            _ = try position(&container, at: path, step: last, required: true, keepingElement: true)
            return try container.superDecoder()
        }
    }

    /// Whether a value exists at `path` below `root` (null counts as a value, as in `contains`).
    static func contains<Key: CodingKey>(_ path: PathExpression, in root: KeyedDecodingContainer<Key>) -> Bool {
        do {
            let last = path.steps.count - 1
            if last == 0 { return root.contains(try rootKey(of: root, path: path)) }
            switch try walk(path, in: root, cache: nil, required: false) {
            case nil: return false
            case .object(let object)?:
                guard let key = path.steps[last].key else { return false }
                return object.container.contains(key)
            case .array(var container)?:
                return try position(&container, at: path, step: last, required: false, keepingElement: true)
            }
        } catch {
            return false
        }
    }

    // MARK: The walk

    /// Walks `path`, of two steps or more, from `root` to the container its last step applies
    /// to, starting from the deepest prefix `cache` already reached.
    ///
    /// The result is not generic over `Key`, so that this unspecialized code instantiates no
    /// generic metadata per call; callers read one-step paths from `root` themselves.
    ///
    /// - Returns: nil when a step is missing or null (or, through an array, absent) and the
    ///   value is not `required`.
    @inline(__always)
    private static func walk<Key: CodingKey>(
        _ path: PathExpression, in root: KeyedDecodingContainer<Key>, cache: NavigationCache?, required: Bool
    ) throws -> PathNode? {
        let last = path.steps.count - 1
        // A cached miss is trusted only when nil is the answer; a required value walks again
        // so that its error names the step that is missing.
        if let cache, let hit = cache.deepest(path, below: last), hit.container != nil || !required {
            guard let container = hit.container else { return nil }
            // Most often the cached object is the last step's parent: nothing left to walk.
            if hit.index + 1 == last { return .object(container) }
            return try walk(path, from: .object(container), step: hit.index + 1, cache: cache, required: required)
        }
        let first = try rootKey(of: root, path: path)
        guard let child = try child(of: root, key: first, path: path, step: 0, required: required) else {
            cache?.store(path, 0, nil)
            return nil
        }
        if case .object(let container) = child { cache?.store(path, 0, container) }
        return try walk(path, from: child, step: 1, cache: cache, required: required)
    }

    /// The one walk loop: continues from `node`, which step `start` applies to, to the
    /// container the last step applies to, remembering the objects it reaches in `cache`.
    private static func walk(
        _ path: PathExpression, from start: PathNode, step: Int, cache: NavigationCache?, required: Bool
    ) throws -> PathNode? {
        let last = path.steps.count - 1
        var node = start
        var index = step
        while index < last {
            guard let next = try child(of: node, path: path, step: index, required: required) else {
                cache?.store(path, index, nil)
                return nil
            }
            if case .object(let container) = next { cache?.store(path, index, container) }
            node = next
            index += 1
        }
        return node
    }

    // MARK: Steps

    /// The first step of `path` as a key of `root`.
    private static func rootKey<Key: CodingKey>(
        of root: KeyedDecodingContainer<Key>, path: PathExpression
    ) throws -> Key {
        guard let key = path.steps[0].key else {
            throw arrayStepOnObject(path, step: 0, codingPath: root.codingPath)
        }
        if let same = key as? Key { return same }
        guard let converted = Key(stringValue: key.stringValue) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: root.codingPath,
                    debugDescription:
                        "the key type \(Key.self) cannot name \"\(key.stringValue)\"; "
                        + "read paths from decoder.container(keyedBy: AnyCodingKey.self)"))
        }
        return converted
    }

    /// The object or array that step `step` (a key of `container`) leads to.
    private static func child<Key: CodingKey>(
        of container: KeyedDecodingContainer<Key>, key: Key, path: PathExpression, step: Int, required: Bool
    ) throws -> PathNode? {
        // Missing and null values are rare on a path: they are only looked for once opening
        // the value failed, which spares the usual case a second lookup of the key.
        do {
            // Only the fields are read: copying the whole step would retain each of its strings.
            if path.steps[step + 1].key == nil {
                return .array(try container.nestedUnkeyedContainer(forKey: key))
            }
            if path.steps[step + 1].arrayStep != nil {
                // `first`, `last` or digits: an index on an array, a key on an object.
                do {
                    return .array(try container.nestedUnkeyedContainer(forKey: key))
                } catch DecodingError.typeMismatch {
                    return .object(ObjectNode(try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key)))
                }
            }
            return .object(ObjectNode(try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key)))
        } catch let error as DecodingError {
            guard container.contains(key) else {
                if required {
                    throw missing(
                        path, step: step, codingPath: container.codingPath, reason: "no \"\(key.stringValue)\"")
                }
                return nil
            }
            guard (try? container.decodeNil(forKey: key)) == true else { throw error }
            if required {
                throw missing(
                    path, step: step, codingPath: container.codingPath, reason: "\"\(key.stringValue)\" is null")
            }
            return nil
        }
    }

    private static func child(of node: PathNode, path: PathExpression, step: Int, required: Bool) throws -> PathNode? {
        switch node {
        case .object(let object):
            let container = object.container
            guard let key = path.steps[step].key else {
                throw arrayStepOnObject(path, step: step, codingPath: container.codingPath)
            }
            return try child(of: container, key: key, path: path, step: step, required: required)
        case .array(var container):
            if case .filter(let field, let value)? = path.steps[step].arrayStep {
                // The match is opened as an object to test it, so it continues from there.
                guard let element = try firstMatch(in: &container, field: field, value: value, keepingElement: false)
                else {
                    if required { throw noMatch(path, step: step, field: field, value: value, in: container) }
                    return nil
                }
                return .object(ObjectNode(element))
            }
            guard try position(&container, at: path, step: step, required: required, keepingElement: true) else {
                return nil
            }
            if try container.decodeNil() {
                if required {
                    throw missing(
                        path, step: step, codingPath: container.codingPath, reason: "the element is null")
                }
                return nil
            }
            if path.steps[step + 1].key == nil {
                return .array(try container.nestedUnkeyedContainer())
            }
            if path.steps[step + 1].arrayStep != nil {
                var probe = container
                do {
                    return .array(try probe.nestedUnkeyedContainer())
                } catch DecodingError.typeMismatch {
                    return .object(ObjectNode(try container.nestedContainer(keyedBy: AnyCodingKey.self)))
                }
            }
            return .object(ObjectNode(try container.nestedContainer(keyedBy: AnyCodingKey.self)))
        }
    }

    /// Moves `container` to the element step `step` of `path` names (an index, `first`,
    /// `last` or the first match of a filter), leaving that element to be read.
    ///
    /// - Returns: false when there is no such element and it is not `required`.
    private static func position(
        _ container: inout any UnkeyedDecodingContainer, at path: PathExpression, step: Int, required: Bool,
        keepingElement: Bool
    ) throws -> Bool {
        guard let arrayStep = path.steps[step].arrayStep else {
            throw keyStepOnArray(path, step: step, codingPath: container.codingPath)
        }
        let count = container.count ?? 0
        guard let target = arrayStep.position(count: count) else {
            guard case .filter(let field, let value) = arrayStep else { return false }
            if try firstMatch(in: &container, field: field, value: value, keepingElement: keepingElement) != nil {
                return true
            }
            if required { throw noMatch(path, step: step, field: field, value: value, in: container) }
            return false
        }
        guard target >= 0, target < count else {
            if required {
                let reason =
                    count == 0
                    ? "the array is empty" : "index \(target) is out of range (the array has \(count) elements)"
                throw missing(path, step: step, codingPath: container.codingPath, reason: reason)
            }
            return false
        }
        while container.currentIndex < target {
            _ = try container.decode(SkippedValue.self)
        }
        return true
    }

    /// The one filter routine: the first object element whose `field` equals `value`, after
    /// consuming the elements before it.
    ///
    /// - Parameter keepingElement: whether the match stays to be read from `container` (it is
    ///   tested on a copy), rather than being consumed as the object returned.
    private static func firstMatch(
        in container: inout any UnkeyedDecodingContainer, field: AnyCodingKey, value: String, keepingElement: Bool
    ) throws -> KeyedDecodingContainer<AnyCodingKey>? {
        while !container.isAtEnd {
            if try container.decodeNil() { continue }
            let element: KeyedDecodingContainer<AnyCodingKey>
            do {
                if keepingElement {
                    var probe = container
                    element = try probe.nestedContainer(keyedBy: AnyCodingKey.self)
                } else {
                    element = try container.nestedContainer(keyedBy: AnyCodingKey.self)
                }
            } catch DecodingError.typeMismatch {
                _ = try container.decode(SkippedValue.self)
                continue
            }
            if matches(element, field: field, value: value) { return element }
            if keepingElement { _ = try container.decode(SkippedValue.self) }
        }
        return nil
    }

    /// Whether `field` of `element` equals `value`: as text for strings, by value for numbers and booleans.
    static func matches(_ element: KeyedDecodingContainer<AnyCodingKey>, field: AnyCodingKey, value: String) -> Bool {
        // One lookup for the usual case, a string field; numbers and booleans only on a mismatch.
        do {
            guard let string = try element.decodeIfPresent(String.self, forKey: field) else { return false }
            return string == value
        } catch {
            if let bool = try? element.decode(Bool.self, forKey: field) { return String(bool) == value }
            if let number = try? element.decode(Double.self, forKey: field), let wanted = Double(value) {
                return number == wanted
            }
            return false
        }
    }

    // MARK: Leaves

    /// The key the last step of `path` reads from `container`.
    private static func lastKey(
        of path: PathExpression, in container: KeyedDecodingContainer<AnyCodingKey>
    ) throws -> AnyCodingKey {
        let last = path.steps.count - 1
        guard let key = path.steps[last].key else {
            throw arrayStepOnObject(path, step: last, codingPath: container.codingPath)
        }
        return key
    }

    /// Decodes the value the last step of `path` names in `node`.
    private static func decodeLast<T: Decodable>(
        _ type: T.Type, in node: PathNode, path: PathExpression, required: Bool
    ) throws -> T? {
        switch node {
        case .object(let object):
            let container = object.container
            return try decodeValue(type, in: container, key: try lastKey(of: path, in: container), required: required)
        case .array(var container):
            guard
                try position(
                    &container, at: path, step: path.steps.count - 1, required: required, keepingElement: true)
            else { return nil }
            if required {
                if isDirectlyDecodable(T.self) { return try container.decodeLeaf(T.self) }
                return try container.decode(DecodingBox<T>.self).value
            }
            if isDirectlyDecodable(T.self) { return try container.decodeLeafIfPresent(T.self) }
            return try container.decodeIfPresent(DecodingBox<T>.self)?.value
        }
    }

    private static func decodeValue<T: Decodable, Key: CodingKey>(
        _ type: T.Type, in container: KeyedDecodingContainer<Key>, key: Key, required: Bool
    ) throws -> T? {
        if required {
            if isDirectlyDecodable(T.self) { return try container.decodeLeaf(T.self, forKey: key) }
            return try container.decode(DecodingBox<T>.self, forKey: key).value
        }
        if isDirectlyDecodable(T.self) { return try container.decodeLeafIfPresent(T.self, forKey: key) }
        return try container.decodeIfPresent(DecodingBox<T>.self, forKey: key)?.value
    }
}
