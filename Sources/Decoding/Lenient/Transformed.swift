/// A property decoded as `Transform.Input` and stored as `Transform.Output`; the key must be present.
@propertyWrapper
public struct Transformed<Transform: DecodingTransform>: Decodable {
    /// The transformed value.
    public var wrappedValue: Transform.Output

    /// Creates the wrapper around a value.
    ///
    /// - Parameter wrappedValue: the value.
    @inlinable
    public init(wrappedValue: Transform.Output) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes `Transform.Input` and transforms it.
    ///
    /// - Parameter decoder: the decoder to read from.
    /// - Throws: `DecodingError` when the input does not decode or the transform fails.
    public init(from decoder: any Decoder) throws {
        let input = try decoder.singleValueContainer().decode(Transform.Input.self)
        wrappedValue = try applyTransform(Transform.self, input, codingPath: decoder.codingPath)
    }
}

extension Transformed: Encodable where Transform: ReversibleTransform {
    /// Encodes the reversed value.
    ///
    /// - Parameter encoder: the encoder to write to.
    /// - Throws: `EncodingError.invalidValue` when reversing fails.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(try reverseTransform(Transform.self, wrappedValue, codingPath: encoder.codingPath))
    }
}

extension Transformed: Equatable where Transform.Output: Equatable {}

extension Transformed: Sendable where Transform.Output: Sendable {}

extension KeyedDecodingContainer {
    /// Decodes a transformed property: decodes the input at `key` (which may be a path) and transforms it.
    ///
    /// - Parameters:
    ///   - type: the wrapper type.
    ///   - key: the key.
    /// - Returns: the wrapper holding the transformed value.
    /// - Throws: `DecodingError` when the input is missing, does not decode, or the transform fails.
    @inlinable
    public func decode<T: DecodingTransform>(_ type: Transformed<T>.Type, forKey key: Key) throws -> Transformed<T> {
        let input = try decode(T.Input.self, forKey: key)
        return Transformed(wrappedValue: try applyTransform(T.self, input, codingPath: codingPath + [key]))
    }

    /// Decodes an optional transformed property: nil when the key is missing, the value is
    /// null, or an object on its path is missing or null.
    ///
    /// - Parameters:
    ///   - type: the wrapper type.
    ///   - key: the key.
    /// - Returns: the wrapper holding the transformed value or nil.
    /// - Throws: `DecodingError` when the input is present but does not decode, or the transform fails.
    @inlinable
    public func decode<T: DecodingTransform>(
        _ type: TransformedIfPresent<T>.Type, forKey key: Key
    ) throws
        -> TransformedIfPresent<T>
    {
        guard let input = try decodeIfPresent(T.Input.self, forKey: key) else {
            return TransformedIfPresent(wrappedValue: nil)
        }
        return TransformedIfPresent(wrappedValue: try applyTransform(T.self, input, codingPath: codingPath + [key]))
    }
}

extension KeyedEncodingContainer {
    /// Encodes an optional transformed property, leaving the key out when it is nil.
    ///
    /// - Parameters:
    ///   - value: the wrapper.
    ///   - key: the key.
    /// - Throws: `EncodingError.invalidValue` when reversing fails.
    public mutating func encode<T: ReversibleTransform>(_ value: TransformedIfPresent<T>, forKey key: Key) throws {
        guard let output = value.wrappedValue else { return }
        try encode(try reverseTransform(T.self, output, codingPath: codingPath + [key]), forKey: key)
    }
}

/// Runs a transform, turning its error into a `DecodingError` at the value's path.
@usableFromInline
func applyTransform<T: DecodingTransform>(
    _ transform: T.Type, _ input: T.Input, codingPath: @autoclosure () -> [any CodingKey]
)
    throws -> T.Output
{
    do {
        return try T.transform(input)
    } catch let error as DecodingError {
        throw error
    } catch {
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: codingPath(), debugDescription: "\(T.self) failed: \(error)", underlyingError: error))
    }
}

/// Reverses a transform, turning its error into an `EncodingError` at the value's path.
func reverseTransform<T: ReversibleTransform>(
    _ transform: T.Type, _ output: T.Output, codingPath: @autoclosure () -> [any CodingKey]
)
    throws -> T.Input
{
    do {
        return try T.reverse(output)
    } catch let error as EncodingError {
        throw error
    } catch {
        throw EncodingError.invalidValue(
            output,
            EncodingError.Context(
                codingPath: codingPath(), debugDescription: "\(T.self) cannot reverse: \(error)",
                underlyingError: error))
    }
}
