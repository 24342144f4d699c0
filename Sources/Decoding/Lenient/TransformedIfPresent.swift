/// A property decoded as `Transform.Input` and stored as `Transform.Output?`: nil when the key
/// is missing, the value is null, or an object on its path is missing.
@propertyWrapper
public struct TransformedIfPresent<Transform: DecodingTransform>: Decodable {
    /// The transformed value, or nil.
    public var wrappedValue: Transform.Output?

    /// Creates the wrapper around a value.
    ///
    /// - Parameter wrappedValue: the value.
    @inlinable
    public init(wrappedValue: Transform.Output?) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes `Transform.Input`, or null, and transforms it.
    ///
    /// - Parameter decoder: the decoder to read from.
    /// - Throws: `DecodingError` when the input does not decode or the transform fails.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            wrappedValue = nil
        } else {
            let input = try container.decode(Transform.Input.self)
            wrappedValue = try applyTransform(Transform.self, input, codingPath: decoder.codingPath)
        }
    }
}

extension TransformedIfPresent: Encodable where Transform: ReversibleTransform {
    /// Encodes the reversed value, or null.
    ///
    /// - Parameter encoder: the encoder to write to.
    /// - Throws: `EncodingError.invalidValue` when reversing fails.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        guard let wrappedValue else { return try container.encodeNil() }
        try container.encode(try reverseTransform(Transform.self, wrappedValue, codingPath: encoder.codingPath))
    }
}

extension TransformedIfPresent: Equatable where Transform.Output: Equatable {}

extension TransformedIfPresent: Sendable where Transform.Output: Sendable {}
