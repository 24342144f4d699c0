import FetchKitTesting
import Foundation
import Testing

@Suite("Stub server lifecycle")
struct StubServerLifecycleTests {
    @Test func startsAndStopsManyTimesAndAnswersEachTime() async throws {
        let server = StubServer()
        server.route("GET", "/ping", respond: .text("pong"))
        for _ in 0..<15 {
            try server.start()
            #expect(server.isRunning)
            #expect(server.port != 0)
            let reply = try await HTTP.get(server.url("/ping")).get()
            #expect(reply.text == "pong")
            server.stop()
            #expect(!server.isRunning)
            #expect(server.port == 0)
        }
        #expect(server.receivedRequests.count == 15)
    }

    #if os(Linux)
        /// The states of the TCP sockets whose local port is `port` (from `/proc/net/tcp`):
        /// `0A` listening, `01` established, `08` close-wait (the peer closed, we did not).
        /// The kernel does not read the table atomically, so an entry can be missed while
        /// other tests open sockets: use it only to look for sockets that should be gone.
        static func socketStates(localPort port: UInt16) -> [String] {
            guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return [] }
            let suffix = ":" + String(format: "%04X", port)
            return table.split(separator: "\n").dropFirst().compactMap { line in
                let columns = line.split(separator: " ")
                guard columns.count > 3, columns[1].hasSuffix(suffix) else { return nil }
                return String(columns[3])
            }
        }

        @Test func stoppingClosesTheListenerAndEveryConnection() throws {
            let server = StubServer()
            server.route("GET", "/a", respond: .text("alpha"))
            server.route("GET", "/hang", respond: .text("late").delayed(by: .seconds(600)))
            for _ in 0..<25 {
                try server.start()
                let port = server.port
                let kept = try RawConnection(port: port)
                kept.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(kept.read(untilOccurrences: 1, of: "alpha").contains("200 OK"))
                let hanging = try RawConnection(port: port)
                hanging.send("GET /hang HTTP/1.1\r\nHost: x\r\n\r\n")
                server.stop()
                // The server closed both connections, kept-alive and mid-delay, and stopped listening.
                #expect(kept.readToEnd().isEmpty)
                #expect(hanging.readToEnd().isEmpty)
                let open = Self.socketStates(localPort: port).filter { ["0A", "01", "08"].contains($0) }
                #expect(open.isEmpty, "sockets still open on port \(port): \(open)")
            }
            #expect(server.requestsInFlight == 0)
        }
    #endif

    @Test func manyServersRunSideBySideOnDistinctPorts() async throws {
        let servers = (0..<10).map { _ in StubServer() }
        for (index, server) in servers.enumerated() {
            server.route("GET", "/who", respond: .text("server \(index)"))
            try server.start()
        }
        defer { servers.forEach { $0.stop() } }
        #expect(Set(servers.map(\.port)).count == servers.count)
        for (index, server) in servers.enumerated() {
            let reply = try await HTTP.get(server.url("/who")).get()
            #expect(reply.text == "server \(index)")
        }
    }

    @Test func startTwiceKeepsTheSamePortAndStopTwiceIsHarmless() throws {
        let server = StubServer()
        try server.start()
        let port = server.port
        try server.start()
        #expect(server.port == port)
        server.stop()
        server.stop()
        #expect(!server.isRunning)
    }

    @Test func stopEndsADelayedResponseAndTheClientSeesAnError() async throws {
        let server = StubServer()
        server.route("GET", "/forever", respond: .text("late").delayed(by: .seconds(600)))
        try server.start()
        let url = server.url("/forever")
        async let outcome = HTTP.get(url)
        #expect(await server.waitForRequestsInFlight(count: 1))
        server.stop()
        let result = await outcome
        #expect(throws: URLError.self) { try result.get() }
        #expect(server.requestsInFlight == 0)
    }

    @Test func aServerThatIsReleasedStopsItself() async throws {
        var port: UInt16 = 0
        do {
            let server = StubServer()
            server.route("GET", "/released", respond: .text("still serving"))
            try server.start()
            port = server.port
        }
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/released"))
        // Refused, or answered by another test's server that took the freed port since: never by
        // the released one.
        if case .success(let reply) = await HTTP.get(url, timeout: 5) {
            #expect(reply.text != "still serving", "the released server still answers on port \(port)")
        }
    }
}
