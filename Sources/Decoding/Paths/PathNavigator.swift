import Foundation

/// Walks parsed paths through Foundation's containers.
enum PathNavigator {
    /// Decodes the value at `path` below `root`.
    ///
    /// - Parameters:
    ///   - required: when false, a missing or null value anywhere on the path gives nil; when
    ///     true it throws a `DecodingError` that names the whole path.
    ///   - makeKey: turns the first step's key into the root's key type.
    static func decode<T: Decodable, Key: CodingKey>(
        _ type: T.Type, at path: PathExpression, in root: KeyedDecodingContainer<Key>,
        cache: NavigationCache?, required: Bool
    ) throws -> T? {
        let steps = path.steps
        let last = steps.count - 1
        if path.isObjectChain {
            return try decodeAlongObjects(type, at: path, in: root, cache: cache, required: required)
        }
        var node: PathNode
        var index: Int
        if let cache, let hit = cache.deepest(path, below: last), hit.container != nil || !required {
            guard let container = hit.container else { return nil }
            node = .object(container)
            index = hit.index + 1
        } else {
            let first = try rootKey(steps[0], of: root, path: path)
            if last == 0 {
                return try decodeValue(type, in: root, key: first, required: required)
            }
            guard let child = try child(of: root, key: first, path: path, step: 0, required: required) else {
                cache?.store(path, 0, nil)
                return nil
            }
            node = child
            if case .object(let container) = child { cache?.store(path, 0, container) }
            index = 1
        }
        return try walk(type, from: node, step: index, path: path, cache: cache, required: required)
    }

    /// The fast road for paths made of plain keys only, such as `volumeInfo.imageLinks.smallThumbnail`.
    private static func decodeAlongObjects<T: Decodable, Key: CodingKey>(
        _ type: T.Type, at path: PathExpression, in root: KeyedDecodingContainer<Key>,
        cache: NavigationCache?, required: Bool
    ) throws -> T? {
        let steps = path.steps
        let last = steps.count - 1
        var container: KeyedDecodingContainer<AnyCodingKey>
        var index: Int
        if let cache, let hit = cache.deepest(path, below: last), hit.container != nil || !required {
            guard let found = hit.container else { return nil }
            container = found
            index = hit.index + 1
        } else {
            let first = try rootKey(steps[0], of: root, path: path)
            if last == 0 { return try decodeValue(type, in: root, key: first, required: required) }
            guard case .object(let found)? = try child(of: root, key: first, path: path, step: 0, required: required)
            else {
                cache?.store(path, 0, nil)
                return nil
            }
            cache?.store(path, 0, found)
            container = found
            index = 1
        }
        while index < last {
            guard let key = steps[index].key,
                case .object(let found)? = try child(
                    of: container, key: key, path: path, step: index, required: required)
            else {
                cache?.store(path, index, nil)
                return nil
            }
            cache?.store(path, index, found)
            container = found
            index += 1
        }
        guard let key = steps[last].key else {
            throw arrayStepOnObject(path, step: last, codingPath: container.codingPath)
        }
        return try decodeValue(type, in: container, key: key, required: required)
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
        return try walk(
            type, from: .array(try decoder.unkeyedContainer()), step: 0, path: path, cache: nil, required: required)
    }

    /// Continues from `node`, which step `step` applies to, to the end of `path`.
    private static func walk<T: Decodable>(
        _ type: T.Type, from startNode: PathNode, step start: Int, path: PathExpression, cache: NavigationCache?,
        required: Bool
    ) throws -> T? {
        let steps = path.steps
        let last = steps.count - 1
        var node = startNode
        var index = start
        while index < last {
            guard let next = try child(of: node, path: path, step: index, required: required) else {
                cache?.store(path, index, nil)
                return nil
            }
            node = next
            if case .object(let container) = next { cache?.store(path, index, container) }
            index += 1
        }
        switch node {
        case .object(let container):
            guard let key = steps[last].key else {
                throw arrayStepOnObject(path, step: last, codingPath: container.codingPath)
            }
            return try decodeValue(type, in: container, key: key, required: required)
        case .array(var container):
            return try decodeElement(type, in: &container, path: path, step: last, required: required)
        }
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
        let steps = path.steps
        let last = steps.count - 1
        var node = PathNode.object(root)
        var index = 0
        if let cache, let hit = cache.deepest(path, below: last), let container = hit.container {
            node = .object(container)
            index = hit.index + 1
        }
        while index < last {
            guard let next = try child(of: node, path: path, step: index, required: true) else {
                throw missing(path, step: index, codingPath: root.codingPath, reason: "no value")
            }
            node = next
            index += 1
        }
        switch node {
        case .object(let container):
            guard let key = steps[last].key else {
                throw arrayStepOnObject(path, step: last, codingPath: container.codingPath)
            }
            guard container.contains(key) else {
                throw missing(path, step: last, codingPath: container.codingPath, reason: "no \"\(key.stringValue)\"")
            }
            return try container.superDecoder(forKey: key)
        case .array(var container):
            guard let arrayStep = steps[last].arrayStep else {
                throw keyStepOnArray(path, step: last, codingPath: container.codingPath)
            }
            if case .filter(let field, let value) = arrayStep {
                while !container.isAtEnd {
                    let element = try container.superDecoder()
                    if let object = try? element.container(keyedBy: AnyCodingKey.self),
                        matches(object, field: field, value: value)
                    {
                        return element
                    }
                }
                throw missing(
                    path, step: last, codingPath: container.codingPath,
                    reason: "no element with \(field.stringValue) == \"\(value)\"")
            }
            _ = try position(&container, at: arrayStep, path: path, step: last, required: true)
            return try container.superDecoder()
        }
    }

    /// Whether a value exists at `path` below `root` (null counts as a value, as in `contains`).
    static func contains<Key: CodingKey>(_ path: PathExpression, in root: KeyedDecodingContainer<Key>) -> Bool {
        do {
            let steps = path.steps
            let last = steps.count - 1
            let first = try rootKey(steps[0], of: root, path: path)
            if last == 0 { return root.contains(first) }
            guard var node = try child(of: root, key: first, path: path, step: 0, required: false) else { return false }
            var index = 1
            while index < last {
                guard let next = try child(of: node, path: path, step: index, required: false) else { return false }
                node = next
                index += 1
            }
            switch node {
            case .object(let container):
                guard let key = steps[last].key else { return false }
                return container.contains(key)
            case .array(var container):
                return try decodeElement(SkippedValue.self, in: &container, path: path, step: last, required: false)
                    != nil
            }
        } catch {
            return false
        }
    }

    // MARK: Steps

    private static func rootKey<Key: CodingKey>(
        _ step: PathExpression.Step, of root: KeyedDecodingContainer<Key>, path: PathExpression
    ) throws -> Key {
        guard let key = step.key else {
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
        guard container.contains(key) else {
            if required {
                throw missing(path, step: step, codingPath: container.codingPath, reason: "no \"\(key.stringValue)\"")
            }
            return nil
        }
        do {
            let next = path.steps[step + 1]
            if next.key == nil {
                return .array(try container.nestedUnkeyedContainer(forKey: key))
            }
            if next.arrayStep != nil {
                // `first`, `last` or digits: an index on an array, a key on an object.
                do {
                    return .array(try container.nestedUnkeyedContainer(forKey: key))
                } catch DecodingError.typeMismatch {
                    return .object(try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key))
                }
            }
            return .object(try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key))
        } catch let error as DecodingError {
            // Null is rare on a path, so it is only checked for once opening the value failed.
            guard (try? container.decodeNil(forKey: key)) == true else { throw error }
            if required {
                throw missing(
                    path, step: step, codingPath: container.codingPath, reason: "\"\(key.stringValue)\" is null")
            }
            return nil
        }
    }

    private static func child(of node: PathNode, path: PathExpression, step: Int, required: Bool) throws -> PathNode? {
        let current = path.steps[step]
        switch node {
        case .object(let container):
            guard let key = current.key else {
                throw arrayStepOnObject(path, step: step, codingPath: container.codingPath)
            }
            return try child(of: container, key: key, path: path, step: step, required: required)
        case .array(var container):
            guard let arrayStep = current.arrayStep else {
                throw keyStepOnArray(path, step: step, codingPath: container.codingPath)
            }
            if case .filter(let field, let value) = arrayStep {
                guard let element = try firstMatch(in: &container, field: field, value: value) else {
                    if required {
                        throw missing(
                            path, step: step, codingPath: container.codingPath,
                            reason: "no element with \(field.stringValue) == \"\(value)\"")
                    }
                    return nil
                }
                return .object(element)
            }
            guard try position(&container, at: arrayStep, path: path, step: step, required: required) else {
                return nil
            }
            if try container.decodeNil() {
                if required {
                    throw missing(
                        path, step: step, codingPath: container.codingPath, reason: "the element is null")
                }
                return nil
            }
            let next = path.steps[step + 1]
            if next.key == nil {
                return .array(try container.nestedUnkeyedContainer())
            }
            if next.arrayStep != nil {
                var probe = container
                do {
                    return .array(try probe.nestedUnkeyedContainer())
                } catch DecodingError.typeMismatch {
                    return .object(try container.nestedContainer(keyedBy: AnyCodingKey.self))
                }
            }
            return .object(try container.nestedContainer(keyedBy: AnyCodingKey.self))
        }
    }

    /// Moves `container` to the element `arrayStep` names; false when there is none (and not required).
    private static func position(
        _ container: inout any UnkeyedDecodingContainer, at arrayStep: PathExpression.ArrayStep,
        path: PathExpression, step: Int, required: Bool
    ) throws -> Bool {
        let count = container.count ?? 0
        let target: Int
        switch arrayStep {
        case .first: target = 0
        case .last: target = count - 1
        case .index(let index): target = index
        case .filter: return false
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

    /// The first object element whose `field` equals `value`, consuming the elements before it.
    private static func firstMatch(
        in container: inout any UnkeyedDecodingContainer, field: AnyCodingKey, value: String
    ) throws -> KeyedDecodingContainer<AnyCodingKey>? {
        while !container.isAtEnd {
            if try container.decodeNil() { continue }
            let element: KeyedDecodingContainer<AnyCodingKey>
            do {
                element = try container.nestedContainer(keyedBy: AnyCodingKey.self)
            } catch DecodingError.typeMismatch {
                _ = try container.decode(SkippedValue.self)
                continue
            }
            if matches(element, field: field, value: value) { return element }
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

    private static func decodeElement<T: Decodable>(
        _ type: T.Type, in container: inout any UnkeyedDecodingContainer, path: PathExpression, step: Int,
        required: Bool
    ) throws -> T? {
        let current = path.steps[step]
        guard let arrayStep = current.arrayStep else {
            throw keyStepOnArray(path, step: step, codingPath: container.codingPath)
        }
        if case .filter(let field, let value) = arrayStep {
            while !container.isAtEnd {
                let element = try container.superDecoder()
                guard let object = try? element.container(keyedBy: AnyCodingKey.self),
                    matches(object, field: field, value: value)
                else { continue }
                return try DecodingBox<T>(from: element).value
            }
            if required {
                throw missing(
                    path, step: step, codingPath: container.codingPath,
                    reason: "no element with \(field.stringValue) == \"\(value)\"")
            }
            return nil
        }
        guard try position(&container, at: arrayStep, path: path, step: step, required: required) else {
            return nil
        }
        if required {
            if isDirectlyDecodable(T.self) { return try container.decodeLeaf(T.self) }
            return try container.decode(DecodingBox<T>.self).value
        }
        if isDirectlyDecodable(T.self) { return try container.decodeLeafIfPresent(T.self) }
        return try container.decodeIfPresent(DecodingBox<T>.self)?.value
    }
}
