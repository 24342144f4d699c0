public import Foundation

/// A value as SQLite stores it: null, a 64-bit integer, a double, text or bytes.
///
/// Used for the raw-SQL escape hatch's arguments and results, and for declared
/// column defaults. Every value is bound to its statement, never spliced into SQL.
public enum DatabaseValue: Sendable, Hashable, CustomStringConvertible {
    /// SQL `NULL`: no value (a `nil` optional).
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A double-precision floating-point number.
    case real(Double)
    /// UTF-8 text; may contain any character, including NUL.
    case text(String)
    /// Bytes, stored as a SQLite `BLOB`.
    case blob(Data)

    /// A readable rendering for logs and messages.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'\(value)'"
        case .blob(let value): "<\(value.count) bytes>"
        }
    }

    /// The integer, if this is an integer.
    public var integerValue: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }

    /// The text, if this is text.
    public var textValue: String? {
        if case .text(let value) = self { value } else { nil }
    }

    /// The number as a double, if this is an integer or a real.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }
}
