/// A response body as server-sent events, parsed by the WHATWG rules, without reconnecting:
/// ``ResponseStream/events``.
///
/// - A UTF-8 byte order mark at the start is dropped; lines end at LF, CR or CRLF; bytes that
///   are not UTF-8 become U+FFFD.
/// - A line that starts with `:` is a comment. A field's name is what comes before the first
///   `:`, its value what follows, less one space; a line without `:` is a field with an empty value.
/// - `data` lines are joined with LF; an empty line dispatches the event, unless no `data`
///   came (an event type or id alone dispatches nothing). An event cut off by the end of the
///   stream is dropped.
/// - An `id` whose value holds U+0000 is ignored; `retry` counts only when it is all ASCII
///   digits; unknown fields are ignored.
public struct ServerSentEvents: AsyncSequence, Sendable {
    /// One event.
    public typealias Element = ServerSentEvent
    /// Every failure is a ``FetchError``.
    public typealias Failure = FetchError
    let stream: ResponseStream

    /// Reads the events one by one.
    public func makeAsyncIterator() -> Iterator {
        var lines = LineReader(chunks: stream.makeAsyncIterator())
        lines.skipsBOM = true
        return Iterator(lines: lines)
    }

    /// Reads the events one by one.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        var lines: LineReader
        var parser = ServerSentEventParser()

        /// The reconnection time the stream's last valid `retry` field set, if any.
        var reconnectionTime: Duration? { parser.reconnectionTime }
        /// The stream's last event ID buffer (`""` when none).
        var lastEventID: String { parser.lastEventID }

        /// The next event, or `nil` at the end of the stream.
        public mutating func next() async throws(FetchError) -> ServerSentEvent? {
            try await next(isolation: nil)
        }

        /// The next event, or `nil` at the end of the stream.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(FetchError) -> ServerSentEvent? {
            while let line = try await lines.next(isolation: actor) {
                if let event = try parser.take(line) { return event }
            }
            return nil
        }
    }
}
