extension Extraction where Value: Decodable {
    /// Not a call: a JSON body is decoded with ``decode(_:at:decoder:)``, `.decode(Movie.self)`.
    ///
    /// - Parameter type: the type to decode.
    /// - Returns: the strategy.
    @available(
        *, unavailable,
        message:
            "a JSON body is decoded with .decode(Movie.self), or .decode(Movie.self, at: \"results\") for a nested value"
    )
    public static func json(_ type: Value.Type = Value.self) -> Extraction {
        .decode(type)
    }
}
