public import Foundation

/// What the ``StubServer`` answers to a request: a status, headers and a body, and how to deliver them.
///
/// Build a response with one of the factory methods and adjust its delivery with the
/// modifiers, which return a changed copy:
///
/// ```swift
/// server.route("GET", "/slow", respond: .json(#"{"ok":true}"#).delayed(by: .milliseconds(300)))
/// server.route("GET", "/trickle", respond: .text("abcdef").sentSlowly(chunkSize: 2, interval: .milliseconds(20)))
/// server.route("GET", "/broken", respond: .text("0123456789").droppingConnection(afterBodyBytes: 4))
/// server.route("GET", "/silent", respond: .closeWithoutAnswer)
/// ```
public struct StubResponse: Sendable {
    /// Where the body comes from.
    public enum Body: Sendable {
        /// These bytes.
        case data(Data)
        /// The contents of this file, read when the response is sent (a missing file answers 500).
        case file(URL)
        /// Bytes produced while the response is sent, each write one chunk of a chunked body:
        /// see ``stream(status:headers:_:)``.
        case stream(@Sendable (StubStreamWriter) -> Void)
    }

    /// The HTTP status code, such as 200 or 404.
    public var status: Int
    /// Header fields to send. The server adds `Content-Length` (unless chunked encoding
    /// is used) and `Connection`.
    public var headers: [String: String]
    /// The body to send: fixed bytes, or the contents of a file read when the response is sent.
    public var body: Body
    /// How long the server waits before sending anything.
    public var delay: Duration = .zero
    /// When set, the body is written in pieces of `size` bytes with `interval` between them.
    var slowBody: (size: Int, interval: Duration)?
    /// When set, the server sends the head and this many body bytes, then closes the connection.
    var dropAfterBodyBytes: Int?
    /// Whether the server reads the request and closes the connection without answering.
    var closesWithoutAnswer = false
    /// With ``closesWithoutAnswer``: the connection ends with a reset instead of a close.
    var resets = false
    /// Whether the body is sent with `Transfer-Encoding: chunked` instead of `Content-Length`.
    var usesChunkedEncoding = false
    /// When set, these bytes are written as they are, instead of a status line, headers and
    /// body, and the connection is closed: see ``raw(_:)``.
    var rawBytes: Data?
    /// Whether the server answers a matching `If-None-Match` or `If-Modified-Since` with
    /// `304 Not Modified` and no body: see ``conditional(etag:lastModified:)``.
    var answersConditionalRequests = false

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: the HTTP status code.
    ///   - headers: header fields to send.
    ///   - body: the body.
    public init(status: Int = 200, headers: [String: String] = [:], body: Body = .data(Data())) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a raw body.
    ///
    /// - Parameters:
    ///   - data: the body bytes.
    ///   - status: the HTTP status code.
    ///   - contentType: the `Content-Type` to send.
    /// - Returns: the response.
    public static func data(
        _ data: Data, status: Int = 200, contentType: String = "application/octet-stream"
    )
        -> StubResponse
    {
        StubResponse(status: status, headers: ["Content-Type": contentType], body: .data(data))
    }

    /// A JSON response from a string.
    ///
    /// - Parameters:
    ///   - json: the JSON text, sent as UTF-8.
    ///   - status: the HTTP status code.
    /// - Returns: the response, with `Content-Type: application/json`.
    public static func json(_ json: String, status: Int = 200) -> StubResponse {
        StubResponse(status: status, headers: ["Content-Type": "application/json"], body: .data(Data(json.utf8)))
    }

    /// A plain-text response.
    ///
    /// - Parameters:
    ///   - text: the body, sent as UTF-8.
    ///   - status: the HTTP status code.
    /// - Returns: the response, with `Content-Type: text/plain; charset=utf-8`.
    public static func text(_ text: String, status: Int = 200) -> StubResponse {
        StubResponse(
            status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .data(Data(text.utf8)))
    }

    /// A response whose body is a file's contents, such as a recorded API response.
    ///
    /// - Parameters:
    ///   - url: the file, read each time the response is sent.
    ///   - status: the HTTP status code.
    ///   - contentType: the `Content-Type` to send.
    /// - Returns: the response.
    public static func file(_ url: URL, status: Int = 200, contentType: String = "application/json") -> StubResponse {
        StubResponse(status: status, headers: ["Content-Type": contentType], body: .file(url))
    }

    /// A response with a status and an empty body.
    ///
    /// - Parameters:
    ///   - status: the HTTP status code.
    ///   - headers: header fields to send, such as `["Retry-After": "1"]`.
    /// - Returns: the response.
    public static func status(_ status: Int, headers: [String: String] = [:]) -> StubResponse {
        StubResponse(status: status, headers: headers)
    }

    /// A response that reads the request and closes the connection without sending a byte.
    public static let closeWithoutAnswer: StubResponse = {
        var response = StubResponse(status: 0)
        response.closesWithoutAnswer = true
        return response
    }()

    /// A response that reads the request and resets the connection (a TCP `RST`, as a server
    /// that crashed or a middlebox that gave up sends) without sending a byte.
    public static let resetWithoutAnswer: StubResponse = {
        var response = StubResponse(status: 0)
        response.closesWithoutAnswer = true
        response.resets = true
        return response
    }()

    /// A response whose body is written as `produce` goes, with `Transfer-Encoding: chunked`,
    /// on a connection that closes after it: an event stream, a log tail, an endless feed.
    ///
    /// `produce` runs on the connection's own thread once the head is sent; each
    /// `write(_:)` sends one chunk and returns `false` once the client
    /// has gone (stop then). The body ends properly when `produce` returns, or is cut off without
    /// its last chunk after ``StubStreamWriter/dropConnection()``.
    ///
    /// ```swift
    /// server.route("GET", "/events", respond: .stream(headers: ["Content-Type": "text/event-stream"]) { writer in
    ///     var n = 0
    ///     while writer.write("id: \(n)\ndata: tick\n\n") { n += 1 }  // endless, until the client leaves
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - status: the status code.
    ///   - headers: header fields to send.
    ///   - produce: writes the body.
    /// - Returns: the response.
    public static func stream(
        status: Int = 200, headers: [String: String] = [:], _ produce: @escaping @Sendable (StubStreamWriter) -> Void
    ) -> StubResponse {
        var response = StubResponse(status: status, headers: headers, body: .stream(produce))
        response.usesChunkedEncoding = true
        return response
    }

    /// A copy that waits `delay` before answering (the wait ends early when the client
    /// goes away or the server stops).
    ///
    /// - Parameter delay: how long to wait before sending the head.
    /// - Returns: the changed response.
    public func delayed(by delay: Duration) -> StubResponse {
        var copy = self
        copy.delay = delay
        return copy
    }

    /// A copy that writes its body in pieces of `chunkSize` bytes, waiting `interval` between pieces.
    ///
    /// - Parameters:
    ///   - chunkSize: bytes per piece (at least 1).
    ///   - interval: the pause between pieces.
    /// - Returns: the changed response.
    public func sentSlowly(chunkSize: Int, interval: Duration) -> StubResponse {
        var copy = self
        copy.slowBody = (max(1, chunkSize), interval)
        return copy
    }

    /// A response written byte for byte as given, then the connection closed: for
    /// responses no well-behaved server sends, such as a garbage status line, broken
    /// chunked encoding or a body that does not match its `Content-Encoding`.
    ///
    /// ```swift
    /// server.route("GET", "/broken", respond: .raw(Data("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".utf8)))
    /// ```
    ///
    /// - Parameter bytes: everything to send.
    /// - Returns: the response.
    public static func raw(_ bytes: Data) -> StubResponse {
        var response = StubResponse()
        response.rawBytes = bytes
        return response
    }

    /// A copy that announces its full body, sends `count` bytes of it, then closes the connection.
    ///
    /// - Parameter count: body bytes to send before the connection drops.
    /// - Returns: the changed response.
    public func droppingConnection(afterBodyBytes count: Int) -> StubResponse {
        var copy = self
        copy.dropAfterBodyBytes = max(0, count)
        return copy
    }

    /// A copy that sends its body with `Transfer-Encoding: chunked`.
    ///
    /// - Returns: the changed response.
    public func chunkedEncoding() -> StubResponse {
        var copy = self
        copy.usesChunkedEncoding = true
        return copy
    }

    /// A copy with one more header field.
    ///
    /// - Parameters:
    ///   - name: the field name.
    ///   - value: the field value.
    /// - Returns: the changed response.
    public func header(_ name: String, _ value: String) -> StubResponse {
        var copy = self
        copy.headers[name] = value
        return copy
    }

    /// This response with validators, answered as a real server does: a request whose
    /// `If-None-Match` names the ETag (or whose `If-Modified-Since` equals `lastModified`)
    /// gets `304 Not Modified` with these headers and no body.
    ///
    /// ```swift
    /// server.route("GET", "/3/movie/550", respond: .json(movie).conditional().header("Cache-Control", "no-cache"))
    /// ```
    ///
    /// - Parameters:
    ///   - etag: the entity tag, quoted as HTTP wants it (`"\"v1\""`); by default a
    ///     fingerprint of the body (for a ``Body-swift.enum/data(_:)`` body).
    ///   - lastModified: a `Last-Modified` value in HTTP date form, if any.
    /// - Returns: the response.
    public func conditional(etag: String? = nil, lastModified: String? = nil) -> StubResponse {
        var copy = self
        copy.answersConditionalRequests = true
        if let etag {
            copy.headers["ETag"] = etag
        } else if case .data(let data) = body {
            copy.headers["ETag"] = "\"" + RecordedRequest.fingerprint(of: data) + "\""
        }
        if let lastModified { copy.headers["Last-Modified"] = lastModified }
        return copy
    }
}
