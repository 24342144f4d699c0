/// Supplies the value ``DefaultValue`` uses for a missing key or a null value.
///
/// For example:
///
/// ```swift
/// enum Unrated: DefaultValueProvider {
///     static var defaultValue: Double { 0 }
/// }
///
/// struct Movie: Decodable {
///     @DefaultValue<Unrated> var popularity: Double
/// }
/// ```
public protocol DefaultValueProvider {
    /// The type of the value.
    associatedtype Value: Decodable
    /// The value to use when the key is missing or the value is null.
    static var defaultValue: Value { get }
}
