/// A transform that can be undone, so that the property encodes back.
public protocol ReversibleTransform: DecodingTransform where Input: Encodable {
    /// Converts a property value back to what the JSON holds.
    ///
    /// - Parameter output: the property's value.
    /// - Returns: the value to encode.
    /// - Throws: any error; it is reported as an `EncodingError.invalidValue`.
    static func reverse(_ output: Output) throws -> Input
}
