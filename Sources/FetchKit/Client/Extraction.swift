public import Decoding
public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// How a fetch turns a response into a value: decode JSON (at a path if needed), keep the
/// raw bytes, read text, or run your own closure.
///
/// The value's type is the fetch's generic parameter, so the strategy reads naturally at
/// the call site:
///
/// ```swift
/// client.fetch(TMDB.movie(id: 550), extracting: .decode(Movie.self)) { result in … }
/// client.fetch(TMDB.search("Amélie"), extracting: .decode(Movie.self, at: "results.first")) { result in … }
/// client.fetch(url, extracting: .data) { result in … }
/// client.fetch(url, extracting: .custom { data, response in try parseCSV(data) }) { result in … }
/// ```
///
/// A strategy runs only on responses that passed validation (an acceptable status and
/// no API-reported failure), unless it is made with ``acceptingEveryStatus()``. When it fails,
/// the fetch fails with ``FetchError/Code-swift.struct/decodingFailed``.
public struct Extraction<Value: Sendable>: Sendable {
    /// Turns a response into a value; it reads `response.response` only when it needs the
    /// `HTTPURLResponse` (which a transport may build only then).
    let extractResponse: @Sendable (TransportResponse) throws(FetchError) -> Value
    /// Where the body streams to instead of memory (``file(to:)``); `nil` for a body in memory.
    let destination: URL?
    /// Whether the body is handed over as it arrives (``stream``) instead of after it ended.
    let streams: Bool
    /// Whether the strategy also runs on a final response whose status is not acceptable
    /// (``acceptingEveryStatus()``).
    var acceptsEveryStatus = false

    /// Creates a strategy from a closure that throws only ``FetchError``.
    ///
    /// - Parameters:
    ///   - destination: the file the body streams to, or `nil` to keep it in memory.
    ///   - streams: whether the body is read as it arrives.
    ///   - extract: turns the body and response into a value.
    init(
        destination: URL? = nil, streams: Bool = false,
        _ extract: @escaping @Sendable (TransportResponse) throws(FetchError) -> Value
    ) {
        self.destination = destination
        self.streams = streams
        self.extractResponse = extract
    }

    /// A strategy that runs your closure over the body and the HTTP response.
    ///
    /// An error the closure throws fails the fetch with
    /// ``FetchError/Code-swift.struct/decodingFailed`` (a ``FetchError`` it throws is passed on as is;
    /// a `DecodingFailure`, or `JSONDecoder`'s `DecodingError`, becomes the error's
    /// ``FetchError/decodingFailure``, with the coding path of the value that failed).
    ///
    /// - Parameter transform: turns the body and response into a value.
    /// - Returns: the strategy.
    public static func custom(_ transform: @escaping @Sendable (Data, HTTPURLResponse) throws -> Value) -> Extraction {
        Extraction { (response) throws(FetchError) -> Value in
            do {
                return try transform(response.data, response.response)
            } catch {
                throw decodingFailed(error)
            }
        }
    }
}

/// A closure's error as the fetch's: a ``FetchError`` as it is, a `DecodingFailure` (or
/// `JSONDecoder`'s `DecodingError`) as the error's ``FetchError/decodingFailure``, anything else
/// described.
private func decodingFailed(_ error: any Error) -> FetchError {
    switch error {
    case let error as FetchError: error
    case let failure as DecodingFailure: FetchError(code: .decodingFailed, decodingFailure: failure)
    case let error as DecodingError: FetchError(code: .decodingFailed, decodingFailure: DecodingFailure(error))
    default: FetchError(code: .decodingFailed, detail: "\(error)")
    }
}

extension Extraction {
    /// A strategy that extracts as this one does, then turns the value into another: a page
    /// decoded with its path keys, then made the value your code wants.
    ///
    /// ```swift
    /// let titles = try await client.fetch(TMDB.popular(), extracting: Extraction.decode(MoviePage.self).map { $0.results.map(\.title) })
    /// ```
    ///
    /// An error `transform` throws fails the fetch as one of ``custom(_:)`` does: with
    /// ``FetchError/Code-swift.struct/decodingFailed`` (a ``FetchError`` is passed on as is).
    ///
    /// - Parameter transform: turns the extracted value into the result.
    /// - Returns: the strategy.
    public func map<Result: Sendable>(_ transform: @escaping @Sendable (Value) throws -> Result) -> Extraction<Result> {
        let extract = extractResponse
        var mapped = Extraction<Result>(destination: destination, streams: streams) {
            (response) throws(FetchError) -> Result in
            let value = try extract(response)
            do {
                return try transform(value)
            } catch {
                throw decodingFailed(error)
            }
        }
        mapped.acceptsEveryStatus = acceptsEveryStatus
        return mapped
    }

    /// A strategy that extracts as this one does from the request's final response whatever its
    /// status, instead of failing with ``FetchError/Code-swift.struct/unacceptableStatus``: for
    /// code that reads an error's whole body itself, or hands the response on (a transport for a
    /// generated client, a proxy).
    ///
    /// ```swift
    /// let (status, text) = try await client.fetch(
    ///     Notes.delete(id), extracting: Extraction.custom { data, response in
    ///         (response.statusCode, String(decoding: data, as: UTF8.self))
    ///     }.acceptingEveryStatus())
    /// ```
    ///
    /// The client's pipeline still runs first: a rejected token is renewed and the request sent
    /// again once, a status the ``FetchClient/Configuration-swift.struct/retryPolicy`` retries is
    /// retried, and a `304` revalidates the cache. Only the answer it ends with (a `404`, or the
    /// last `503` once the retries are spent, or the cache's `504` for `only-if-cached`) reaches
    /// the strategy; such an answer is not stored in the cache. Transport failures, timeouts and
    /// cancellation still throw ``FetchError``, and the client's `apiFailureDetector` still judges
    /// acceptable statuses. A download (``file(to:)``) cannot take every status (the fetch fails
    /// with ``FetchError/Code-swift.struct/invalidRequest``), and a fetch with this strategy shares
    /// a request (`sharing:`) only with callers whose strategy takes every status too.
    ///
    /// - Returns: the strategy.
    public func acceptingEveryStatus() -> Extraction {
        var accepting = self
        accepting.acceptsEveryStatus = true
        return accepting
    }

    /// Runs the strategy over a body already read: an answer split out of a batch, a page read
    /// before it is judged, a body kept from an earlier exchange. It fails as a fetch with this
    /// strategy would (``FetchError/Code-swift.struct/decodingFailed`` with the coding path).
    ///
    /// ```swift
    /// let page = try Extraction.decode(NotesPage.self).extract(from: data, response: response)
    /// ```
    ///
    /// - Parameters:
    ///   - data: the body.
    ///   - response: the response the body came with.
    /// - Returns: the value.
    /// - Throws: ``FetchError`` when the strategy fails.
    public func extract(from data: Data, response: HTTPURLResponse) throws(FetchError) -> Value {
        try extractResponse(TransportResponse(response: response, data: data))
    }
}

extension Extraction where Value: Decodable {
    /// A strategy that decodes the JSON body as `Value` with the Decoding module's
    /// `PathDecoder`, optionally at a path inside the body.
    ///
    /// - Parameters:
    ///   - type: the type to decode, such as `Movie.self`.
    ///   - path: where the value is, such as `"results.first"` or `"photos.photo"`; `nil` for the whole body.
    ///   - decoder: the decoder to use.
    /// - Returns: the strategy.
    public static func decode(
        _ type: Value.Type = Value.self, at path: String? = nil, decoder: PathDecoder = PathDecoder()
    )
        -> Extraction
    {
        Extraction { (response) throws(FetchError) -> Value in
            let data = response.data
            guard !data.isEmpty else {
                throw FetchError(
                    code: .decodingFailed,
                    decodingFailure: DecodingFailure(
                        path: path ?? "", message: "the response body is empty; expected JSON for \(Value.self)",
                        underlying: nil))
            }
            do throws(DecodingFailure) {
                if let path {
                    return try decoder.decode(type, from: data, at: path)
                }
                return try decoder.decode(type, from: data)
            } catch {
                throw FetchError(code: .decodingFailed, decodingFailure: error)
            }
        }
    }
}

extension Extraction where Value == URL {
    /// A strategy that streams the body into `file` and returns `file`: a download, through the
    /// same pipeline as every fetch (adapters, limits, retries, status validation, the client's
    /// ``FetchClient/Configuration-swift.struct/apiFailureDetector``, the HTTP cache, observers,
    /// progress and redaction).
    ///
    /// ```swift
    /// let photo = try await client.fetch(Photos.original(id), extracting: .file(to: destination))
    /// ```
    ///
    /// The body goes into a hidden file next to `file` that replaces `file` in one atomic
    /// step once the whole body is there and accepted. When the fetch fails or is cancelled,
    /// `file` is left as it was (absent, or the file that was there) and no other file remains,
    /// by the time the fetch ends. An endpoint's own body is sent from memory.
    ///
    /// - Parameter file: where the body goes, replacing any file there; its folder must exist.
    /// - Returns: the strategy.
    public static func file(to file: URL) -> Extraction<URL> {
        Extraction(destination: file) { (response) throws(FetchError) -> URL in
            if let body = response.bodyInMemory {
                // A body that did not stream to disk (served from the HTTP cache): write it in place.
                do {
                    try body.write(to: file, options: .atomic)
                } catch {
                    throw FetchError(
                        code: .fileUnavailable,
                        detail:
                            "the downloaded file could not be written at \(file.path) (\(error.localizedDescription)). "
                            + "Check that its folder exists and is writable")
                }
            }
            return file
        }
    }
}

/// A body streamed into a file, with the response's status and `Content-Range`: one piece of a
/// download made in ranges.
package struct DownloadedPart: Sendable {
    /// The file the body went to.
    package let file: URL
    /// The response's status (`206` for a range, `200` for the whole body).
    package let status: Int
    /// The response's `Content-Range`, such as `bytes 0-99/1000`.
    package let contentRange: String?
}

extension Extraction where Value == DownloadedPart {
    /// ``Extraction/file(to:)``, with the response's status and `Content-Range`.
    package static func part(to file: URL) -> Extraction<DownloadedPart> {
        let download = Extraction<URL>.file(to: file)
        return Extraction(destination: file) { (response) throws(FetchError) -> DownloadedPart in
            DownloadedPart(
                file: try download.extractResponse(response), status: response.statusCode,
                contentRange: response.value(forHTTPHeaderField: "Content-Range"))
        }
    }
}

extension Extraction where Value == Data {
    /// A strategy that returns the body's bytes as they arrived (possibly empty).
    public static var data: Extraction<Data> {
        Extraction { (response) throws(FetchError) -> Data in response.data }
    }
}

extension Extraction where Value == String {
    /// A strategy that returns the body as text, in the response's charset (UTF-8 when it names none).
    ///
    /// A body that is not valid in that encoding fails with ``FetchError/Code-swift.struct/decodingFailed``.
    public static var string: Extraction<String> {
        Extraction { (response) throws(FetchError) -> String in
            let encoding = Self.encoding(of: response.response)
            guard let text = String(data: response.data, encoding: encoding) else {
                throw FetchError(code: .decodingFailed, detail: "the body is not valid \(encoding) text")
            }
            return text
        }
    }

    private static func encoding(of response: HTTPURLResponse) -> String.Encoding {
        let name = response.textEncodingName?.lowercased() ?? "utf-8"
        switch name {
        case "iso-8859-1", "latin1", "latin-1": return .isoLatin1
        case "us-ascii", "ascii": return .ascii
        case "utf-16": return .utf16
        default: return .utf8
        }
    }
}

extension Extraction where Value == TransportResponse {
    /// A strategy that returns the response whole: its ``TransportResponse/statusCode``,
    /// ``TransportResponse/headerFields`` and body (``TransportResponse/data``), for code that
    /// reads the head as well as the body (a `Link` or `ETag` header, a status) or hands the
    /// response on.
    ///
    /// ```swift
    /// let page = try await client.fetch(GitHub.issues(repository), extracting: .response)
    /// let next = page.value(forHTTPHeaderField: "Link")
    /// ```
    ///
    /// Unlike ``custom(_:)``, it builds no `HTTPURLResponse` unless the transport gave one (the
    /// AsyncHTTPClient transport gives the head's parts; Foundation takes tens of microseconds
    /// to build one from them).
    public static var response: Extraction<TransportResponse> {
        Extraction { (response) throws(FetchError) -> TransportResponse in
            var whole = response
            whole.streamedBody = nil
            return whole
        }
    }
}

extension Extraction where Value == ResponseStream {
    /// A strategy that hands over the body as it arrives: the fetch returns a ``ResponseStream``
    /// once the response's head is accepted, and the body is read from it as chunks,
    /// ``ResponseStream/lines`` or server-sent ``ResponseStream/events``, for a log tail, a
    /// language model's tokens or an event stream.
    ///
    /// ```swift
    /// let stream = try await client.fetch(Completions.create(prompt), extracting: .stream)
    /// for try await event in stream.events where event.data != "[DONE]" {
    ///     print(event.data)
    /// }
    /// ```
    ///
    /// A streamed request skips the HTTP cache and the client's `apiFailureDetector` (its body is
    /// not there yet), cannot be shared (`sharing:` fails with
    /// ``FetchError/Code-swift.struct/invalidRequest``), and holds no slot of the per-host limit
    /// once its head has arrived. ``EventSource`` reads an event stream and reconnects.
    public static var stream: Extraction<ResponseStream> {
        Extraction(streams: true) { (response) throws(FetchError) -> ResponseStream in
            ResponseStream(
                response: response.response, body: response.streamedBody ?? StreamedBody(complete: response.data))
        }
    }
}
