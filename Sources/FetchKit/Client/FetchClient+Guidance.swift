public import Foundation

extension FetchClient {
    // The spellings a newcomer tries first: a URL or a string where the call takes an endpoint,
    // a type where it takes an extraction. Each is unavailable, with a message naming the call to
    // use (without them the compiler says only that the argument does not conform to `Endpoint`
    // or `Extraction`). Their bodies do what the message says. They leave out the right call's
    // optional parameters, so that their names differ from its names (DocC links).

    /// Not a call: a URL is fetched as an endpoint, `client.fetch(.url(url), extracting: …)`.
    ///
    /// - Parameters:
    ///   - url: the URL.
    ///   - extraction: how to turn the response into a value.
    /// - Returns: the value.
    /// - Throws: ``FetchError``.
    @available(
        *, unavailable,
        message: "a URL is fetched as an endpoint: client.fetch(.url(url), extracting: …)"
    )
    public func fetch<Value>(_ url: URL, extracting extraction: Extraction<Value>) async throws(FetchError) -> Value {
        try await fetch(.url(url), extracting: extraction)
    }

    /// Not a call: a URL is fetched as an endpoint,
    /// `client.fetch(.url(url), extracting: …) { result in … }`.
    ///
    /// - Parameters:
    ///   - url: the URL.
    ///   - extraction: how to turn the response into a value.
    ///   - isolation: where the completion runs.
    ///   - completion: runs once with the value or the error.
    /// - Returns: a handle that cancels the fetch and can be awaited.
    @available(
        *, unavailable,
        message: "a URL is fetched as an endpoint: client.fetch(.url(url), extracting: …) { result in … }"
    )
    @discardableResult
    public func fetch<Value>(
        _ url: URL, extracting extraction: Extraction<Value>, isolation: isolated (any Actor)? = #isolation,
        completion: ((Result<Value, FetchError>) -> Void)?
    ) -> FetchTask<Value> {
        fetch(.url(url), extracting: extraction, isolation: isolation, completion: completion)
    }

    /// Not a call: a URL says nothing of what its response turns into,
    /// `client.fetch(.url(url), extracting: .data)`.
    ///
    /// - Parameter url: the URL.
    /// - Returns: the response's body.
    /// - Throws: ``FetchError``.
    @available(
        *, unavailable,
        message:
            "a URL is fetched as an endpoint, with what its response turns into: client.fetch(.url(url), extracting: .data) (or .string, .decode(T.self))"
    )
    public func fetch(_ url: URL) async throws(FetchError) -> Data {
        try await fetch(.url(url), extracting: .data)
    }

    /// Not a call: a text is fetched as the endpoint of its URL,
    /// `client.fetch(.url(URL(string: text)), extracting: …)`.
    ///
    /// - Parameters:
    ///   - text: the URL's text.
    ///   - extraction: how to turn the response into a value.
    /// - Returns: the value.
    /// - Throws: ``FetchError``.
    @available(
        *, unavailable,
        message:
            "a URL's text is fetched as an endpoint: client.fetch(.url(URL(string: text)), extracting: …) (a text that is no URL fails with FetchError.invalidURL)"
    )
    public func fetch<Value>(_ text: String, extracting extraction: Extraction<Value>) async throws(FetchError) -> Value
    {
        try await fetch(.url(URL(string: text)), extracting: extraction)
    }

    /// Not a call: a response is decoded by an extraction, `extracting: .decode(Movie.self)`.
    ///
    /// - Parameters:
    ///   - endpoint: the request to send.
    ///   - type: the type to decode.
    /// - Returns: the decoded value.
    /// - Throws: ``FetchError``.
    @available(
        *, unavailable,
        message:
            "a response is decoded by an extraction: extracting: .decode(Movie.self), or .decode(Movie.self, at: \"results\") for a nested value"
    )
    public func fetch<Value: Decodable & Sendable>(
        _ endpoint: some Endpoint, extracting type: Value.Type
    ) async throws(FetchError) -> Value {
        try await fetch(endpoint, extracting: .decode(type))
    }
}
