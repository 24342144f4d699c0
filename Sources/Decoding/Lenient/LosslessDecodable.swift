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
