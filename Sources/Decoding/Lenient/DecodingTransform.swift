/// A conversion applied while decoding, from the JSON's shape to the property's.
///
/// For example, ``JoinedStrings`` turns `["Ada", "Grace"]` into `"Ada, Grace"`:
///
/// ```swift
/// struct Book: Decodable {
///     enum CodingKeys: String, CodingKey { case authors = "volumeInfo.authors" }
///     @TransformedIfPresent<JoinedStrings> var authors: String?
/// }
/// ```
public protocol DecodingTransform {
    /// What the JSON holds.
    associatedtype Input: Decodable
    /// What the property holds.
    associatedtype Output

    /// Converts a decoded input.
    ///
    /// - Parameter input: the decoded JSON value.
    /// - Returns: the property's value.
    /// - Throws: any error; it is reported as a `DecodingError.dataCorrupted` at the value's path.
    static func transform(_ input: Input) throws -> Output
}
