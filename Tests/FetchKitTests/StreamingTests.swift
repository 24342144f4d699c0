import FetchKit
import FetchKitTesting
import Foundation
import Locking
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Streamed responses and server-sent events, against the loopback server.
@Suite struct StreamingTests {
    /// One rule of the WHATWG event stream interpretation: a body and the events it dispatches.
    struct Rule: Sendable, CustomTestStringConvertible {
        var name: String
        var body: Data
        var events: [ServerSentEvent]
        var testDescription: String { name }

        init(_ name: String, _ text: String, _ events: [ServerSentEvent]) {
            self.init(name, Data(text.utf8), events)
        }

        init(_ name: String, _ body: Data, _ events: [ServerSentEvent]) {
            self.name = name
            self.body = body
            self.events = events
        }
    }

    static let rules: [Rule] = [
        Rule("a byte order mark at the start is dropped", "\u{FEFF}data: a\n\n", [.init(data: "a")]),
        Rule("only one byte order mark is dropped", "\u{FEFF}\u{FEFF}data: a\n\ndata: b\n\n", [.init(data: "b")]),
        Rule(
            "lines end at LF, CR or CRLF", "data: a\r\rdata: b\r\n\r\ndata: c\n\n",
            [.init(data: "a"), .init(data: "b"), .init(data: "c")]),
        Rule("a line starting with a colon is a comment", ": hello\ndata: a\n:\n\n", [.init(data: "a")]),
        Rule("data lines are joined with LF", "data: a\ndata: b\ndata:c\n\n", [.init(data: "a\nb\nc")]),
        Rule("an empty data field dispatches an empty event", "data\n\ndata:\n\n", [.init(data: ""), .init(data: "")]),
        Rule("two empty data fields make one line feed", "data:\ndata:\n\n", [.init(data: "\n")]),
        Rule("one leading space is removed, not two", "data:a\n\ndata:  b\n\n", [.init(data: "a"), .init(data: " b")]),
        Rule(
            "the event field names the type, reset after each event", "event: add\ndata: a\n\ndata: b\n\n",
            [.init(event: "add", data: "a"), .init(data: "b")]),
        Rule(
            "a block without data dispatches nothing but keeps its id", "event: x\nid: 5\n\ndata: a\n\n",
            [.init(id: "5", data: "a")]),
        Rule(
            "the id carries to later events, and an empty id resets it", "id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n",
            [.init(id: "7", data: "a"), .init(id: "7", data: "b"), .init(data: "c")]),
        Rule(
            "an id holding NUL is ignored", "id: 1\ndata: a\n\nid: 2\u{0}3\ndata: b\n\n",
            [.init(id: "1", data: "a"), .init(id: "1", data: "b")]),
        Rule(
            "retry counts only when it is all digits",
            "retry: 1500\ndata: a\n\nretry: 15x\ndata: b\n\nretry: -1\ndata: c\n\n",
            [.init(data: "a", retry: .milliseconds(1500)), .init(data: "b"), .init(data: "c")]),
        Rule("unknown fields and bare names are ignored", "foo: bar\ndata: a\nbaz\nDATA: no\n\n", [.init(data: "a")]),
        Rule("an event cut off by the end of the stream is dropped", "data: a\n\ndata: b\n", [.init(data: "a")]),
        Rule(
            "bytes that are not UTF-8 become U+FFFD", Data([0x64, 0x61, 0x74, 0x61, 0x3A, 0x20, 0xFF, 0x0A, 0x0A]),
            [.init(data: "\u{FFFD}")]),
        Rule("a colon in the value is kept", "data: a: b\n\n", [.init(data: "a: b")]),
    ]

    /// Each rule, with the body written in one chunk and byte by byte (a CR, a CRLF and the
    /// byte order mark then arrive split over chunks).
    @Test(arguments: rules, [false, true])
    func eventStreamsAreParsedByTheWHATWGRules(_ rule: Rule, byteByByte: Bool) async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let body = rule.body
        server.route(
            "GET", "/events",
            respond: .stream(headers: ["Content-Type": "text/event-stream"]) { writer in
                if byteByByte {
                    for byte in body { guard writer.write(Data([byte])) else { return } }
                } else {
                    writer.write(body)
                }
            })
        let stream = try await FetchClient().fetch(.url(server.url("/events")), extracting: .stream)
        var events: [ServerSentEvent] = []
        for try await event in stream.events { events.append(event) }
        #expect(events == rule.events)
    }

    @Test func linesSplitAtEveryLineEndAndKeepEmptyLines() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route(
            "GET", "/log",
            respond: .stream { writer in
                for piece in ["one\r", "\ntwo\rthree\n", "\nfour"] { writer.write(piece) }
            })
        let stream = try await FetchClient().fetch(.url(server.url("/log")), extracting: .stream)
        var lines: [String] = []
        for try await line in stream.lines { lines.append(line) }
        #expect(lines == ["one", "two", "three", "", "four"])
    }

    @Test func bytesComeOneByOneInOrder() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let body = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        server.route("GET", "/bytes", respond: .stream { writer in writer.write(body) })
        let stream = try await FetchClient().fetch(.url(server.url("/bytes")), extracting: .stream)
        var received: [UInt8] = []
        for try await byte in stream.bytes { received.append(byte) }
        #expect(Data(received) == body)
    }

    /// The stream goes through the client's pipeline: adapters apply, and the callback form
    /// delivers the stream like any value.
    @Test func aStreamGoesThroughTheAdaptersAndTheCallbackForm() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("GET", "/s", respond: .stream { writer in writer.write("ok") })
        let client = FetchClient { $0.adapters = [HeaderAdapter(["X-Trace": "abc"])] }
        let stream = try await client.fetch(.url(server.url("/s")), extracting: .stream, completion: nil).value
        var text = ""
        for try await line in stream.lines { text += line }
        #expect(text == "ok")
        #expect(server.requests(to: "/s").first?.header("X-Trace") == "abc")
    }

    @Test func aStreamCannotBeShared() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let error = await #expect(throws: FetchError.self) {
            _ = try await FetchClient().fetch(.url(server.url("/s")), extracting: .stream, sharing: "one")
        }
        #expect(error?.code == .invalidRequest)
        #expect(server.receivedRequests.isEmpty)
    }

    /// A stream quiet for longer than the timeout ends with `timedOut`, on the client's clock.
    @Test func aQuietStreamTimesOutBetweenChunks() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route(
            "GET", "/quiet",
            respond: .stream { writer in
                writer.write("first\n")
                while writer.pause(.milliseconds(20)) {}
            })
        let clock = TestClock()
        let client = FetchClient {
            $0.clock = clock
            $0.timeout = .seconds(30)
        }
        let stream = try await client.fetch(.url(server.url("/quiet")), extracting: .stream)
        let reader = Task { () -> FetchError? in
            do throws(FetchError) {
                for try await _ in stream.lines {}
                return nil
            } catch {
                return error
            }
        }
        #expect(await clock.sleepers(count: 1, within: .seconds(30)))
        await clock.advance(by: .seconds(29))
        #expect(clock.sleeperCount == 1)
        await clock.advance(by: .seconds(1))
        let error = await reader.value
        #expect(error?.code == .timedOut)
        #expect(error?.timeout == .seconds(30))
    }

    /// An endless stream read to 40 MB by a reader the server waits for (as a real network
    /// paces a stream): the stream holds no more than the server is ahead, whatever went
    /// through. (The process's resident memory is not read: other tests run in the same process.)
    @Test func anEndlessStreamTakesFlatMemory() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let consumed = Locked(0)
        let payload = String(repeating: "x", count: 1000)
        server.route(
            "GET", "/endless",
            respond: .stream(headers: ["Content-Type": "text/event-stream"]) { writer in
                var sent = 0
                while true {
                    // At most 256 events ahead of the reader.
                    while sent - consumed.withLock({ $0 }) > 256 {
                        guard writer.pause(.milliseconds(1)) else { return }
                    }
                    guard writer.write("id: \(sent)\ndata: \(payload)\n\n") else { return }
                    sent += 1
                }
            })
        let stream = try await FetchClient().fetch(.url(server.url("/endless")), extracting: .stream)
        var count = 0
        for try await event in stream.events {
            #expect(event.data.utf8.count == 1000)
            count += 1
            consumed.withLock { $0 = count }
            if count == 40_000 { break }
        }
        #expect(count == 40_000)
        // 40 MB went through; the stream held at most the 257 events the server may be ahead.
        #expect(stream.peakBufferedBytes <= 257 * 1024, "the stream held \(stream.peakBufferedBytes) bytes at once")
    }

    // MARK: EventSource

    /// A connection that ends is made again after the server's `retry`, with `Last-Event-ID`;
    /// a broken one too; a 204 ends the sequence.
    @Test func anEventSourceReconnectsWithTheLastEventIDAndStopsOn204() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let connections = Locked(0)
        let sse = ["Content-Type": "text/event-stream"]
        server.route("GET", "/feed") { request in
            let number = connections.withLock { count -> Int in
                count += 1
                return count
            }
            switch number {
            case 1: return .stream(headers: sse) { $0.write("retry: 10\nid: 1\ndata: a\n\n") }
            case 2:
                return .stream(headers: sse) { writer in
                    writer.write("id: 2\ndata: b\n\ndata: cut")
                    writer.dropConnection()
                }
            default: return .status(204)
            }
        }
        var events: [ServerSentEvent] = []
        for try await event in EventSource(.url(server.url("/feed")), client: FetchClient()) {
            events.append(event)
        }
        #expect(events.map(\.data) == ["a", "b"])
        #expect(events.map(\.id) == ["1", "2"])
        let sent = server.requests(to: "/feed")
        #expect(sent.map { $0.header("Last-Event-ID") } == [nil, "1", "2"])
        #expect(sent.allSatisfy { $0.header("Accept") == "text/event-stream" })
    }

    /// Failed connections back off: the delay doubles up to the maximum, on the client's clock.
    @Test func anEventSourceBacksOffOnTheClientsClock() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let clock = TestClock()
        let arrivals = Locked<[Duration]>([])
        let start = clock.now
        server.route("GET", "/feed") { _ in
            let count = arrivals.withLock { times -> Int in
                times.append(start.duration(to: clock.now))
                return times.count
            }
            if count <= 3 { return .text("busy", status: 503) }
            if count == 4 {
                return .stream(headers: ["Content-Type": "text/event-stream"]) { $0.write("data: up\n\n") }
            }
            return .status(204)
        }
        let client = FetchClient {
            $0.clock = clock
            $0.timeout = .seconds(3600)
            $0.retryPolicy = .none
        }
        let source = EventSource(
            .url(server.url("/feed")), client: client,
            reconnection: .init(delay: .seconds(1), maximumDelay: .seconds(3)))
        let reader = Task { () throws(FetchError) -> [String] in
            var data: [String] = []
            for try await event in source { data.append(event.data) }
            return data
        }
        // Step time a second at a time whenever the source waits.
        while arrivals.withLock({ $0.count }) < 5 {
            if await clock.sleepers(count: 1, within: .seconds(5), timeout: .milliseconds(50)) {
                await clock.advance(by: .seconds(1))
            }
        }
        #expect(try await reader.value == ["up"])
        // 1 s, then 2 s, then 3 s (4 s capped); after a stream that delivered, 1 s again.
        #expect(arrivals.withLock { $0 } == [.zero, .seconds(1), .seconds(3), .seconds(6), .seconds(7)])
    }

    /// `opened:` runs once per connection, after the head and before the connection's first event.
    @Test func anEventSourceSaysWhenEachConnectionOpens() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let connections = Locked(0)
        server.route("GET", "/feed") { _ in
            let count = connections.withLock { count -> Int in
                count += 1
                return count
            }
            if count > 2 { return .status(204) }
            return .stream(headers: ["Content-Type": "text/event-stream"]) { $0.write("retry: 0\ndata: \(count)\n\n") }
        }
        let opened = Locked(0)
        var seen: [String] = []
        for try await event in EventSource(
            .url(server.url("/feed")), client: FetchClient(), opened: { opened.withLock { $0 += 1 } })
        {
            seen.append("\(event.data) after \(opened.withLock { $0 }) opened")
        }
        #expect(seen == ["1 after 1 opened", "2 after 2 opened"])
        #expect(opened.withLock { $0 } == 2)
    }

    @Test func anEventSourceStopsOnAStreamThatIsNotAnEventStream() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("GET", "/feed", respond: .json(#"{"events":[]}"#))
        let error = await #expect(throws: FetchError.self) {
            for try await _ in EventSource(.url(server.url("/feed")), client: FetchClient()) {}
        }
        #expect(error?.code == .badResponse)
        #expect(error.map { "\($0)" }?.contains("text/event-stream") == true)
        #expect(server.requests(to: "/feed").count == 1)
    }

    @Test func anEventSourceStopsOnAClientErrorAndAfterItsAttempts() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("GET", "/gone", respond: .text("no such feed", status: 404))
        server.route("GET", "/down", respond: .text("down", status: 503))
        let client = FetchClient { $0.retryPolicy = .none }
        let gone = await #expect(throws: FetchError.self) {
            for try await _ in EventSource(.url(server.url("/gone")), client: client) {}
        }
        #expect(gone?.statusCode == 404)
        #expect(server.requests(to: "/gone").count == 1)
        let down = await #expect(throws: FetchError.self) {
            let source = EventSource(
                .url(server.url("/down")), client: client,
                reconnection: .init(delay: .milliseconds(1), maximumAttempts: 3))
            for try await _ in source {}
        }
        #expect(down?.statusCode == 503)
        #expect(server.requests(to: "/down").count == 3)
    }

    /// Cancelling the reader ends the sequence at once, during a wait for an event and
    /// during a wait before reconnecting, and closes the connection.
    @Test func cancellingAnEventSourceEndsItAtOnce() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let closed = Locked(false)
        server.route(
            "GET", "/feed",
            respond: .stream(headers: ["Content-Type": "text/event-stream"]) { writer in
                writer.write("data: first\n\n")
                while writer.pause(.milliseconds(5)) {}
                closed.withLock { $0 = true }
            })
        let firstSeen = Gate()
        let reader = Task { () -> FetchError? in
            do throws(FetchError) {
                for try await _ in EventSource(.url(server.url("/feed")), client: FetchClient()) { firstSeen.open() }
                return nil
            } catch {
                return error
            }
        }
        await firstSeen.wait()
        reader.cancel()
        #expect(await reader.value?.code == .cancelled)
        #expect(await eventually { closed.withLock { $0 } })

        // During the wait before reconnecting.
        let clock = TestClock()
        server.route("GET", "/ended", respond: .stream(headers: ["Content-Type": "text/event-stream"]) { _ in })
        let client = FetchClient { $0.clock = clock }
        let waiting = Task { () -> FetchError? in
            do throws(FetchError) {
                for try await _ in EventSource(.url(server.url("/ended")), client: client) {}
                return nil
            } catch {
                return error
            }
        }
        #expect(await clock.sleepers(count: 1, within: .seconds(3)))
        waiting.cancel()
        #expect(await waiting.value?.code == .cancelled)
        #expect(server.requests(to: "/ended").count == 1)
    }

    private func eventually(_ condition: @Sendable () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + Patience.hang
        while clock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }
}
