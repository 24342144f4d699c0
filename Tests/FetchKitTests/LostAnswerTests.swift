import FetchKit
import FetchKitTesting
import Foundation
import TestSupport
import Testing

/// A server that closes a kept-alive connection after a request arrived and before it answered
/// (it applied the request and went away, or timed the idle connection out as the request came).
///
/// URLSession on Linux then sends the request again on a fresh connection, head without body,
/// and waits for an answer until the timeout: without the transport's guard each test here
/// waits the client's whole timeout (`Patience.hang`) and fails with `timedOut`.
@Suite("A connection that closes after the request and before the answer")
struct LostAnswerTests {
    let server = StubServer()

    init() {
        server.route("POST", "/warm", respond: .text("warm"))
    }

    /// A client that never times out within a test: a lost answer has to end without it.
    func client(_ retryPolicy: RetryPolicy = .none) -> FetchClient {
        FetchClient {
            $0.retryPolicy = retryPolicy
            $0.timeout = Patience.hang
            $0.maximumConnectionsPerHost = 1
        }
    }

    /// Sends a first request with a body, whose connection stays open for the next one to reuse.
    func warm(_ client: FetchClient) async throws {
        let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/warm", method: .post, body: .text("hello"))
        #expect(try await client.fetch(endpoint, extracting: .string) == "warm")
    }

    /// Whether the request to `path` went on the connection the first request opened: the
    /// case these tests are about.
    func reused(_ path: String) -> Bool {
        let first = server.requests(to: "/warm").first?.connectionID
        return first != nil && server.requests(to: path).first?.connectionID == first
    }

    /// How the server ends the connection: in order (`FIN`) or with a reset (`RST`).
    enum Ending: String, CaseIterable, Sendable {
        case close, reset
        var response: StubResponse { self == .close ? .closeWithoutAnswer : .resetWithoutAnswer }
    }

    @Test(arguments: [HTTPMethod.post, .patch], Ending.allCases)
    func aRequestTheServerMayHaveAppliedFailsAtOnceAndIsNotSentAgain(method: HTTPMethod, ending: Ending) async throws {
        server.route(method.rawValue, "/orders", respond: ending.response)
        try server.start()
        defer { server.stop() }
        let client = client()
        try await warm(client)
        let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/orders", method: method, body: .text("1 book"))
        let error = await #expect(throws: FetchError.self) { try await client.fetch(endpoint, extracting: .data) }
        #expect(error?.code == .connectionLost, "\(String(describing: error))")
        #expect(error?.description.contains("may have received it") == true, "\(String(describing: error))")
        // The server read the whole request once; whatever reached it after that is not a
        // request with its body.
        let whole = server.requests(to: "/orders").filter { $0.body == Data("1 book".utf8) }
        #expect(whole.count == 1)
        #expect(reused("/orders"))
    }

    @Test(arguments: Ending.allCases)
    func anIdempotentRequestIsRetriedByThePolicyWithItsBody(ending: Ending) async throws {
        server.route("PUT", "/shelf/1", respondInTurn: [ending.response, .text("stored")])
        try server.start()
        defer { server.stop() }
        let client = client(RetryPolicy(maximumRetries: 1, baseDelay: .milliseconds(1)))
        try await warm(client)
        let endpoint = TestEndpoint(
            baseURL: server.baseURL, path: "/shelf/1", method: .put, body: .text("Dune"))
        #expect(try await client.fetch(endpoint, extracting: .string) == "stored")
        let whole = server.requests(to: "/shelf/1").filter { $0.body == Data("Dune".utf8) }
        #expect(whole.count == 2)
        #expect(reused("/shelf/1"))
    }

    @Test(arguments: Ending.allCases)
    func anUploadFromAFileFailsAtOnceAndIsNotSentAgain(ending: Ending) async throws {
        let folder = try TemporaryDirectory(prefix: "LostAnswerTests")
        defer { folder.remove() }
        let file = folder.file("photo.jpg")
        let bytes = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0) })
        try bytes.write(to: file)
        server.route("POST", "/upload", respond: ending.response)
        try server.start()
        defer { server.stop() }
        let client = client()
        try await warm(client)
        let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/upload", method: .post, body: .file(file))
        let error = await #expect(throws: FetchError.self) { try await client.fetch(endpoint, extracting: .data) }
        #expect(error?.code == .connectionLost, "\(String(describing: error))")
        let received = server.requests(to: "/upload")
        #expect(received.filter { $0.bodyLength == bytes.count }.count == 1)
        #expect(reused("/upload"))
    }
}
