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
