public import Foundation

/// A value that can appear in a filter: it has one SQLite representation.
///
/// The standard integer types (except `UInt` and `UInt64`, which may not fit),
/// `Bool`, `Double`, `Float`, `String`, `Data`, `Date` (its `timeIntervalSinceReferenceDate`,
/// seconds since 2001-01-01 00:00 UTC, as a real),
/// `UUID` (its text), `URL` (its absolute string) and `Optional`s of these conform. Make your
/// own raw-value enums conform with an empty extension:
///
/// ```swift
/// enum Shelf: String, Codable, QueryableValue { case reading, done }
/// ```
public protocol QueryableValue: Sendable {
    /// The value as SQLite stores it.
    var databaseValue: DatabaseValue { get }
}

extension QueryableValue where Self: RawRepresentable, RawValue: QueryableValue {
    /// The raw value's representation.
    public var databaseValue: DatabaseValue { rawValue.databaseValue }
}

extension Int: QueryableValue {
    /// The integer.
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension Int8: QueryableValue {
    /// The integer.
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension Int16: QueryableValue {
    /// The integer.
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension Int32: QueryableValue {
    /// The integer.
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension Int64: QueryableValue {
    /// The integer.
    public var databaseValue: DatabaseValue { .integer(self) }
}

extension UInt8: QueryableValue {
    /// The integer.
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension UInt16: QueryableValue {
    /// The integer.
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension UInt32: QueryableValue {
    /// The integer.
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension Bool: QueryableValue {
    /// 1 for `true`, 0 for `false`.
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
}

extension Double: QueryableValue {
    /// The number as a SQLite `REAL`.
    public var databaseValue: DatabaseValue { .real(self) }
}

extension Float: QueryableValue {
    /// The number, widened to a double.
    public var databaseValue: DatabaseValue { .real(Double(self)) }
}

extension String: QueryableValue {
    /// The string as SQLite `TEXT` (UTF-8).
    public var databaseValue: DatabaseValue { .text(self) }
}

extension Data: QueryableValue {
    /// The bytes as a SQLite `BLOB`.
    public var databaseValue: DatabaseValue { .blob(self) }
}

extension Date: QueryableValue {
    /// Seconds since 2001-01-01 00:00 UTC (`timeIntervalSinceReferenceDate`), as a real: the
    /// exact bits of the date, which seconds since 1970 would round.
    public var databaseValue: DatabaseValue { .real(timeIntervalSinceReferenceDate) }
}

extension UUID: QueryableValue {
    /// The UUID's canonical upper-case text.
    public var databaseValue: DatabaseValue { .text(uuidString) }
}

extension URL: QueryableValue {
    /// The URL's absolute string.
    public var databaseValue: DatabaseValue { .text(absoluteString) }
}

extension Optional: QueryableValue where Wrapped: QueryableValue {
    /// The wrapped value's representation, or `NULL`.
    public var databaseValue: DatabaseValue {
        switch self {
        case .none: .null
        case .some(let value): value.databaseValue
        }
    }
}
