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

/// A property that takes a default value when its key is missing or its value is null.
///
/// A value of the wrong type still throws: a default hides absence, never bad data. Each use
/// of the default is recorded in the ``DecodingReport`` with its path.
@propertyWrapper
public struct DefaultValue<Provider: DefaultValueProvider>: DecodableWithFallback {
    /// The decoded or default value.
    public var wrappedValue: Provider.Value

    /// Creates the wrapper around a value.
    ///
    /// - Parameter wrappedValue: the value.
    public init(wrappedValue: Provider.Value) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes the value.
    ///
    /// - Parameter decoder: the decoder to read from.
    /// - Throws: `DecodingError` when the value does not fit `Provider.Value`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            DecodingReport.record(decoder.codingPath, .usedDefault, "value is null")
            wrappedValue = Provider.defaultValue
        } else {
            wrappedValue = try container.decode(Provider.Value.self)
        }
    }

    /// ``DefaultValueProvider/defaultValue``.
    public static var fallback: Self? { Self(wrappedValue: Provider.defaultValue) }

    /// True: a default is always reported.
    public static var fallbackIsReported: Bool { true }
}

extension DefaultValue: Encodable where Provider.Value: Encodable {
    /// Encodes the value (the default too, when it was used).
    ///
    /// - Parameter encoder: the encoder to write to.
    /// - Throws: `EncodingError` from the value's own encoding.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension DefaultValue: Equatable where Provider.Value: Equatable {}
extension DefaultValue: Hashable where Provider.Value: Hashable {}
extension DefaultValue: Sendable where Provider.Value: Sendable {}

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

/// Default value providers for the common cases.
public enum Defaults {
    /// Supplies `false` for a missing or null `Bool`: `@DefaultValue<Defaults.False> var isEbook: Bool`.
    public enum False: DefaultValueProvider {
        /// The value used when the key is missing or null: `false`.
        public static var defaultValue: Bool { false }
    }

    /// Supplies `true` for a missing or null `Bool`: `@DefaultValue<Defaults.True> var isPublic: Bool`.
    public enum True: DefaultValueProvider {
        /// The value used when the key is missing or null: `true`.
        public static var defaultValue: Bool { true }
    }

    /// Supplies zero for a missing or null number: `@DefaultValue<Defaults.Zero<Int>> var pageCount: Int`.
    public enum Zero<Number: Decodable & Numeric>: DefaultValueProvider {
        /// The value used when the key is missing or null: `0`.
        public static var defaultValue: Number { 0 }
    }

    /// Supplies `""` for a missing or null `String`: `@DefaultValue<Defaults.EmptyString> var subtitle: String`.
    public enum EmptyString: DefaultValueProvider {
        /// The value used when the key is missing or null: the empty string.
        public static var defaultValue: String { "" }
    }
}
