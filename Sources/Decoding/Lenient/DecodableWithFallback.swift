/// A type with a value to use when its key is missing or its value is null.
///
/// The lenient property wrappers adopt it (``DefaultValue``, ``DefaultEmpty``,
/// ``LossyArray``, and ``LosslessValue`` over an optional). A `KeyedDecodingContainer`
/// overload, `KeyedDecodingContainer.decode(_:forKey:)`, uses the
/// fallback instead of throwing, and records it in the ``DecodingReport`` when
/// ``fallbackIsReported`` is true. Your own wrappers may adopt it too.
public protocol DecodableWithFallback: Decodable {
    /// The value for a missing key or a null value, or nil to throw as a plain `Decodable` would.
    static var fallback: Self? { get }

    /// Whether using ``fallback`` is noted in the report (false for optionals, which are allowed to be absent).
    static var fallbackIsReported: Bool { get }
}

extension KeyedDecodingContainer {
    /// Decodes a value that has a fallback, using the fallback when the key is missing or the value is null.
    ///
    /// The compiler's own `init(from:)` calls this overload for properties whose wrapper
    /// adopts ``DecodableWithFallback``, so `@DefaultEmpty var books: [Book]` decodes as
    /// `[]` when there is no `items` key.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - key: the key, which may be a path when decoding through ``PathDecoder``.
    /// - Returns: the decoded value, or the type's fallback.
    /// - Throws: `DecodingError` when the value is present but does not fit, or is absent
    ///   and the type has no fallback.
    public func decode<W: DecodableWithFallback>(_ type: W.Type, forKey key: Key) throws -> W {
        if let value = try decodeIfPresent(type, forKey: key) { return value }
        guard let fallback = W.fallback else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)"))
        }
        if W.fallbackIsReported {
            let reason = contains(key) ? "value is null" : "key is missing"
            DecodingReport.record(codingPath + [key], .usedDefault, reason)
        }
        return fallback
    }
}
