extension KeyedDecodingContainer {
    /// Decodes the value at a path below this container, for hand-written `init(from:)` code.
    ///
    /// For example:
    ///
    /// ```swift
    /// init(from decoder: any Decoder) throws {
    ///     let container = try decoder.container(keyedBy: AnyCodingKey.self)
    ///     title = try container.decode(String.self, at: "volumeInfo.title")
    ///     isbn13 = try container.decodeIfPresent(String.self, at: "volumeInfo.industryIdentifiers[type=ISBN_13].identifier")
    /// }
    /// ```
    ///
    /// This works with any decoder, not only ``PathDecoder``. The first step must be a key
    /// that `Key` can represent; ``AnyCodingKey`` represents every key.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - path: the path, in the syntax described in <doc:NestedKeysAndLenientDecoding>.
    /// - Returns: the decoded value.
    /// - Throws: `DecodingError.keyNotFound` naming the whole path when a step is missing,
    ///   and the other `DecodingError`s when the value does not fit `type`.
    public func decode<T: Decodable>(_ type: T.Type, at path: String) throws -> T {
        let expression = try parsedPath(path)
        guard let value = try PathNavigator.decode(type, at: expression, in: self, cache: nil, required: true) else {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: codingPath, debugDescription: "no value at \(path)"))
        }
        return value
    }

    /// Decodes the value at a path below this container, or nil when it is missing or null
    /// or any object on the path is missing or null.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - path: the path, in the syntax described in <doc:NestedKeysAndLenientDecoding>.
    /// - Returns: the decoded value, or nil.
    /// - Throws: `DecodingError` when a value is present but does not fit.
    public func decodeIfPresent<T: Decodable>(_ type: T.Type, at path: String) throws -> T? {
        try PathNavigator.decode(type, at: try parsedPath(path), in: self, cache: nil, required: false)
    }

    /// Whether a value (null included) exists at a path below this container.
    ///
    /// - Parameter path: the path.
    /// - Returns: true when every step of the path exists.
    public func contains(path: String) -> Bool {
        guard let expression = try? parsedPath(path) else { return false }
        return PathNavigator.contains(expression, in: self)
    }

    private func parsedPath(_ path: String) throws -> PathExpression {
        switch PathCache.shared.expression(for: path) {
        case .success(let expression): return expression
        case .failure(let error):
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath, debugDescription: error.description))
        }
    }
}
