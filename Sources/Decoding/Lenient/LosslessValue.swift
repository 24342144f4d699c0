/// A scalar property that accepts its value as a string or as a number (or boolean).
///
/// Flickr sends photo ids, coordinates and counts as strings in some responses and as
/// numbers in others:
///
/// ```swift
/// struct Photo: Decodable {
///     @LosslessValue var id: String          // "14256698876" or 14256698876
///     @LosslessValue var latitude: Double?   // "37.765819", 37.765819, or absent
/// }
/// ```
///
/// A conversion is recorded in the ``DecodingReport`` as ``DecodingReport/Action/convertedType``;
/// text that is not a valid `Value` throws. When `Value` is optional, a missing key or null
/// gives nil.
@propertyWrapper
public struct LosslessValue<Value: LosslessDecodable>: DecodableWithFallback {
    /// The decoded value.
    public var wrappedValue: Value

    /// Creates the wrapper around a value.
    ///
    /// - Parameter wrappedValue: the value.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes the value from its own type, or from a string, number or boolean holding its text.
    ///
    /// - Parameter decoder: the decoder to read from.
    /// - Throws: `DecodingError.typeMismatch` when no representation fits `Value`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Value.self) {
            wrappedValue = value
            return
        }
        let text: String
        let found: String
        if let string = try? container.decode(String.self) {
            (text, found) = (string, "string")
        } else if let integer = try? container.decode(Int64.self) {
            (text, found) = (String(integer), "number")
        } else if let number = try? container.decode(Double.self) {
            (text, found) = (String(number), "number")
        } else if let bool = try? container.decode(Bool.self) {
            (text, found) = (String(bool), "bool")
        } else {
            throw DecodingError.typeMismatch(
                Value.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "Expected to decode \(Value.self) but found an array or object instead."))
        }
        guard let value = Value.fromLosslessText(text) else {
            throw DecodingError.typeMismatch(
                Value.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "Expected to decode \(Value.self) but found \(found) \"\(text)\" instead."))
        }
        DecodingReport.record(decoder.codingPath, .convertedType, "\(found) \"\(text)\" read as \(Value.self)")
        wrappedValue = value
    }

    /// nil for an optional `Value`; no fallback otherwise.
    public static var fallback: Self? {
        guard let absent = Value.absentValue else { return nil }
        return Self(wrappedValue: absent)
    }

    /// False: an optional that is absent is not news.
    public static var fallbackIsReported: Bool { false }
}

extension LosslessValue: Encodable where Value: Encodable {
    /// Encodes the value in its own type.
    ///
    /// - Parameter encoder: the encoder to write to.
    /// - Throws: `EncodingError` from the value's own encoding.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension LosslessValue: Equatable where Value: Equatable {}

extension LosslessValue: Hashable where Value: Hashable {}

extension LosslessValue: Sendable where Value: Sendable {}
