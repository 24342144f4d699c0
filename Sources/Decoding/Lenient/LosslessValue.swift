public import Foundation

/// A scalar that can be read from its text form, so that it decodes whether the JSON holds
/// it as a string or as a number or boolean.
///
/// `String`, `Bool`, the integer types, `Double`, `Float` and `Decimal` adopt it, and so
/// does `Optional` of any of them.
public protocol LosslessDecodable: Decodable {
    /// Reads a value from text such as `"42"`, `"37.765819"` or `"true"`; nil when the text does not fit.
    ///
    /// A static function rather than an initializer, so adopting the protocol adds no
    /// one-argument `init` to `Int`, `Double` or `Bool`: `.flatMap(Int.init)` stays unambiguous
    /// in code that imports Decoding.
    ///
    /// - Parameter text: the text.
    /// - Returns: the value, or nil.
    static func fromLosslessText(_ text: String) -> Self?

    /// The value to use when the key is missing or null: nil (no value) for non-optional types.
    static var absentValue: Self? { get }
}

extension LosslessDecodable {
    /// Non-optional types have no value for absence: a missing key throws.
    public static var absentValue: Self? { nil }
}

extension LosslessDecodable where Self: LosslessStringConvertible {
    /// Reads the value with `init?(_ description:)`.
    ///
    /// - Parameter text: the text.
    /// - Returns: the value, or nil.
    public static func fromLosslessText(_ text: String) -> Self? {
        Self(text)
    }
}

extension String: LosslessDecodable {}
extension Int: LosslessDecodable {}
extension Int8: LosslessDecodable {}
extension Int16: LosslessDecodable {}
extension Int32: LosslessDecodable {}
extension Int64: LosslessDecodable {}
extension UInt: LosslessDecodable {}
extension UInt8: LosslessDecodable {}
extension UInt16: LosslessDecodable {}
extension UInt32: LosslessDecodable {}
extension UInt64: LosslessDecodable {}
extension Double: LosslessDecodable {}
extension Float: LosslessDecodable {}

extension Bool: LosslessDecodable {
    /// Reads `true`, `false`, `1` and `0`.
    ///
    /// - Parameter text: the text.
    /// - Returns: the value, or nil.
    public static func fromLosslessText(_ text: String) -> Bool? {
        switch text {
        case "true", "1": true
        case "false", "0": false
        default: nil
        }
    }
}

extension Decimal: LosslessDecodable {
    /// Reads the text with `Decimal(string:)`, requiring all of it to be a number.
    ///
    /// - Parameter text: the text.
    /// - Returns: the value, or nil.
    public static func fromLosslessText(_ text: String) -> Decimal? {
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), Double(text) != nil
        else { return nil }
        return value
    }
}

extension Optional: LosslessDecodable where Wrapped: LosslessDecodable {
    /// Reads the text as `Wrapped`.
    ///
    /// - Parameter text: the text.
    /// - Returns: the value, or nil.
    public static func fromLosslessText(_ text: String) -> Wrapped?? {
        guard let value = Wrapped.fromLosslessText(text) else { return nil }
        return .some(value)
    }

    /// `nil`: an optional may be absent.
    public static var absentValue: Self? { .some(.none) }
}

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
