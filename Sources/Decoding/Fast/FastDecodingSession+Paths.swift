/// Key paths read on the parsed text, step for step as ``PathNavigator`` reads them through
/// Foundation's containers.
extension FastDecodingSession {
    /// Where a path leads.
    enum PathOutcome {
        /// The value the last step names (it may be null), and its coding path.
        case found(Int, CodingPathNode?)
        /// A step is missing or null, an index is out of range or a filter matches nothing,
        /// and the value was not required: ``PathNavigator`` gives nil.
        case absent
    }

    /// Follows `path` from the object or array at `start`, whose coding path is `location`,
    /// step for step as ``PathNavigator`` walks it, and throws the error it throws where it
    /// stops: a step of the wrong kind for the value it meets (an index on an object, a key on
    /// an array), a value on the way that is neither the object nor the array the next step
    /// reads (`JSONDecoder`'s container error), and, for a `required` value, a missing or null
    /// step, an index out of range or a filter that matches nothing
    /// (``PathNavigator/missing(_:step:codingPath:reason:)``), or a last key its object lacks
    /// (`JSONDecoder`'s `keyNotFound`).
    ///
    /// One shape it leaves to the other route (``FastDeferral/Reason/pathError``): in a keyed
    /// container, an object on the way whose next step is an index or a filter (`a.b[0]` where
    /// `b` is an object). ``PathNavigator`` throws there `JSONDecoder`'s error for an array
    /// asked of an object, unless an earlier path key of the same container reached that
    /// object and its cache holds it; then its own error, which names the step.
    ///
    /// - Parameters:
    ///   - required: whether an absent value is an error (`decode`) rather than nil
    ///     (`decodeIfPresent`, `contains`).
    ///   - cacheMayDecide: whether the error of the shape above depends on a cache (a keyed
    ///     container's path keys, not the path given to ``PathDecoder/decode(_:from:at:)``,
    ///     nor `contains`, which answers false for either error).
    func resolve(
        _ path: PathExpression, from start: Int, location: CodingPathNode?, required: Bool,
        cacheMayDecide: Bool = false
    ) throws -> PathOutcome {
        let steps = path.steps
        let last = steps.count - 1
        var node = start
        var location = location
        var stepIndex = 0
        while true {
            let step = steps[stepIndex]
            let child: Int
            let childLocation: CodingPathNode
            if nodes[node].kind == .object {
                guard let key = step.key else {
                    throw PathNavigator.arrayStepOnObject(
                        path, step: stepIndex, codingPath: CodingPathNode.codingPath(location))
                }
                guard let value = member(key.stringValue, in: node) else {
                    guard required else { return .absent }
                    let codingPath = CodingPathNode.codingPath(location)
                    // The last key is read from its object as `JSONDecoder` reads a key.
                    if stepIndex == last { throw Self.keyNotFound(key, codingPath) }
                    throw PathNavigator.missing(
                        path, step: stepIndex, codingPath: codingPath, reason: "no \"\(key.stringValue)\"")
                }
                child = value
                childLocation = CodingPathNode(parent: location, component: .key(key.stringValue))
                if stepIndex == last { return .found(child, childLocation) }
                if nodes[child].kind == .null {
                    guard required else { return .absent }
                    throw PathNavigator.missing(
                        path, step: stepIndex, codingPath: CodingPathNode.codingPath(location),
                        reason: "\"\(key.stringValue)\" is null")
                }
            } else if case .filter(let field, let value)? = step.arrayStep {
                guard let (match, position) = try firstMatch(in: node, field: field.stringValue, value: value) else {
                    guard required else { return .absent }
                    throw PathNavigator.missing(
                        path, step: stepIndex, codingPath: CodingPathNode.codingPath(location),
                        reason: "no element with \(field.stringValue) == \"\(value)\"")
                }
                let matchLocation = CodingPathNode(parent: location, component: .index(position))
                if stepIndex == last { return .found(match, matchLocation) }
                // The match is an object: the next step reads it as one.
                node = match
                location = matchLocation
                stepIndex += 1
                continue
            } else {
                guard let arrayStep = step.arrayStep else {
                    throw PathNavigator.keyStepOnArray(
                        path, step: stepIndex, codingPath: CodingPathNode.codingPath(location))
                }
                let count = Int(nodes[node].length)
                let position = arrayStep.position(count: count) ?? -1
                guard position >= 0, position < count else {
                    guard required else { return .absent }
                    let reason =
                        count == 0
                        ? "the array is empty" : "index \(position) is out of range (the array has \(count) elements)"
                    throw PathNavigator.missing(
                        path, step: stepIndex, codingPath: CodingPathNode.codingPath(location), reason: reason)
                }
                child = element(position, of: node)
                childLocation = CodingPathNode(parent: location, component: .index(position))
                if stepIndex == last { return .found(child, childLocation) }
                if nodes[child].kind == .null {
                    guard required else { return .absent }
                    throw PathNavigator.missing(
                        path, step: stepIndex, codingPath: CodingPathNode.codingPath(location),
                        reason: "the element is null")
                }
            }
            // A value on the way is opened as the container the next step reads: an array for an
            // index, an array or an object for a step that may be either, an object for a key.
            let kind = nodes[child].kind
            let next = steps[stepIndex + 1]
            if next.key == nil {
                guard kind == .array else {
                    if kind == .object && cacheMayDecide { throw fail(.pathError) }
                    throw containerMismatch(keyed: false, at: child, childLocation.codingPath)
                }
            } else if next.arrayStep != nil {
                guard kind == .array || kind == .object else {
                    throw containerMismatch(keyed: true, at: child, childLocation.codingPath)
                }
            } else {
                guard kind == .object else {
                    throw containerMismatch(keyed: true, at: child, childLocation.codingPath)
                }
            }
            node = child
            location = childLocation
            stepIndex += 1
        }
    }

    /// The first object element of the array at `array` whose `field` equals `value`, and its
    /// position, as ``PathNavigator/matches(_:field:value:)`` compares: text for strings, `true`
    /// or `false` for booleans, the value of `Double(value)` for numbers.
    private func firstMatch(in array: Int, field: String, value: String) throws -> (Int, Int)? {
        let count = Int(nodes[array].length)
        var index = array + 1
        for position in 0..<count {
            defer { index = Int(nodes[index].next) }
            guard nodes[index].kind == .object, let found = member(field, in: index) else { continue }
            let matches: Bool
            switch nodes[found].kind {
            case .string: matches = try string(at: found, nil, nil) == value
            case .true: matches = value == "true"
            case .false: matches = value == "false"
            case .number:
                // ``PathNavigator`` reads the field with `try?`: a number no `Double` holds matches nothing.
                guard let wanted = Double(value), let number = try? double(at: found, nil, nil) else { continue }
                matches = number == wanted
            case .null, .array, .object: matches = false
            }
            if matches { return (index, position) }
        }
        return nil
    }
}

extension FastDecodingSession {
    /// Decodes `type` at `path` from the top of the text, as ``PathDecoder/decode(_:from:at:)``
    /// does through `JSONDecoder`: an optional `type` gives nil where the path leads nowhere.
    /// A path that does not resolve, and the value it leads to, throw what ``PathNavigator``
    /// and `JSONDecoder` throw.
    func decode<T: Decodable>(_ type: T.Type, at path: PathExpression) throws -> T {
        if let optional = T.self as? any FastOptionalAtPath.Type {
            guard let value = try optional.decodeWrapped(at: path, in: self) as? T else { throw Self.noValue(T.self) }
            return value
        }
        guard let value = try decodeIfFound(type, at: path, required: true) else { throw Self.noValue(T.self) }
        return value
    }

    /// The error ``PathDecoder`` throws where ``PathNavigator`` gives no value for a required
    /// one (it does not: each of its ways to give none throws first).
    private static func noValue(_ type: Any.Type) -> DecodingError {
        .valueNotFound(type, DecodingError.Context(codingPath: [], debugDescription: "no value"))
    }

    /// The value at `path` from the top of the text; nil when it is absent and not `required`.
    func decodeIfFound<T: Decodable>(_ type: T.Type, at path: PathExpression, required: Bool) throws -> T? {
        let top = nodes[0]
        switch top.kind {
        case .null:
            if required { throw PathNavigator.missing(path, step: 0, codingPath: [], reason: "the data is null") }
            return nil
        case .object, .array:
            switch try resolve(path, from: 0, location: nil, required: required) {
            case .found(let index, let location):
                if nodes[index].kind == .null && !required { return nil }
                // The last step apart, as the `JSONDecoder` route reads it from the container before.
                return try decodeValue(type, at: index, parent: location?.parent, component: location?.component)
            case .absent: return nil
            }
        default:
            // ``PathNavigator`` asks for an unkeyed container when the data is not an object.
            throw containerMismatch(keyed: false, at: 0, [])
        }
    }
}
