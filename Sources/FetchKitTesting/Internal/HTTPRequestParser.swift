import Foundation

/// The head of a request: request line and header fields.
struct RequestHead: Sendable {
    var method: String
    var target: String
    var version: String
    /// Header fields with lowercased names, repeated fields joined with `", "`.
    var headers: [String: String]

    /// Whether the client expects the connection to stay open after the response.
    var wantsKeepAlive: Bool {
        let connection = headers["connection"]?.lowercased() ?? ""
        if version == "HTTP/1.0" { return connection.contains("keep-alive") }
        return !connection.contains("close")
    }
}

/// Parses HTTP/1.1 requests from a byte buffer that may hold a partial request, one
/// request, or several pipelined requests. It never traps on malformed input: it reports
/// a status to answer with instead.
enum HTTPRequestParser {
    static let maximumHeadLength = 64 * 1024
    static let maximumBodyLength = 64 * 1024 * 1024

    /// What the buffer holds of one part of a request (its head or its body).
    enum Parsed<Part> {
        /// Not all of it yet: receive more.
        case incomplete
        /// All of it: the part and how many bytes of the buffer it took.
        case complete(Part, length: Int)
        /// Something no request may hold: the status to answer with, and why.
        case malformed(status: Int, reason: String)
    }

    /// What the buffer holds of a request's head.
    typealias HeadResult = Parsed<RequestHead>
    /// What the buffer holds of a request's body.
    typealias BodyResult = Parsed<Data>

    private static let crlf: [UInt8] = [13, 10]

    /// Finds the index of `pattern` in `bytes` at or after `start`.
    static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !pattern.isEmpty, bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
        var index = start
        let last = bytes.count - pattern.count
        while index <= last {
            if bytes[index] == pattern[0] {
                var matches = true
                for offset in 1..<pattern.count where bytes[index + offset] != pattern[offset] {
                    matches = false
                    break
                }
                if matches { return index }
            }
            index += 1
        }
        return nil
    }

    static func parseHead(_ bytes: [UInt8]) -> HeadResult {
        // RFC 9112 §2.2: ignore empty lines before the request line.
        var start = 0
        while start + 1 < bytes.count, bytes[start] == 13, bytes[start + 1] == 10 { start += 2 }
        guard let end = find([13, 10, 13, 10], in: bytes, from: start) else {
            if bytes.count - start > maximumHeadLength {
                return .malformed(status: 431, reason: "the request head is larger than 64 KiB")
            }
            return .incomplete
        }
        guard end - start <= maximumHeadLength else {
            return .malformed(status: 431, reason: "the request head is larger than 64 KiB")
        }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst()
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            return .malformed(status: 400, reason: "the request line is not `METHOD target HTTP/1.x`")
        }
        let method = String(parts[0])
        let target = String(parts[1])
        let version = String(parts[2])
        guard !method.isEmpty, method.utf8.allSatisfy(isTokenByte) else {
            return .malformed(status: 400, reason: "the method is not a token")
        }
        guard !target.isEmpty, !target.contains(where: { $0.isWhitespace }) else {
            return .malformed(status: 400, reason: "the request target is empty")
        }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .malformed(status: 505, reason: "only HTTP/1.0 and HTTP/1.1 are supported")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else {
                return .malformed(status: 400, reason: "a header line has no colon")
            }
            let name = line[..<colon].lowercased()
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
                return .malformed(status: 400, reason: "a header name is not a token")
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if let existing = headers[name] {
                headers[name] = existing + ", " + value
            } else {
                headers[name] = value
            }
        }
        return .complete(
            RequestHead(method: method, target: target, version: version, headers: headers), length: end + 4)
    }

    /// The declared body length, or `nil` for chunked bodies.
    static func declaredLength(of head: RequestHead) -> Result<Int?, StatusFailure> {
        if let encoding = head.headers["transfer-encoding"] {
            guard encoding.lowercased().split(separator: ",").last?.trimmingCharacters(in: .whitespaces) == "chunked"
            else { return .failure(StatusFailure(status: 501, reason: "unsupported transfer encoding")) }
            return .success(nil)
        }
        guard let text = head.headers["content-length"] else { return .success(0) }
        let values = Set(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        guard values.count == 1, let value = values.first, !value.isEmpty,
            value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            value.count < 16, let length = Int(value)
        else { return .failure(StatusFailure(status: 400, reason: "Content-Length is not a number")) }
        // Longer bodies than the server records stream past (see `StubConnection.streamBody`).
        return .success(length)
    }

    struct StatusFailure: Error {
        var status: Int
        var reason: String
    }

    /// Parses the body that starts at `start`, using the length `head` declares.
    static func parseBody(_ bytes: [UInt8], from start: Int, length: Int?) -> BodyResult {
        if let length {
            guard bytes.count - start >= length else { return .incomplete }
            return .complete(Data(bytes[start..<(start + length)]), length: length)
        }
        return parseChunked(bytes, from: start)
    }

    private static func parseChunked(_ bytes: [UInt8], from start: Int) -> BodyResult {
        var body = Data()
        var position = start
        while true {
            guard let lineEnd = find(crlf, in: bytes, from: position) else {
                return bytes.count - position > 1024
                    ? .malformed(status: 400, reason: "a chunk size line is too long") : .incomplete
            }
            let line = String(decoding: bytes[position..<lineEnd], as: UTF8.self)
            let sizeText =
                line.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard !sizeText.isEmpty, sizeText.count <= 8, let size = Int(sizeText, radix: 16), size >= 0 else {
                return .malformed(status: 400, reason: "a chunk size is not hexadecimal")
            }
            position = lineEnd + 2
            if size == 0 {
                // Skip trailer fields up to the empty line.
                while true {
                    guard let trailerEnd = find(crlf, in: bytes, from: position) else { return .incomplete }
                    let isEmpty = trailerEnd == position
                    position = trailerEnd + 2
                    if isEmpty { return .complete(body, length: position - start) }
                }
            }
            guard body.count + size <= maximumBodyLength else {
                return .malformed(status: 413, reason: "the body is larger than 64 MiB")
            }
            guard bytes.count >= position + size + 2 else { return .incomplete }
            guard bytes[position + size] == 13, bytes[position + size + 1] == 10 else {
                return .malformed(status: 400, reason: "a chunk does not end with CRLF")
            }
            body.append(contentsOf: bytes[position..<(position + size)])
            position += size + 2
        }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
