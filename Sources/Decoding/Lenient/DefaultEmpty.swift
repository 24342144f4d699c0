/// A collection property that is empty when its key is missing or its value is null.
///
/// For example, a Google Books search with no match has no `items` key at all:
///
/// ```swift
/// struct BookPage: Decodable {
///     enum CodingKeys: String, CodingKey { case books = "items" }
///     @DefaultEmpty var books: [Book]
/// }
/// ```
@propertyWrapper
public struct DefaultEmpty<Value: Decodable & RangeReplaceableCollection>: DecodableWithFallback {
    /// The decoded collection, or an empty one.
    public var wrappedValue: Value

    /// Creates the wrapper around a collection.
    ///
    /// - Parameter wrappedValue: the collection.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes the collection.
    ///
    /// - Parameter decoder: the decoder to read from.
    /// - Throws: `DecodingError` when the value does not fit `Value`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            DecodingReport.record(decoder.codingPath, .usedDefault, "value is null")
            wrappedValue = Value()
        } else {
            wrappedValue = try container.decode(Value.self)
        }
    }

    /// An empty collection.
    public static var fallback: Self? { Self(wrappedValue: Value()) }

    /// True: an empty default is always reported.
    public static var fallbackIsReported: Bool { true }
}

extension DefaultEmpty: Encodable where Value: Encodable {
    /// Encodes the collection.
    ///
    /// - Parameter encoder: the encoder to write to.
    /// - Throws: `EncodingError` from the collection's own encoding.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension DefaultEmpty: Equatable where Value: Equatable {}

extension DefaultEmpty: Hashable where Value: Hashable {}

extension DefaultEmpty: Sendable where Value: Sendable {}
