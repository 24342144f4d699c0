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
        server.route("GET", "/forever", respond: .text("late").delayed(by: .seconds(60)))
        try server.start()
        let url = server.url("/forever")
        async let outcome = HTTP.get(url, timeout: 30)
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
            try server.start()
            port = server.port
        }
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/"))
        let result = await HTTP.get(url, timeout: 5)
        #expect(throws: URLError.self) { try result.get() }
    }
}
