public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A response whose body is read as it arrives: chunks of bytes, ``lines`` of text, or
/// ``events`` of a server-sent event stream. What a fetch with ``Extraction/stream`` returns.
///
/// ```swift
/// let stream = try await client.fetch(Logs.tail(service: "api"), extracting: .stream)
/// for try await line in stream.lines {
///     print(line)
/// }
/// ```
///
/// The fetch returns as soon as the response's head is accepted: the request went through the
/// client's whole pipeline (adapters, authentication, the per-host limit, retries of the head,
/// status validation, observers and redaction), and a status outside the acceptable ones failed
/// the fetch with its body's excerpt as usual. The body is then read from one loop:
///
/// - The wait for each next chunk is bounded by the endpoint's timeout (or the client's): a
///   stream quiet for longer ends with ``FetchError/Code-swift.struct/timedOut``.
/// - Cancelling the task that reads, calling ``cancel()``, leaving the loop early or dropping the
///   stream closes the connection at once.
/// - A connection that breaks ends the loop with the error (``FetchError/Code-swift.struct/connectionLost``
///   and its kin); nothing is retried once the head has arrived (``EventSource`` reconnects).
///
/// The stream holds only what the reader has not taken yet. A transport that reads its
/// connection in a loop (the AsyncHTTPClient companion) waits while the reader is more than
/// ``StreamedBody/highWaterMark`` bytes behind; `URLSession` cannot be paused on Linux, so on
/// ``URLSessionTransport`` a reader that falls behind a fast server holds the difference.
public struct ResponseStream: AsyncSequence, Sendable {
    /// A chunk of the body, as the transport received it.
    public typealias Element = Data
    /// Every failure is a ``FetchError``.
    public typealias Failure = FetchError

    /// The response's status line and headers.
    public let response: HTTPURLResponse
    private let owner: Owner

    init(response: HTTPURLResponse, body: StreamedBody) {
        self.response = response
        self.owner = Owner(body: body)
    }

    /// Closes the connection and ends the stream; a loop waiting on it ends with
    /// ``FetchError/Code-swift.struct/cancelled``.
    public func cancel() {
        owner.body.stop(FetchError(code: .cancelled))
    }

    /// Reads the body chunk by chunk.
    public func makeAsyncIterator() -> Iterator { Iterator(owner: owner) }

    /// The most unread bytes the stream held at once (for tests of its memory).
    package var peakBufferedBytes: Int { owner.body.peakBufferedBytes }

    /// Reads the body chunk by chunk.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        fileprivate let owner: Owner

        /// The next chunk, or `nil` at the end of the body.
        public mutating func next() async throws(FetchError) -> Data? {
            try await owner.body.next()
        }

        /// The next chunk, or `nil` at the end of the body.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(FetchError) -> Data? {
            try await owner.body.next()
        }
    }

    /// The body byte by byte.
    public var bytes: Bytes { Bytes(stream: self) }

    /// The body as lines of text: split at LF, CR or CRLF (the line ends are not included), decoded
    /// as UTF-8 (a malformed sequence becomes U+FFFD). A last line without a line end is included.
    /// A line longer than ``maximumLineLength`` bytes ends the loop with
    /// ``FetchError/Code-swift.struct/badResponse``.
    public var lines: Lines { Lines(stream: self) }

    /// The longest line ``lines`` and ``events`` accept, in bytes (8 MiB): a stream that never
    /// ends its line cannot fill the memory.
    public static let maximumLineLength = 8 * 1024 * 1024

    /// The body as server-sent events, parsed as the WHATWG HTML standard's `EventSource` parses
    /// them, without reconnecting (``EventSource`` reconnects).
    public var events: ServerSentEvents { ServerSentEvents(stream: self) }

    /// Cancels the stream when the last copy of it (and of its iterators) goes away.
    fileprivate final class Owner: Sendable {
        let body: StreamedBody
        init(body: StreamedBody) { self.body = body }
        deinit { body.stop(FetchError(code: .cancelled)) }
    }

    /// A response body byte by byte.
    public struct Bytes: AsyncSequence, Sendable {
        /// One byte.
        public typealias Element = UInt8
        /// Every failure is a ``FetchError``.
        public typealias Failure = FetchError
        let stream: ResponseStream

        /// Reads the body byte by byte.
        public func makeAsyncIterator() -> Iterator { Iterator(chunks: stream.makeAsyncIterator()) }

        /// Reads the body byte by byte.
        public struct Iterator: AsyncIteratorProtocol, Sendable {
            var chunks: ResponseStream.Iterator
            var chunk = Data()
            var index = 0

            /// The next byte, or `nil` at the end of the body.
            public mutating func next() async throws(FetchError) -> UInt8? {
                try await next(isolation: nil)
            }

            /// The next byte, or `nil` at the end of the body.
            public mutating func next(isolation actor: isolated (any Actor)?) async throws(FetchError) -> UInt8? {
                while index >= chunk.count {
                    guard let next = try await chunks.next(isolation: actor) else { return nil }
                    chunk = next
                    index = 0
                }
                defer { index += 1 }
                return chunk[chunk.startIndex + index]
            }
        }
    }

    /// A response body as lines of text.
    public struct Lines: AsyncSequence, Sendable {
        /// One line, without its line end.
        public typealias Element = String
        /// Every failure is a ``FetchError``.
        public typealias Failure = FetchError
        let stream: ResponseStream

        /// Reads the body line by line.
        public func makeAsyncIterator() -> Iterator { Iterator(lines: LineReader(chunks: stream.makeAsyncIterator())) }

        /// Reads the body line by line.
        public struct Iterator: AsyncIteratorProtocol, Sendable {
            var lines: LineReader

            /// The next line, or `nil` at the end of the body.
            public mutating func next() async throws(FetchError) -> String? {
                try await next(isolation: nil)
            }

            /// The next line, or `nil` at the end of the body.
            public mutating func next(isolation actor: isolated (any Actor)?) async throws(FetchError) -> String? {
                guard let line = try await lines.next(isolation: actor) else { return nil }
                return String(decoding: line, as: UTF8.self)
            }
        }
    }
}

/// Splits chunks of bytes into lines at LF, CR or CRLF, a CR at the end of one chunk and an LF at
/// the start of the next counting as one line end.
struct LineReader: Sendable {
    private var chunks: ResponseStream.Iterator
    private var chunk: [UInt8] = []
    private var index = 0
    private var partial: [UInt8] = []
    /// The last byte seen was a CR, so an LF that comes first in the next chunk ends nothing.
    private var afterCR = false
    private var ended = false
    /// Whether the body has started: a BOM is looked for at the very start (``skipsBOM``).
    private var started = false
    /// Whether a UTF-8 byte order mark at the start of the body is dropped (server-sent events).
    var skipsBOM = false

    init(chunks: ResponseStream.Iterator) {
        self.chunks = chunks
    }

    /// The next line's bytes, or `nil` at the end of the body.
    mutating func next(isolation actor: isolated (any Actor)?) async throws(FetchError) -> [UInt8]? {
        while true {
            while index < chunk.count {
                let byte = chunk[index]
                if afterCR {
                    afterCR = false
                    if byte == 0x0A {
                        index += 1
                        continue
                    }
                }
                if byte == 0x0A || byte == 0x0D {
                    index += 1
                    afterCR = byte == 0x0D
                    defer { partial.removeAll(keepingCapacity: true) }
                    return partial
                }
                // Copy the run up to the next line end in one go.
                var end = index + 1
                while end < chunk.count, chunk[end] != 0x0A, chunk[end] != 0x0D { end += 1 }
                guard partial.count + (end - index) <= ResponseStream.maximumLineLength else {
                    throw FetchError(
                        code: .badResponse,
                        detail: "the stream sent a line longer than \(ResponseStream.maximumLineLength) bytes")
                }
                partial.append(contentsOf: chunk[index..<end])
                index = end
            }
            if ended { return nil }
            guard let next = try await chunks.next(isolation: actor) else {
                ended = true
                chunk = []
                index = 0
                if partial.isEmpty { return nil }
                defer { partial = [] }
                return partial
            }
            chunk = [UInt8](next)
            index = 0
            if skipsBOM, !started {
                // The mark may come split over the first chunks: wait until three bytes are here.
                partial.append(contentsOf: chunk)
                chunk = []
                if partial.count < 3, !partial.isEmpty, [0xEF, 0xBB, 0xBF].starts(with: partial) { continue }
                started = true
                if partial.starts(with: [0xEF, 0xBB, 0xBF]) { partial.removeFirst(3) }
                chunk = partial
                partial = []
                continue
            }
            started = true
        }
    }
}
