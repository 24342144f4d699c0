import Foundation

/// A count that an API sends as a number or as a string of digits.
///
/// Flickr sends `"pages": "160"` in some responses and `"pages": 12` in others; decode the
/// field as `PageCount` and read ``value``.
///
/// ```swift
/// struct FlickrPhotos: Decodable {
///     let page: PageCount
///     let pages: PageCount
/// }
/// ```
public struct PageCount: Sendable, Hashable, Decodable, CustomStringConvertible {
    /// The count as an integer, whichever JSON type it arrived as.
    public var value: Int

    /// Creates a count.
    ///
    /// - Parameter value: the count.
    init(_ value: Int) {
        self.value = value
    }

    /// Decodes a count from an integer, or from a string holding one.
    ///
    /// - Parameter decoder: the decoder to read from.
    /// - Throws: `DecodingError.dataCorrupted` when the value is neither an integer nor a
    ///   string of one (such as `"12.5"` or `"many"`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            value = number
            return
        }
        let text = try container.decode(String.self)
        guard let number = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "Expected a count as an integer or a string of digits, got \"\(text)\".")
        }
        value = number
    }

    /// The count as text.
    public var description: String { String(value) }
}
