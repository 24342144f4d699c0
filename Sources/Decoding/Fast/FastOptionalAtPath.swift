/// Optionals decoded at a path on the fast path: nil when the path leads nowhere.
protocol FastOptionalAtPath {
    /// The wrapped value at `path`, or nil, as `Any`.
    static func decodeWrapped(at path: PathExpression, in session: FastDecodingSession) throws -> Any
}

extension Optional: FastOptionalAtPath where Wrapped: Decodable {
    static func decodeWrapped(at path: PathExpression, in session: FastDecodingSession) throws -> Any {
        let value: Wrapped? = try session.decodeIfFound(Wrapped.self, at: path, required: false)
        return value as Any
    }
}
