public import FetchKit
public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `ClientTransport` that sends a generated OpenAPI client's operations through a
/// `FetchClient`: its HTTP cache, token authenticator, retries, redaction, observers, per-host
/// limit and cancellation, with event streams handed over as they arrive on Linux and on Apple
/// platforms.
///
/// ```swift
/// let fetch = FetchClient { configuration in
///     configuration.cache = HTTPCache()
///     configuration.authenticator = TokenAuthenticator { try await session.renewedToken() }
/// }
/// let notes = Client(
///     serverURL: URL(string: "https://notes.example.com/v1")!,
///     transport: FetchClientTransport(client: fetch, streamedOperations: ["streamEvents"]))
/// ```
///
/// What runs where: the generated client's `ClientMiddleware`s run first, once per call; then this
/// transport hands the request to the `FetchClient`, whose pipeline runs below them. A rejected
/// token is renewed once for a burst of calls and the request sent again, a status the client's
/// retry policy retries (with `Retry-After`) is retried, and a `304` is answered from the cache,
/// all inside the one `send` a middleware sees. So give the token to the client's
/// `TokenAuthenticator` and leave retries to its `RetryPolicy`; a middleware that also did either
/// would do it a second time. Middlewares that log, tag or shape requests keep working.
///
/// The answer the pipeline ends with goes back whatever its status, so the generated client turns
/// a documented status into its case and any other into `.undocumented(statusCode:_:)`.
/// Transport failures, timeouts and cancellation throw the client's `FetchError`, which the
/// generated client wraps in a `ClientError` (its `underlyingError`).
///
/// Bodies:
/// - A response is read whole (and cached by the client's rules) unless its operation is in
///   `streamedOperations` or the request accepts `text/event-stream`, JSON Lines or JSON Text
///   Sequences: then its body is handed over as it arrives, chunk by chunk, with back-pressure,
///   and the connection closes when the `HTTPBody` is dropped.
/// - A request body is read before the request goes out: up to ``bufferedRequestBodyLimit`` into
///   memory; a longer one, or one of unknown length that grows past it, is copied to a temporary
///   file (readable by this user only) as it is read, and streamed from there, so memory stays flat
///   and a retry or a token renewal can send it again (an `HTTPBody` that iterates once could not
///   be read twice). The file is removed when the call ends. So a request body is not sent while
///   it is still being produced: an upload whose end depends on the server's answer (a duplex
///   exchange) needs another transport.
public struct FetchClientTransport: ClientTransport {
    /// The client whose pipeline sends every operation.
    public let client: FetchClient
    /// The operation IDs whose response bodies are handed over as they arrive instead of read
    /// whole (a download, a log tail); event streams are recognised by their `Accept` header.
    public var streamedOperations: Set<String>

    /// The longest request body sent from memory: 1 MiB. Longer ones are spooled to a
    /// temporary file in the client's `temporaryDirectory` (or the system's) and streamed from it.
    public static let bufferedRequestBodyLimit = 1024 * 1024

    /// Creates a transport over `client`.
    ///
    /// - Parameters:
    ///   - client: the client whose pipeline sends every operation.
    ///   - streamedOperations: operation IDs whose responses are streamed; event streams are
    ///     streamed without being named.
    public init(client: FetchClient, streamedOperations: Set<String> = []) {
        self.client = client
        self.streamedOperations = streamedOperations
    }

    /// Sends one operation's request through the client's pipeline.
    ///
    /// - Parameters:
    ///   - request: the request the generated client built.
    ///   - body: its body, if any.
    ///   - baseURL: the server URL the generated client was given.
    ///   - operationID: the operation's ID from the OpenAPI document.
    /// - Returns: the response the pipeline ended with, whatever its status, and its body.
    /// - Throws: `FetchError` for a transport failure, a timeout, cancellation or an invalid URL;
    ///   ``RequestBodySpoolingError`` for a long body that cannot be copied to a temporary file;
    ///   `CancellationError` for a call cancelled while its request body is read.
    public func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let url = Self.url(of: request, baseURL: baseURL)
        let headers = Self.headers(of: request)
        let spooled = try await SpooledBody(body, contentType: headers["Content-Type"], client: client)
        defer { spooled?.remove() }
        let endpoint = URLEndpoint(
            url, method: HTTPMethod(rawValue: request.method.rawValue), headers: headers, body: spooled?.body)
        if streams(request, operationID: operationID) {
            let stream = try await client.fetch(endpoint, extracting: Extraction.stream.acceptingEveryStatus())
            let head = TransportResponse(response: stream.response, data: Data())
            let response = Self.response(status: head.statusCode, fields: head.headerFields)
            let length = stream.response.expectedContentLength
            let body = HTTPBody(stream, length: length >= 0 ? .known(length) : .unknown, iterationBehavior: .single)
            return (response, request.method == .head ? nil : body)
        }
        let answer = try await client.fetch(endpoint, extracting: Self.wholeAnswer)
        let body = answer.data.isEmpty && request.method == .head ? nil : HTTPBody(answer.data)
        return (Self.response(status: answer.statusCode, fields: answer.headerFields), body)
    }

    /// Whether `request`'s response is handed over as it arrives.
    func streams(_ request: HTTPRequest, operationID: String) -> Bool {
        if streamedOperations.contains(operationID) { return true }
        let accept = request.headerFields[values: .accept].joined(separator: ",").lowercased()
        return ["text/event-stream", "application/jsonl", "application/x-ndjson", "application/json-seq"]
            .contains { accept.contains($0) }
    }

    // MARK: Requests and responses, translated

    /// Reads a response whole, whatever its status.
    static let wholeAnswer = Extraction.response.acceptingEveryStatus()

    /// The URL of `request` below `baseURL`: the base's path, then the request's path and query
    /// as the generated client encoded them; `nil` when they make none (the fetch then fails with
    /// `FetchError` `invalidURL`).
    static func url(of request: HTTPRequest, baseURL: URL) -> URL? {
        let path = request.path ?? ""
        var base = baseURL.absoluteString
        if baseURL.query == nil, baseURL.fragment == nil, !base.isEmpty {
            // One parse instead of three: the base's text, then the path as the client encoded it.
            while base.hasSuffix("/") { base.removeLast() }
            return URL(string: base + path)
        }
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
            let target = URLComponents(string: path)
        else { return nil }
        var basePath = components.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        components.percentEncodedPath = basePath + target.percentEncodedPath
        components.percentEncodedQuery = target.percentEncodedQuery
        return components.url
    }

    /// The request's header fields, one value per name (repeated fields joined as HTTP allows);
    /// the length is left to the transport, which knows the body it sends.
    static func headers(of request: HTTPRequest) -> [String: String] {
        var headers: [String: String] = [:]
        for field in request.headerFields where field.name != .contentLength && field.name != .transferEncoding {
            let name = Self.displayName(field.name.canonicalName)
            let separator = field.name == .cookie ? "; " : ", "
            headers[name] = headers[name].map { $0 + separator + field.value } ?? field.value
        }
        return headers
    }

    /// `content-type` as `Content-Type`: the spelling FetchKit's own headers use, so a body's
    /// content type is not sent twice.
    static func displayName(_ name: String) -> String {
        name.split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined(separator: "-")
    }

    /// The response's status and header fields as swift-http-types values.
    static func response(status: Int, fields: [String: String]) -> HTTPResponse {
        var headerFields = HTTPFields()
        headerFields.reserveCapacity(fields.count)
        for (key, value) in fields {
            guard let name = HTTPField.Name(key) else { continue }
            headerFields.append(HTTPField(name: name, value: value))
        }
        return HTTPResponse(status: .init(code: status), headerFields: headerFields)
    }
}
