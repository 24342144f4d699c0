public import Foundation

/// A request the ``StubServer`` received, as it arrived on the wire.
///
/// Tests use recorded requests to assert what a client actually sent:
///
/// ```swift
/// let request = try #require(server.receivedRequests.last)
/// #expect(request.method == "GET")
/// #expect(request.path == "/3/search/movie")
/// #expect(request.queryValue("query") == "Fast & Furious")
/// #expect(request.header("Accept") == "application/json")
/// ```
public struct RecordedRequest: Sendable, CustomStringConvertible {
    /// The request method as sent, such as `GET` or `POST`.
    public let method: String
    /// The request target exactly as sent on the request line, such as `/search?q=a%2Bb`.
    public let target: String
    /// The path part of the target, percent-decoded, such as `/books/v1/volumes`.
    public let path: String
    /// The path part of the target as sent, still percent-encoded.
    public let rawPath: String
    /// The query part of the target as sent (after `?`), still percent-encoded, or `nil` when there was none.
    public let rawQuery: String?
    /// The query items, decoded the way typical web servers decode them: percent escapes
    /// are decoded and a `+` reads as a space (so a client must send a literal plus as `%2B`).
    public let queryItems: [URLQueryItem]
    /// The header fields, with names lowercased; repeated fields are joined with `", "`.
    public let headers: [String: String]
    /// The body bytes (decoded from chunked transfer encoding when the client used it).
    public let body: Data
    /// The size of the whole body. It is larger than `body.count` when the body was longer
    /// than the server's ``StubServer/maximumRecordedBodySize``: the server then keeps only
    /// the body's start, and counts and fingerprints the rest as it streams past.
    public let bodyLength: Int
    /// A fingerprint of the whole body (64-bit FNV-1a, in hex), to compare with
    /// ``fingerprint(of:)-(Data)`` or ``fingerprint(ofFile:)`` of what was sent.
    public let bodyFingerprint: String
    /// An identifier of the TCP connection the request came on; requests sent over one
    /// kept-alive connection share it.
    public let connectionID: Int
    /// The position of this request among all requests the server received, from 0.
    public let sequenceNumber: Int

    /// Creates a recorded request from its parts (the server creates these; tests rarely need to).
    ///
    /// - Parameters:
    ///   - method: the request method.
    ///   - target: the request target as sent.
    ///   - headers: the header fields, names lowercased.
    ///   - body: the body bytes.
    ///   - connectionID: the connection identifier.
    ///   - sequenceNumber: the request's position among all requests received.
    ///   - bodyLength: the size of the whole body, when `body` holds only its start.
    ///   - bodyFingerprint: the whole body's fingerprint, when `body` holds only its start.
    init(
        method: String, target: String, headers: [String: String] = [:], body: Data = Data(), connectionID: Int = 0,
        sequenceNumber: Int = 0, bodyLength: Int? = nil, bodyFingerprint: String? = nil
    ) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.bodyLength = bodyLength ?? body.count
        self.bodyFingerprint = bodyFingerprint ?? Self.fingerprint(of: body)
        self.connectionID = connectionID
        self.sequenceNumber = sequenceNumber
        var origin = Substring(target)
        // An absolute-form target (`http://host/path`) carries the origin-form after the authority.
        if let schemeEnd = origin.range(of: "://") {
            let afterScheme = origin[schemeEnd.upperBound...]
            origin = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? "/"
        }
        if let hash = origin.firstIndex(of: "#") { origin = origin[..<hash] }
        if let mark = origin.firstIndex(of: "?") {
            rawPath = String(origin[..<mark])
            let query = String(origin[origin.index(after: mark)...])
            rawQuery = query
            queryItems = Self.decodeQuery(query)
        } else {
            rawPath = String(origin)
            rawQuery = nil
            queryItems = []
        }
        path = rawPath.removingPercentEncoding ?? rawPath
    }

    /// The value of the first query item named `name`, decoded, or `nil` when there is none.
    ///
    /// - Parameter name: the item's name, compared exactly.
    /// - Returns: the decoded value (an empty string for `name=` or a bare `name`).
    public func queryValue(_ name: String) -> String? {
        guard let item = queryItems.first(where: { $0.name == name }) else { return nil }
        return item.value ?? ""
    }

    /// The value of the header field named `name`, compared case-insensitively.
    ///
    /// - Parameter name: the field name, such as `"Content-Type"`.
    /// - Returns: the value, or `nil` when the request had no such field.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// The body decoded as UTF-8, or `nil` when it is not valid UTF-8.
    public var bodyText: String? {
        String(data: body, encoding: .utf8)
    }

    /// The fingerprint of `data`, as ``bodyFingerprint`` computes it.
    ///
    /// - Parameter data: the bytes.
    /// - Returns: 16 hex digits.
    public static func fingerprint(of data: Data) -> String {
        var hash = Fingerprint()
        hash.add(data)
        return hash.hex
    }

    /// The fingerprint of a file's bytes, read in chunks, as ``bodyFingerprint`` computes it.
    ///
    /// - Parameter file: a file URL.
    /// - Returns: 16 hex digits.
    /// - Throws: the error reading the file.
    public static func fingerprint(ofFile file: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var hash = Fingerprint()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hash.add(chunk) }
        return hash.hex
    }

    /// The request line, such as `GET /search?q=swift`.
    public var description: String { "\(method) \(target)" }

    private static func decodeQuery(_ query: String) -> [URLQueryItem] {
        guard !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = formDecode(parts[0])
            let value = parts.count > 1 ? formDecode(parts[1]) : nil
            return URLQueryItem(name: name, value: value)
        }
    }

    private static func formDecode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
