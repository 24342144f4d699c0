#if canImport(FoundationNetworking)
    import FetchKit
    import FetchKitTesting
    import Foundation
    import TestSupport
    import Testing

    /// A server that closes a kept-alive connection after a request arrived and before it
    /// answered (it applied the request and went away, or timed the idle connection out as the
    /// request came).
    ///
    /// URLSession on Linux (libcurl 7.88) then sends the request again on a fresh connection, head
    /// without body, and waits for an answer until the timeout: without the transport's guard
    /// each test here waits the client's whole timeout (`Patience.hang`). Linux only: the guard
    /// and the fault are FoundationNetworking's.
    @Suite("A connection that closes after the request and before the answer")
    struct LostAnswerTests {
        let server = StubServer()

        /// How the server ends the connection: in order (`FIN`) or with a reset (`RST`).
        enum Ending: String, CaseIterable, Sendable {
            case close, reset
            var response: StubResponse { self == .close ? .closeWithoutAnswer : .resetWithoutAnswer }
        }

        /// Routes `method` `path`: answered with `answer`, except the first request that arrives
        /// on a connection that carried one before, which is read and then ended as `ending` says.
        func route(_ method: HTTPMethod, _ path: String, _ ending: Ending, answer: StubResponse) -> ReusedConnectionFault {
            let fault = ReusedConnectionFault(ending.response)
            server.route(method.rawValue, path, handler: fault.handler(answering: answer))
            return fault
        }

        /// A client that never times out within a test: a lost answer has to end without it.
        func client(_ retryPolicy: RetryPolicy = .none) -> FetchClient {
            FetchClient {
                $0.retryPolicy = retryPolicy
                $0.timeout = Patience.hang
                $0.maximumConnectionsPerHost = 1
            }
        }

        /// Sends `endpoint` one request after the other until `fault` failed one, at most 20
        /// times. Returns how many were sent and the error of the lost one.
        func sendUntilOneIsLost(
            _ client: FetchClient, _ endpoint: TestEndpoint, _ fault: ReusedConnectionFault
        ) async -> (sent: Int, error: FetchError?) {
            var sent = 0
            while fault.connection == nil, sent < 20 {
                sent += 1
                do throws(FetchError) {
                    _ = try await client.fetch(endpoint, extracting: .data)
                } catch {
                    return (sent, error)
                }
            }
            return (sent, nil)
        }

        @Test(arguments: [HTTPMethod.post, .patch], Ending.allCases)
        func aRequestTheServerMayHaveAppliedFailsAtOnceAndIsNotSentAgain(method: HTTPMethod, ending: Ending) async throws {
            let fault = route(method, "/orders", ending, answer: .text("stored"))
            try server.start()
            defer { server.stop() }
            let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/orders", method: method, body: .text("1 book"))
            let (sent, error) = await sendUntilOneIsLost(client(), endpoint, fault)
            try #require(fault.connection != nil, "no request was sent on a reused connection")
            #expect(error?.code == .connectionLost, "\(String(describing: error))")
            #expect(error?.description.contains("may have received it") == true, "\(String(describing: error))")
            // Each request reached the server whole once: the lost one was not sent whole again.
            let whole = server.requests(to: "/orders").filter { $0.body == Data("1 book".utf8) }
            #expect(whole.count == sent)
        }

        @Test(arguments: Ending.allCases)
        func anIdempotentRequestIsRetriedByThePolicyWithItsBody(ending: Ending) async throws {
            let fault = route(.put, "/shelf/1", ending, answer: .text("stored"))
            try server.start()
            defer { server.stop() }
            let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/shelf/1", method: .put, body: .text("Dune"))
            let (sent, error) = await sendUntilOneIsLost(
                client(RetryPolicy(maximumRetries: 1, baseDelay: .milliseconds(1))), endpoint, fault)
            try #require(fault.connection != nil, "no request was sent on a reused connection")
            #expect(error == nil, "\(String(describing: error))")
            // The lost one was sent once more, whole, by the retry policy.
            let whole = server.requests(to: "/shelf/1").filter { $0.body == Data("Dune".utf8) }
            #expect(whole.count == sent + 1)
        }

        @Test(arguments: Ending.allCases)
        func anUploadFromAFileFailsAtOnceAndIsNotSentAgain(ending: Ending) async throws {
            let folder = try TemporaryDirectory(prefix: "LostAnswerTests")
            defer { folder.remove() }
            let file = folder.file("photo.jpg")
            let bytes = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0) })
            try bytes.write(to: file)
            let fault = route(.post, "/upload", ending, answer: .text("stored"))
            try server.start()
            defer { server.stop() }
            let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/upload", method: .post, body: .file(file))
            let (sent, error) = await sendUntilOneIsLost(client(), endpoint, fault)
            try #require(fault.connection != nil, "no request was sent on a reused connection")
            #expect(error?.code == .connectionLost, "\(String(describing: error))")
            #expect(server.requests(to: "/upload").filter { $0.bodyLength == bytes.count }.count == sent)
        }

        @Test func aPostRedirectedWithSeeOtherIsFollowedWithAGet() async throws {
            server.route("POST", "/orders", respond: .status(303, headers: ["Location": "/orders/7"]))
            server.route("GET", "/orders/7", respond: .text("order 7"))
            try server.start()
            defer { server.stop() }
            let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/orders", method: .post, body: .text("1 book"))
            #expect(try await client().fetch(endpoint, extracting: .string) == "order 7")
            let followed = try #require(server.requests(to: "/orders/7").first)
            #expect(followed.method == "GET")
            #expect(followed.bodyLength == 0)
            #expect(followed.header("Content-Length") == nil || followed.header("Content-Length") == "0")
        }
    }
#endif
