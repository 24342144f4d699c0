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
        /// ``PathNavigator`` throws here: a step of the wrong kind for the value it meets, or
        /// a required value that is absent.
        case mismatch
    }

    /// Follows `path` from the object or array at `start`, whose coding path is `location`.
    ///
    /// - Parameter required: whether an absent value is an error (`decode`) rather than nil
    ///   (`decodeIfPresent`, `contains`).
    func resolve(
        _ path: PathExpression, from start: Int, location: CodingPathNode?, required: Bool
    ) throws -> PathOutcome {
        let steps = path.steps
        let last = steps.count - 1
        let absent: PathOutcome = required ? .mismatch : .absent
        var node = start
        var location = location
        var stepIndex = 0
        while true {
            let step = steps[stepIndex]
            let child: Int
            if nodes[node].kind == .object {
                guard let key = step.key else { return .mismatch }
                guard let value = member(key.stringValue, in: node) else { return absent }
                child = value
                location = CodingPathNode(parent: location, component: .key(key.stringValue))
            } else if case .filter(let field, let value)? = step.arrayStep {
                guard let (match, position) = try firstMatch(in: node, field: field.stringValue, value: value) else {
                    return absent
                }
                child = match
                location = CodingPathNode(parent: location, component: .index(position))
            } else {
                let count = Int(nodes[node].length)
                guard let position = step.arrayStep?.position(count: count) else { return .mismatch }
                guard position >= 0, position < count else { return absent }
                child = element(position, of: node)
                location = CodingPathNode(parent: location, component: .index(position))
            }
            if stepIndex == last { return .found(child, location) }
            // A value on the way: null ends the path; otherwise it must be what the next step reads.
            let kind = nodes[child].kind
            if kind == .null { return absent }
            let next = steps[stepIndex + 1]
            if next.key == nil {
                guard kind == .array else { return .mismatch }
            } else if next.arrayStep != nil {
                guard kind == .array || kind == .object else { return .mismatch }
            } else {
                guard kind == .object else { return .mismatch }
            }
            node = child
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
                guard let wanted = Double(value) else { continue }
                matches = try double(at: found, nil, nil) == wanted
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
    /// A path that does not resolve gives up (``FastDeferral/Reason/pathError``); the value it
    /// leads to throws what `JSONDecoder` throws.
    func decode<T: Decodable>(_ type: T.Type, at path: PathExpression) throws -> T {
        if let optional = T.self as? any FastOptionalAtPath.Type {
            guard let value = try optional.decodeWrapped(at: path, in: self) as? T else { throw fail(.pathError) }
            return value
        }
        guard let value = try decodeIfFound(type, at: path, required: true) else { throw fail(.pathError) }
        return value
    }

    /// The value at `path` from the top of the text; nil when it is absent and not `required`.
    func decodeIfFound<T: Decodable>(_ type: T.Type, at path: PathExpression, required: Bool) throws -> T? {
        let top = nodes[0]
        switch top.kind {
        case .null:
            if required { throw fail(.pathError) }
            return nil
        case .object, .array:
            switch try resolve(path, from: 0, location: nil, required: required) {
            case .found(let index, let location):
                if nodes[index].kind == .null && !required { return nil }
                // The last step apart, as the `JSONDecoder` route reads it from the container before.
                return try decodeValue(type, at: index, parent: location?.parent, component: location?.component)
            case .absent: return nil
            case .mismatch: throw fail(.pathError)
            }
        default:
            throw fail(.pathError)
        }
    }
}
