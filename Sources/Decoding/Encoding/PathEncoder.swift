public import Foundation

/// Encodes `Encodable` types whose `CodingKeys` name paths back into the nested JSON they
/// were decoded from.
///
/// A `Book` with `case title = "volumeInfo.title"` encodes as
/// `{"volumeInfo": {"title": …}}`, so decoding the output with ``PathDecoder`` gives the
/// same value back. Types without path keys encode exactly as with `JSONEncoder`.
///
/// Encoding is well defined for paths made of keys, for a filter step
/// (`industryIdentifiers[type=ISBN_13].identifier` writes an element
/// `{"type": "ISBN_13", "identifier": …}`), and for `first`, `last` and `0`, which each
/// append one element. It throws `EncodingError.invalidValue` for the cases that are not:
/// an index above 0, a path whose last step is a filter, and a path that continues below a
/// value another key already wrote. See <doc:NestedKeysAndLenientDecoding>.
public struct PathEncoder: Sendable {
    /// Formatting of the output, such as `.sortedKeys` or `.prettyPrinted`.
    public var outputFormatting: JSONEncoder.OutputFormatting = []
    /// How dates are encoded; the default writes seconds since 2001, as `JSONEncoder` does.
    public var dateEncodingStrategy: JSONEncoder.DateEncodingStrategy = .deferredToDate
    /// How `Data` values are encoded; the default writes Base64.
    public var dataEncodingStrategy: JSONEncoder.DataEncodingStrategy = .base64
    /// How keys are written, for example `.convertToSnakeCase`.
    public var keyEncodingStrategy: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys
    /// How `NaN` and infinities are encoded; the default throws.
    public var nonConformingFloatEncodingStrategy: JSONEncoder.NonConformingFloatEncodingStrategy = .throw

    /// Creates an encoder with default settings.
    public init() {}

    /// Creates an encoder and configures it.
    ///
    /// - Parameter configure: changes the settings of the new encoder.
    public init(_ configure: (inout PathEncoder) -> Void) {
        configure(&self)
    }

    /// Encodes `value` as JSON, expanding path keys into nested objects.
    ///
    /// - Parameter value: the value to encode.
    /// - Returns: UTF-8 JSON.
    /// - Throws: `EncodingError` when a value cannot be encoded or a path cannot be written back.
    public func encode<T: Encodable>(_ value: T) throws(EncodingError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = outputFormatting
        encoder.dateEncodingStrategy = dateEncodingStrategy
        encoder.dataEncodingStrategy = dataEncodingStrategy
        encoder.keyEncodingStrategy = keyEncodingStrategy
        encoder.nonConformingFloatEncodingStrategy = nonConformingFloatEncodingStrategy
        do {
            if isDirectlyDecodable(T.self) { return try encoder.encode(value) }
            return try encoder.encode(EncodingBox(value: value))
        } catch let error as EncodingError {
            throw error
        } catch {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(error)", underlyingError: error))
        }
    }
}
