public import Foundation

/// A value whose property can be aggregated: its minimum and maximum taken, and, for numbers,
/// summed and averaged.
///
/// The standard integer types (except `UInt` and `UInt64`), `Double`, `Float`, `Bool`,
/// `String`, `Date`, `UUID`, `URL`, `Data` and `Optional`s of these conform. A raw-value enum
/// that is a ``QueryableValue`` conforms with an empty extension (its minimum and maximum
/// compare raw values):
///
/// ```swift
/// extension Shelf: AggregatableValue {}
/// ```
public protocol AggregatableValue: QueryableValue, Decodable {
    /// The value without its optionality: the type of a minimum, a maximum or a sum of such
    /// values (`Int` for both `Int` and `Int?`).
    associatedtype Unwrapped: QueryableValue & Decodable = Self
}

extension Int: AggregatableValue {}
extension Int8: AggregatableValue {}
extension Int16: AggregatableValue {}
extension Int32: AggregatableValue {}
extension Int64: AggregatableValue {}
extension UInt8: AggregatableValue {}
extension UInt16: AggregatableValue {}
extension UInt32: AggregatableValue {}
extension Double: AggregatableValue {}
extension Float: AggregatableValue {}
extension Bool: AggregatableValue {}
extension String: AggregatableValue {}
extension Date: AggregatableValue {}
extension UUID: AggregatableValue {}
extension URL: AggregatableValue {}
extension Data: AggregatableValue {}

extension Optional: AggregatableValue where Wrapped: AggregatableValue {
    /// The wrapped value's own unwrapped type.
    public typealias Unwrapped = Wrapped.Unwrapped
}
