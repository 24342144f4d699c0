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
        // The field's name compared as bytes: no string is made for it on each line.
        if name.elementsEqual("data".utf8) {
            guard data.count + value.count < ResponseStream.maximumLineLength else {
                throw FetchError(
                    code: .badResponse,
                    detail: "the event stream sent an event longer than \(ResponseStream.maximumLineLength) bytes")
            }
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
        } else if name.elementsEqual("event".utf8) {
            eventType = String(decoding: value, as: UTF8.self)
        } else if name.elementsEqual("id".utf8) {
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        } else if name.elementsEqual("retry".utf8) {
            if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }) {
                // Digits only: too many of them for an Int is "wait for ever", capped at a day.
                let milliseconds = Int(String(decoding: value, as: UTF8.self)) ?? 86_400_000
                let time = Duration.milliseconds(min(milliseconds, 86_400_000))
                reconnectionTime = time
                blockRetry = time
            }
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
