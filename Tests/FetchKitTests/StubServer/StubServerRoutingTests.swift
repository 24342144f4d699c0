import FetchKitTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Stub server routing and responses")
struct StubServerRoutingTests {
    let server = StubServer()

    init() throws {
        try server.start()
    }

    @Test func routesByMethodPathAndQuery() async throws {
        defer { server.stop() }
        server.route("GET", "/items", respond: .text("any query"))
        server.route("GET", "/items", query: ["page": "2"], respond: .text("page two"))
        server.route("POST", "/items", respond: .text("created", status: 201))
        server.route(nil, "/files/*", respond: .text("a file"))

        #expect(try await HTTP.get(server.url("/items?page=1")).get().text == "any query")
        #expect(try await HTTP.get(server.url("/items?sort=x&page=2")).get().text == "page two")
        var post = URLRequest(url: server.url("/items"))
        post.httpMethod = "POST"
        let created = try await HTTP.send(post).get()
        #expect(created.status == 201)
        #expect(created.text == "created")
        #expect(try await HTTP.get(server.url("/files/a/b.txt")).get().text == "a file")
    }

    @Test func unmatchedRequestGets404NamingTheRequest() async throws {
        defer { server.stop() }
        let reply = try await HTTP.get(server.url("/nowhere")).get()
        #expect(reply.status == 404)
        #expect(reply.text.contains("GET /nowhere"))
    }

    @Test func fallbackResponseAnswersUnmatchedRequests() async throws {
        defer { server.stop() }
        server.setFallback(.status(418))
        #expect(try await HTTP.get(server.url("/nowhere")).get().status == 418)
    }

    @Test func laterRouteOverridesEarlierOne() async throws {
        defer { server.stop() }
        server.route("GET", "/x", respond: .text("first"))
        server.route("GET", "/x", respond: .text("second"))
        #expect(try await HTTP.get(server.url("/x")).get().text == "second")
        server.removeAllRoutes()
        #expect(try await HTTP.get(server.url("/x")).get().status == 404)
    }

    @Test func respondInTurnFailsTwiceThenSucceedsAndRepeatsTheLast() async throws {
        defer { server.stop() }
        server.route("GET", "/flaky", respondInTurn: [.status(503), .status(500), .text("ok")])
        var statuses: [Int] = []
        for _ in 0..<4 { statuses.append(try await HTTP.get(server.url("/flaky")).get().status) }
        #expect(statuses == [503, 500, 200, 200])
    }

    @Test func handlerComputesTheResponseFromTheRequest() async throws {
        defer { server.stop() }
        server.route("GET", "/echo") { request in
            .text(request.queryValue("say") ?? "nothing")
        }
        #expect(try await HTTP.get(server.url("/echo?say=hello%20there")).get().text == "hello there")
    }

    @Test func sendsHeadersAndStatus() async throws {
        defer { server.stop() }
        server.route("GET", "/limited", respond: .status(429, headers: ["Retry-After": "7"]))
        let reply = try await HTTP.get(server.url("/limited")).get()
        #expect(reply.status == 429)
        #expect(reply.headers["retry-after"] == "7")
    }

    @Test func servesAFileAndAnswers500WhenTheFileIsMissing() async throws {
        defer { server.stop() }
        let fixture = Fixtures.url("googlebooks/volumes_zero_results.json")
        server.route("GET", "/books", respond: .file(fixture))
        server.route("GET", "/missing", respond: .file(fixture.appendingPathExtension("absent")))
        let reply = try await HTTP.get(server.url("/books")).get()
        #expect(reply.body == (try Fixtures.data("googlebooks/volumes_zero_results.json")))
        #expect(reply.headers["content-type"] == "application/json")
        #expect(try await HTTP.get(server.url("/missing")).get().status == 500)
    }

    @Test func sendsABodySlowlyInPiecesAndItArrivesWhole() async throws {
        defer { server.stop() }
        let text = String(repeating: "abcdefghij", count: 20)
        server.route("GET", "/trickle", respond: .text(text).sentSlowly(chunkSize: 16, interval: .milliseconds(5)))
        #expect(try await HTTP.get(server.url("/trickle")).get().text == text)
    }

    @Test func sendsAChunkedEncodedBodySlowly() async throws {
        defer { server.stop() }
        let text = String(repeating: "0123456789", count: 10)
        server.route(
            "GET", "/chunked",
            respond: .text(text).chunkedEncoding().sentSlowly(chunkSize: 7, interval: .milliseconds(2)))
        let reply = try await HTTP.get(server.url("/chunked")).get()
        #expect(reply.text == text)
        #expect(reply.headers["transfer-encoding"]?.lowercased() == "chunked" || reply.headers["content-length"] == nil)
    }

    @Test func dropsTheConnectionMidBody() async throws {
        defer { server.stop() }
        server.route(
            "GET", "/drop", respond: .text(String(repeating: "x", count: 1000)).droppingConnection(afterBodyBytes: 10))
        let result = await HTTP.get(server.url("/drop"))
        #expect(throws: URLError.self) { try result.get() }
    }

    @Test func closesWithoutAnswering() async throws {
        defer { server.stop() }
        server.route("GET", "/silent", respond: .closeWithoutAnswer)
        let result = await HTTP.get(server.url("/silent"))
        #expect(throws: URLError.self) { try result.get() }
        #expect(server.requests(to: "/silent").count >= 1)
    }

    @Test func headRequestGetsHeadersWithoutBody() async throws {
        defer { server.stop() }
        server.route("HEAD", "/thing", respond: .text("body"))
        var request = URLRequest(url: server.url("/thing"))
        request.httpMethod = "HEAD"
        let reply = try await HTTP.send(request).get()
        #expect(reply.status == 200)
        #expect(reply.body.isEmpty)
    }

    @Test func countsRequestsInFlightAndRemembersTheMaximum() async throws {
        defer { server.stop() }
        let gate = DispatchSemaphore(value: 0)
        server.route("GET", "/gated") { _ in
            _ = gate.wait(timeout: Patience.hangDeadline)
            return .text("done")
        }
        let url = server.url("/gated")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { _ = try await HTTP.get(url).get() }
            }
            #expect(await server.waitForRequestsInFlight(count: 4))
            for _ in 0..<4 { gate.signal() }
            try await group.waitForAll()
        }
        #expect(server.maxRequestsInFlight >= 4)
        #expect(server.requestsInFlight == 0)
        server.resetRecording()
        #expect(server.maxRequestsInFlight == 0)
        #expect(server.receivedRequests.isEmpty)
    }
}
