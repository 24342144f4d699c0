/// The `DecodingError`s the fast path throws, spelled as the `JSONDecoder` route throws them.
///
/// Each error has the case, the coding path and the debug description that Foundation's
/// `JSONDecoder` (behind the path-aware containers) gives for the same request on the same
/// value, so a type that catches one (`try?`, a lenient helper) sees what it would see on the
/// other route, and an error nothing catches is reported as it is: neither needs the data
/// decoded a second time.
extension FastDecodingSession {
    /// How `JSONDecoder` names the kind of the value at `index` in its messages.
    func kindDescription(of index: Int) -> String {
        switch nodes[index].kind {
        case .string: return "a string"
        case .number: return "number"
        case .true, .false: return "bool"
        case .null: return "null"
        case .object: return "a dictionary"
        case .array: return "an array"
        }
    }

    /// The coding path `parent` followed by `component`.
    static func codingPath(
        _ parent: CodingPathNode?, _ component: CodingPathNode.Component?
    ) -> [any CodingKey] {
        guard let component else { return CodingPathNode.codingPath(parent) }
        return CodingPathNode(parent: parent, component: component).codingPath
    }

    /// `JSONDecoder`'s error for a value at `index` of another kind than `type`.
    func typeMismatch(_ type: Any.Type, at index: Int, _ codingPath: [any CodingKey]) -> DecodingError {
        let key = MismatchMessageKey(type: ObjectIdentifier(type), kind: nodes[index].kind)
        let message: String
        if let known = mismatchMessages[key] {
            message = known
        } else {
            message = "Expected to decode \(type) but found \(kindDescription(of: index)) instead."
            mismatchMessages[key] = message
        }
        return .typeMismatch(type, DecodingError.Context(codingPath: codingPath, debugDescription: message))
    }

    /// `JSONDecoder`'s error for a scalar of `type` asked of the value at `index`, which is not
    /// one: null is a missing value, unless `nullIsMismatch` (`Bool`, which `JSONDecoder`
    /// reads without a null check).
    func scalarMismatch(
        _ type: Any.Type, at index: Int, _ parent: CodingPathNode?, _ component: CodingPathNode.Component?,
        nullIsMismatch: Bool = false
    ) -> DecodingError {
        let codingPath = Self.codingPath(parent, component)
        if !nullIsMismatch && nodes[index].kind == .null { return Self.nullValue(type, codingPath) }
        return typeMismatch(type, at: index, codingPath)
    }

    /// `JSONDecoder`'s error for a null value asked for as `type`.
    static func nullValue(_ type: Any.Type, _ codingPath: [any CodingKey]) -> DecodingError {
        .valueNotFound(
            type,
            DecodingError.Context(
                codingPath: codingPath, debugDescription: "Cannot get value of type \(type) -- found null value instead"
            ))
    }

    /// `JSONDecoder`'s error for a key the object does not have.
    static func keyNotFound(_ key: AnyCodingKey, _ codingPath: [any CodingKey]) -> DecodingError {
        .keyNotFound(
            key,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }

    /// `JSONDecoder`'s error for an element asked as `type` of an unkeyed container at its end.
    static func atEnd(_ type: Any.Type, _ codingPath: [any CodingKey], index: Int) -> DecodingError {
        .valueNotFound(
            type,
            DecodingError.Context(
                codingPath: codingPath + [IndexCodingKey(index)],
                debugDescription: "Unkeyed container is at end."))
    }

    /// `JSONDecoder`'s error for a keyed (`keyed`) or an unkeyed container asked of the value at
    /// `index`, which is not an object (an array).
    func containerMismatch(keyed: Bool, at index: Int, _ codingPath: [any CodingKey]) -> DecodingError {
        let type: Any.Type = keyed ? [String: Any].self : [Any].self
        guard nodes[index].kind == .null else { return typeMismatch(type, at: index, codingPath) }
        let kind = keyed ? "keyed" : "unkeyed"
        return .valueNotFound(
            type,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "Cannot get \(kind) decoding container -- found null value instead"))
    }
}

/// A type-mismatch message's identity: the type asked for and the kind of value found.
struct MismatchMessageKey: Hashable {
    let type: ObjectIdentifier
    let kind: JSONNode.Kind
}
