/// One event of a server-sent event stream (`text/event-stream`), as the WHATWG HTML
/// standard's `EventSource` dispatches it.
///
/// ```text
/// id: 42
/// event: price
/// data: {"symbol":"ACME",
/// data:  "price":12.5}
///
/// ```
///
/// arrives as `ServerSentEvent(id: "42", event: "price", data: "{\"symbol\":\"ACME\",\n \"price\":12.5}")`.
public struct ServerSentEvent: Sendable, Hashable {
    /// The stream's last event ID when this event was dispatched: set by the last `id` field so
    /// far, in this event or an earlier one (`nil` when none was set, or an empty `id` reset it).
    /// It is what a reconnection sends as `Last-Event-ID`.
    public var id: String?
    /// The event's type: its `event` field, or `"message"` when it had none.
    public var event: String
    /// The event's `data` fields joined with line feeds (`""` for one empty `data` field).
    public var data: String
    /// The reconnection time the event's own `retry` field set (milliseconds, digits only),
    /// if it had one. ``EventSource`` also honours a `retry` field in a block with no data.
    public var retry: Duration?

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - id: the last event ID.
    ///   - event: the event's type.
    ///   - data: the event's data.
    ///   - retry: the reconnection time its `retry` field set.
    public init(id: String? = nil, event: String = "message", data: String, retry: Duration? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
    }
}

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

/// The event stream interpretation of the WHATWG HTML standard (§ 9.2.6), line by line.
struct ServerSentEventParser: Sendable {
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType = ""
    /// The last event ID buffer: kept from event to event.
    private(set) var lastEventID = ""
    private(set) var reconnectionTime: Duration?
    /// The `retry` value of the block being read, for its event.
    private var blockRetry: Duration?

    /// Takes one line (without its end); returns the event an empty line dispatches.
    mutating func take(_ line: [UInt8]) throws(FetchError) -> ServerSentEvent? {
        if line.isEmpty { return dispatch() }
        if line[0] == 0x3A { return nil }  // ":" a comment
        let name: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: 0x3A) {
            name = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == 0x20 { value = value.dropFirst() }
        } else {
            name = line[...]
            value = []
        }
        switch String(decoding: name, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            guard data.count + value.count < ResponseStream.maximumLineLength else {
                throw FetchError(
                    code: .badResponse,
                    detail: "the event stream sent an event longer than \(ResponseStream.maximumLineLength) bytes")
            }
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
        case "id":
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }) {
                // Digits only: too many of them for an Int is "wait for ever", capped at a day.
                let milliseconds = Int(String(decoding: value, as: UTF8.self)) ?? 86_400_000
                let time = Duration.milliseconds(min(milliseconds, 86_400_000))
                reconnectionTime = time
                blockRetry = time
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            eventType = ""
            blockRetry = nil
        }
        guard hasData else { return nil }
        return ServerSentEvent(
            id: lastEventID.isEmpty ? nil : lastEventID, event: eventType.isEmpty ? "message" : eventType,
            data: String(decoding: data, as: UTF8.self), retry: blockRetry)
    }
}
