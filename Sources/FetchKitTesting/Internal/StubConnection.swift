import Foundation

/// Serves one accepted TCP connection on its own thread: reads requests (pipelined or
/// kept alive), records them, and writes the routed responses.
struct StubConnection {
    let descriptor: Int32
    let connectionID: Int
    let core: ServerCore
    let run: Run

    func serve() {
        var buffer: [UInt8] = []
        var isFirstResponse = true
        while !run.isStopping {
            guard let (head, headLength) = receive(into: &buffer, until: HTTPRequestParser.parseHead) else { return }
            let declared: Int?
            switch HTTPRequestParser.declaredLength(of: head) {
            case .failure(let failure):
                answerMalformed(status: failure.status, reason: failure.reason)
                return
            case .success(let length):
                declared = length
            }
            if head.headers["expect"]?.lowercased() == "100-continue", declared != 0,
                buffer.count == headLength
            {
                guard Socket.sendAll(descriptor, Data("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return }
            }
            let recordLimit = core.state.withLock { $0.maximumRecordedBodySize }
            if let declared, declared > recordLimit {
                // A large body streams past: its start is kept, the rest counted and fingerprinted.
                guard
                    let streamed = streamBody(length: declared, keeping: recordLimit, buffer: &buffer, from: headLength)
                else { return }
                let request = core.record(
                    head, body: streamed.start, connectionID: connectionID, bodyLength: declared,
                    bodyFingerprint: streamed.fingerprint)
                let response = core.response(for: request)
                isFirstResponse = false
                let keepOpen = answer(response, for: request, clientWantsKeepAlive: head.wantsKeepAlive)
                if !keepOpen { return }
                continue
            }
            guard
                let (body, bodyLength) = receive(
                    into: &buffer, bodyFrom: headLength,
                    until: { HTTPRequestParser.parseBody($0, from: headLength, length: declared) })
            else { return }
            buffer.removeFirst(headLength + bodyLength)
            let request = core.record(head, body: body, connectionID: connectionID)
            let response = core.response(for: request)
            if isFirstResponse {
                // The handshake stand-in: only the first answer on a connection pays it.
                isFirstResponse = false
                let delay = core.state.withLock { $0.newConnectionDelay }
                if delay > .zero, !pause(delay) {
                    core.finish()
                    return
                }
            }
            let keepOpen = answer(response, for: request, clientWantsKeepAlive: head.wantsKeepAlive)
            if !keepOpen { return }
        }
    }

    /// Reads a body of `length` bytes that starts at `start` in `buffer`, keeping its first
    /// `keeping` bytes; leaves what follows it in `buffer`. `nil` when the client closed early.
    private func streamBody(
        length: Int, keeping: Int, buffer: inout [UInt8], from start: Int
    )
        -> (start: Data, fingerprint: String)?
    {
        var kept = Data()
        var fingerprint = Fingerprint()
        var remaining = length
        func take(_ bytes: ArraySlice<UInt8>) {
            if kept.count < keeping { kept.append(contentsOf: bytes.prefix(keeping - kept.count)) }
            fingerprint.add(bytes)
            remaining -= bytes.count
        }
        let available = buffer[start...]
        let first = available.prefix(remaining)
        take(first)
        buffer = Array(available.dropFirst(first.count))
        var mayStall = true
        while remaining > 0 {
            guard stallOnce(afterBodyBytes: length - remaining, &mayStall) else { return nil }
            let more = Socket.receive(descriptor, maximum: 1 << 20)
            if more.isEmpty { return nil }
            let piece = more.prefix(remaining)
            take(piece)
            if piece.count < more.count { buffer += more[piece.count...] }
        }
        return (kept, fingerprint.hex)
    }

    /// Receives into `buffer` until `parse` finds the whole of one part of a request there.
    ///
    /// - Parameters:
    ///   - buffer: the bytes received and not yet used; what arrives is appended.
    ///   - bodyStart: where a body starts in `buffer`, when the part is a body (which may
    ///     stall, see `StubServer.stallRequestBodies(afterBytes:)`).
    ///   - parse: reads the part from the buffer (``HTTPRequestParser/parseHead(_:)`` or a body).
    /// - Returns: the part and how many bytes of the buffer it took; `nil` when the client
    ///   closed the connection first, or sent something malformed (answered here).
    private func receive<Part>(
        into buffer: inout [UInt8], bodyFrom bodyStart: Int? = nil,
        until parse: ([UInt8]) -> HTTPRequestParser.Parsed<Part>
    ) -> (part: Part, length: Int)? {
        var mayStall = bodyStart != nil
        while true {
            switch parse(buffer) {
            case .incomplete:
                if let bodyStart, !stallOnce(afterBodyBytes: buffer.count - bodyStart, &mayStall) { return nil }
                let more = Socket.receive(descriptor)
                if more.isEmpty { return nil }
                buffer += more
            case .malformed(let status, let reason):
                answerMalformed(status: status, reason: reason)
                return nil
            case .complete(let part, let length):
                return (part, length)
            }
        }
    }

    /// Stalls a body that has reached the point where bodies stall, once (`pending` becomes
    /// `false`); returns `false` when the server stopped meanwhile.
    private func stallOnce(afterBodyBytes received: Int, _ pending: inout Bool) -> Bool {
        guard pending, received > 0, let stall = core.state.withLock({ $0.bodyStall }), received >= stall else {
            return true
        }
        pending = false
        return core.stallIfAsked(bodyBytes: received, run: run)
    }

    private func answerMalformed(status: Int, reason: String) {
        let body = Data("Bad request: \(reason).\n".utf8)
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        head += "Content-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        _ = Socket.sendAll(descriptor, Data(head.utf8) + body)
    }

    /// Writes `response` and counts its request finished (once, just before the last write);
    /// returns whether the connection stays open for another request.
    private func answer(_ response: StubResponse, for request: RecordedRequest, clientWantsKeepAlive: Bool) -> Bool {
        var counted = false
        let keepOpen = send(response, for: request, clientWantsKeepAlive: clientWantsKeepAlive) {
            if !counted { core.finish() }
            counted = true
        }
        if !counted { core.finish() }
        return keepOpen
    }

    /// Writes `response`; returns whether the connection stays open for another request.
    ///
    /// `beforeLastWrite` runs just before the write that completes the response: once the
    /// client has the whole response it may send its next request at once, on another
    /// connection, and that one must not be counted while this one still is.
    private func send(
        _ response: StubResponse, for request: RecordedRequest, clientWantsKeepAlive: Bool,
        beforeLastWrite: () -> Void
    ) -> Bool {
        if response.delay > .zero, !pause(response.delay) { return false }
        if response.closesWithoutAnswer {
            if response.resets { Socket.resetOnClose(descriptor) }
            return false
        }
        if let raw = response.rawBytes {
            _ = writeLast(raw, beforeLastWrite)
            return false
        }
        var status = response.status
        var headers = response.headers
        var body: Data
        let notModified = response.answersConditionalRequests && Self.isNotModified(request, headers)
        var produce: (@Sendable (StubStreamWriter) -> Void)?
        switch response.body {
        case .data(let data):
            body = data
        case .stream(let producer):
            body = Data()
            produce = producer
        case .file(let url):
            if let data = try? Data(contentsOf: url) {
                body = data
            } else {
                status = 500
                headers = ["Content-Type": "text/plain; charset=utf-8"]
                body = Data("The stub file \(url.path) could not be read.\n".utf8)
            }
        }
        if notModified {
            status = 304
            body = Data()
        }
        let hasNoBody = (100..<200).contains(status) || status == 204 || status == 304
        let isHead = request.method.uppercased() == "HEAD"
        let closeRequested = headers.contains {
            $0.key.lowercased() == "connection" && $0.value.lowercased() == "close"
        }
        let keepOpen =
            clientWantsKeepAlive && !closeRequested && response.dropAfterBodyBytes == nil && produce == nil
        let managed: Set<String> = ["content-length", "transfer-encoding", "connection"]
        headers = headers.filter { !managed.contains($0.key.lowercased()) }

        var text = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            text += "\(name): \(value)\r\n"
        }
        if !hasNoBody {
            text +=
                response.usesChunkedEncoding ? "Transfer-Encoding: chunked\r\n" : "Content-Length: \(body.count)\r\n"
        }
        text += keepOpen ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
        if let drop = response.dropAfterBodyBytes { body = body.prefix(drop) }
        // A dropped connection ends the response by closing, after every write.
        let endsWithLastPiece = !response.usesChunkedEncoding && response.dropAfterBodyBytes == nil
        if hasNoBody || isHead || (body.isEmpty && endsWithLastPiece) {
            return writeLast(Data(text.utf8), beforeLastWrite) && keepOpen
        }
        if let produce {
            guard Socket.sendAll(descriptor, Data(text.utf8)) else { return false }
            return stream(produce, beforeLastWrite)
        }
        guard Socket.sendAll(descriptor, Data(text.utf8)) else { return false }

        let pieceSize = response.slowBody?.size ?? max(body.count, 1)
        var offset = body.startIndex
        var isFirst = true
        while offset < body.endIndex {
            if !isFirst, let interval = response.slowBody?.interval, !pause(interval) { return false }
            isFirst = false
            let end = min(offset + pieceSize, body.endIndex)
            var piece = Data(body[offset..<end])
            if response.usesChunkedEncoding {
                piece = Data((String(piece.count, radix: 16) + "\r\n").utf8) + piece + Data("\r\n".utf8)
            }
            let sent =
                end == body.endIndex && endsWithLastPiece
                ? writeLast(piece, beforeLastWrite) : Socket.sendAll(descriptor, piece)
            guard sent else { return false }
            offset = end
        }
        if response.dropAfterBodyBytes != nil { return false }
        if response.usesChunkedEncoding {
            guard writeLast(Data("0\r\n\r\n".utf8), beforeLastWrite) else { return false }
        }
        return keepOpen
    }

    /// Writes a streamed body as `produce` gives it, one chunk per write, then its last chunk
    /// (unless the producer dropped the connection). The connection closes after it.
    private func stream(_ produce: @Sendable (StubStreamWriter) -> Void, _ beforeLastWrite: () -> Void) -> Bool {
        let descriptor = self.descriptor
        let connection = self
        let writer = StubStreamWriter(
            send: { data in
                if connection.run.isStopping { return false }
                let (closed, _) = Socket.peerHasClosed(descriptor, waitingUpTo: 0)
                if closed { return false }
                let framed = Data((String(data.count, radix: 16) + "\r\n").utf8) + data + Data("\r\n".utf8)
                return Socket.sendAll(descriptor, framed)
            },
            pause: { duration in connection.pause(duration) })
        produce(writer)
        if writer.isDropped {
            beforeLastWrite()
            return false
        }
        _ = writeLast(Data("0\r\n\r\n".utf8), beforeLastWrite)
        return false
    }

    /// Writes the bytes that complete a response, running `beforeLastWrite` first. A large
    /// write blocks until the client has read most of it, so it is split: the request counts as
    /// finished only once all but its last kilobyte is with the client.
    private func writeLast(_ data: Data, _ beforeLastWrite: () -> Void) -> Bool {
        let tail = 1024
        if data.count > 64 * 1024 {
            guard Socket.sendAll(descriptor, data.dropLast(tail)) else { return false }
            beforeLastWrite()
            return Socket.sendAll(descriptor, data.suffix(tail))
        }
        beforeLastWrite()
        return Socket.sendAll(descriptor, data)
    }

    /// Whether a conditional request matches the response's validators.
    private static func isNotModified(_ request: RecordedRequest, _ headers: [String: String]) -> Bool {
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
        if let condition = request.header("If-None-Match") {
            guard let etag = header("ETag") else { return false }
            let weak = { (tag: String) in tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag }
            return condition.split(separator: ",").contains { candidate in
                let candidate = candidate.trimmingCharacters(in: .whitespaces)
                return candidate == "*" || weak(candidate) == weak(etag)
            }
        }
        if let condition = request.header("If-Modified-Since"), let lastModified = header("Last-Modified") {
            return condition == lastModified
        }
        return false
    }

    /// Waits `duration`, ending early (returning `false`) when the client closes the
    /// connection or the server stops.
    private func pause(_ duration: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + duration
        while true {
            if run.isStopping { return false }
            let remaining = clock.now.duration(to: deadline)
            if remaining <= .zero { return true }
            let milliseconds = Int32(
                clamping: min(
                    50,
                    remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1))
            let (closed, readable) = Socket.peerHasClosed(descriptor, waitingUpTo: milliseconds)
            if closed { return false }
            if readable {
                // A pipelined request is waiting; sleep instead of spinning on poll.
                usleep(UInt32(milliseconds) * 1000)
            }
        }
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
