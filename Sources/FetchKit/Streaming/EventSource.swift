import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A server-sent event stream that reconnects: the WHATWG `EventSource`, as an `AsyncSequence`
/// of ``ServerSentEvent``s fetched through a ``FetchClient``.
///
/// ```swift
/// for try await event in EventSource(Prices.live, client: client) {
///     print(event.event, event.data)
/// }
/// ```
///
/// Each connection is one fetch of the endpoint with ``Extraction/stream`` (so the client's
/// adapters, authentication, retries of the head, observers and redaction apply), sent with
/// `Accept: text/event-stream`, `Cache-Control: no-cache` and, once the stream has set an event
/// ID, `Last-Event-ID`. When a connection ends (the server closed it, it broke, or it was quiet
/// for longer than the endpoint's timeout), the source waits and connects again:
///
/// - It waits the reconnection time: the server's last `retry` field, or
///   ``Reconnection-swift.struct/delay``. Each connection that fails in a row after the first
///   doubles the wait, up to ``Reconnection-swift.struct/maximumDelay``; an event resets it.
/// - A `204 No Content` answer ends the sequence normally: the server says there is nothing more.
/// - An answer that is not `text/event-stream`, or a status the client does not accept other than
///   408, 425, 429 and 5xx, ends it with the ``FetchError`` (a stream that cannot be right is not tried
///   again); so does a connection that failed ``Reconnection-swift.struct/maximumAttempts`` times
///   in a row.
///
/// Cancelling the task that reads ends the sequence at once with
/// ``FetchError/Code-swift.struct/cancelled`` and closes the connection, during a wait too.
///
/// To act when a connection opens (the WHATWG `open` event: events sent while no connection
/// was open are lost unless the server replays them from `Last-Event-ID`, so a reader that must
/// not miss a change reads what it missed then), pass `opened`.
public struct EventSource: AsyncSequence, Sendable {
    /// One event.
    public typealias Element = ServerSentEvent
    /// Every failure is a ``FetchError``.
    public typealias Failure = FetchError

    /// When and how often the source connects again.
    public struct Reconnection: Sendable {
        /// The wait before connecting again when the server set no `retry` (3 seconds by default).
        public var delay: Duration
        /// The longest wait, however many attempts failed in a row (60 seconds by default).
        public var maximumDelay: Duration
        /// How many connections in a row may fail before an event arrives, before the sequence
        /// ends with the last error; `nil` (the default) for no limit.
        public var maximumAttempts: Int?

        /// Creates a reconnection policy.
        ///
        /// - Parameters:
        ///   - delay: the wait when the server set no `retry`.
        ///   - maximumDelay: the longest wait.
        ///   - maximumAttempts: the most failed connections in a row, or `nil` for no limit.
        public init(delay: Duration = .seconds(3), maximumDelay: Duration = .seconds(60), maximumAttempts: Int? = nil) {
            self.delay = delay
            self.maximumDelay = maximumDelay
            self.maximumAttempts = maximumAttempts
        }

        /// Waits before the next connection, on `clock`: `retry` (the server's reconnection
        /// time) or ``delay``, doubled for each attempt after the first of `failures` that
        /// failed in a row, up to ``maximumDelay``. After a failure the wait is never shorter
        /// than 10 milliseconds, so a zero delay cannot spin on a server that is down.
        ///
        /// ```swift
        /// try await reconnection.pause(afterFailures: failures, on: client.configuration.clock)
        /// ```
        ///
        /// - Parameters:
        ///   - failures: how many attempts failed in a row (0 after a connection that ended
        ///     normally).
        ///   - retry: the server's reconnection time, when it set one.
        ///   - clock: the clock to wait on (the client's, so a test clock drives it).
        /// - Throws: ``FetchError`` with ``FetchError/Code-swift.struct/cancelled`` when the
        ///   waiting task is cancelled.
        public func pause(
            afterFailures failures: Int, retry: Duration? = nil, on clock: any Clock<Duration>
        )
            async throws(FetchError)
        {
            var wait = retry ?? delay
            for _ in 0..<Swift.min(Swift.max(failures - 1, 0), 30) where wait < maximumDelay { wait *= 2 }
            wait = Swift.min(wait, maximumDelay)
            if failures > 0 { wait = Swift.max(wait, .milliseconds(10)) }
            guard wait > .zero else { return }
            do {
                try await Self.sleep(clock, for: wait)
            } catch {
                throw FetchError(code: .cancelled)
            }
        }

        private static func sleep<C: Clock<Duration>>(_ clock: C, for wait: Duration) async throws {
            try await clock.sleep(until: clock.now.advanced(by: wait), tolerance: nil)
        }
    }

    private let endpoint: any Endpoint
    private let client: FetchClient
    private let lastEventID: String?
    private let reconnection: Reconnection
    private let opened: (@Sendable () async -> Void)?

    /// Creates an event source; nothing is sent until the sequence is iterated.
    ///
    /// - Parameters:
    ///   - endpoint: the event stream's request (a `GET` as a rule).
    ///   - client: the client that sends it.
    ///   - lastEventID: the ID of the last event an earlier session received, sent as
    ///     `Last-Event-ID` on the first connection; `nil` for none.
    ///   - reconnection: when to connect again.
    ///   - opened: called each time a connection opens (the server answered with an event
    ///     stream), before its first event is read; `nil` (the default) for nothing. The next
    ///     event is read once it returns.
    public init(
        _ endpoint: some Endpoint, client: FetchClient, lastEventID: String? = nil,
        reconnection: Reconnection = Reconnection(), opened: (@Sendable () async -> Void)? = nil
    ) {
        self.endpoint = endpoint
        self.client = client
        self.lastEventID = lastEventID
        self.reconnection = reconnection
        self.opened = opened
    }

    /// Connects and reads events, reconnecting as needed.
    public func makeAsyncIterator() -> Iterator {
        Iterator(source: self, lastEventID: lastEventID ?? "")
    }

    /// Reads events, reconnecting as needed.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        private let source: EventSource
        private var events: ServerSentEvents.Iterator?
        private var stream: ResponseStream?
        /// The last event ID buffer, carried from connection to connection.
        private(set) var lastEventID: String
        private var reconnectionTime: Duration?
        private var failures = 0
        private var connected = false
        private var ended = false

        fileprivate init(source: EventSource, lastEventID: String) {
            self.source = source
            self.lastEventID = lastEventID
        }

        /// The next event, or `nil` when the server answered `204 No Content`.
        public mutating func next() async throws(FetchError) -> ServerSentEvent? {
            try await next(isolation: nil)
        }

        /// The next event, or `nil` when the server answered `204 No Content`.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(FetchError) -> ServerSentEvent? {
            while !ended {
                try Self.checkCancellation()
                if events == nil {
                    if connected { try await wait() }
                    connected = true
                    do throws(FetchError) {
                        guard try await connect() else {
                            ended = true
                            return nil
                        }
                    } catch {
                        try recordFailure(error)
                        continue
                    }
                }
                do throws(FetchError) {
                    if let event = try await events?.next(isolation: actor) {
                        failures = 0
                        remember()
                        return event
                    }
                    // The server ended the stream: connect again.
                    remember()
                    close()
                } catch {
                    remember()
                    close()
                    if error.code == .cancelled { throw error }
                    guard error.isTransient else {
                        ended = true
                        throw error
                    }
                }
            }
            return nil
        }

        /// Opens a connection; `false` when the server answered 204.
        private mutating func connect() async throws(FetchError) -> Bool {
            var headers = ["Accept": "text/event-stream", "Cache-Control": "no-cache"]
            if !lastEventID.isEmpty { headers["Last-Event-ID"] = lastEventID }
            let stream = try await source.client.fetch(
                UncachedRequest(source.endpoint, headers: headers), extracting: .stream)
            if stream.response.statusCode == 204 {
                stream.cancel()
                return false
            }
            let type = stream.response.value(forHTTPHeaderField: "Content-Type") ?? ""
            let mediaType = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard mediaType.lowercased() == "text/event-stream" else {
                stream.cancel()
                ended = true
                throw FetchError(
                    code: .badResponse,
                    detail: "the server answered with \(type.isEmpty ? "no content type" : "content type \(type)"), "
                        + "not an event stream (text/event-stream); the event source stops")
            }
            self.stream = stream
            self.events = stream.events.makeAsyncIterator()
            await source.opened?()
            return true
        }

        /// Counts a failed connection: rethrows an error that ends the sequence.
        private mutating func recordFailure(_ error: FetchError) throws(FetchError) {
            if error.code == .cancelled || !error.isTransient {
                ended = true
                throw error
            }
            failures += 1
            if let limit = source.reconnection.maximumAttempts, failures >= limit {
                ended = true
                throw error
            }
        }

        /// Keeps the stream's event ID and reconnection time for the next connection.
        private mutating func remember() {
            guard let events else { return }
            lastEventID = events.lastEventID
            if let time = events.reconnectionTime { reconnectionTime = time }
        }

        private mutating func close() {
            stream?.cancel()
            stream = nil
            events = nil
        }

        /// Waits the reconnection time, doubled for each failed attempt in a row after the first.
        private func wait() async throws(FetchError) {
            try await source.reconnection.pause(
                afterFailures: failures, retry: reconnectionTime, on: source.client.configuration.clock)
        }

        private static func checkCancellation() throws(FetchError) {
            if Task.isCancelled { throw FetchError(code: .cancelled) }
        }
    }
}
