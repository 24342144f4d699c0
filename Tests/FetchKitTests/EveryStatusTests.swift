import FetchKit
import FetchKitTesting
import Foundation
import Testing

/// `Extraction.acceptingEveryStatus()`: the answer the pipeline ends with reaches the strategy
/// whatever its status, after the pipeline's own renewals and retries; and `URLEndpoint` sends a
/// body to a URL as it is.
@Suite("Every status and plain URLs with bodies")
struct EveryStatusTests {
    let server = StubServer()

    init() throws {
        try server.start()
    }

    /// The status and the whole body of a response, whatever its status.
    static let statusAndBody = Extraction.custom { data, response in
        (response.statusCode, String(decoding: data, as: UTF8.self))
    }.acceptingEveryStatus()

    @Test func anErrorsWholeBodyReachesTheStrategy() async throws {
        defer { server.stop() }
        let long = String(repeating: "the reason, at length. ", count: 40)
        server.route("GET", "/missing", respond: .json(#"{"message":"\#(long)"}"#, status: 404))
        let client = FetchClient { $0.retryPolicy = .none }
        let (status, body) = try await client.fetch(.url(server.url("/missing")), extracting: Self.statusAndBody)
        #expect(status == 404)
        #expect(body == #"{"message":"\#(long)"}"#)

        // Without it, the same answer is an error with an excerpt.
        let error = await #expect(throws: FetchError.self) {
            try await client.fetch(.url(server.url("/missing")), extracting: .string)
        }
        #expect(error?.statusCode == 404)
    }

    @Test func aRetriedStatusIsRetriedAndTheLastAnswerHandedOver() async throws {
        defer { server.stop() }
        server.route(
            "GET", "/busy",
            respondInTurn: [.status(503, headers: ["Retry-After": "0"]), .text("ready")])
        server.route("GET", "/down", respond: .text("still down", status: 503))
        let client = FetchClient { $0.retryPolicy = RetryPolicy(maximumRetries: 2, baseDelay: .zero, jitter: 0) }
        #expect(try await client.fetch(.url(server.url("/busy")), extracting: Self.statusAndBody) == (200, "ready"))
        #expect(server.requests(to: "/busy").count == 2)
        #expect(
            try await client.fetch(.url(server.url("/down")), extracting: Self.statusAndBody) == (503, "still down"))
        #expect(server.requests(to: "/down").count == 3)
    }

    @Test func aRejectedTokenIsRenewedBeforeTheAnswerIsHandedOver() async throws {
        defer { server.stop() }
        server.route("GET", "/me") { request in
            request.header("Authorization") == "Bearer new-token" ? .text("ada") : .text("expired", status: 401)
        }
        let authenticator = TokenAuthenticator(token: "old-token") { "new-token" }
        let client = FetchClient { $0.authenticator = authenticator }
        #expect(try await client.fetch(.url(server.url("/me")), extracting: Self.statusAndBody) == (200, "ada"))
        #expect(authenticator.refreshCount == 1)
    }

    @Test func aRefusedStreamIsHandedOverWithItsBody() async throws {
        defer { server.stop() }
        server.route(
            "GET", "/feed",
            respond: .stream(status: 429, headers: ["Content-Type": "text/plain"]) { writer in
                _ = writer.write("slow down, ")
                _ = writer.write("please")
            })
        let client = FetchClient { $0.retryPolicy = .none }
        let stream = try await client.fetch(
            .url(server.url("/feed")), extracting: Extraction.stream.acceptingEveryStatus())
        #expect(stream.response.statusCode == 429)
        var text = ""
        for try await line in stream.lines { text += line }
        #expect(text == "slow down, please")
    }

    @Test func aHandedOverErrorIsNotStoredInTheCache() async throws {
        defer { server.stop() }
        server.route(
            "GET", "/gone",
            respond: StubResponse(
                status: 404, headers: ["Cache-Control": "max-age=600", "Content-Type": "text/plain"],
                body: .data(Data("gone".utf8))))
        let client = FetchClient {
            $0.retryPolicy = .none
            $0.cache = HTTPCache()
        }
        for _ in 0..<2 {
            #expect(try await client.fetch(.url(server.url("/gone")), extracting: Self.statusAndBody) == (404, "gone"))
        }
        #expect(server.requests(to: "/gone").count == 2)
    }

    @Test func aDownloadCannotTakeEveryStatusAndSharingKeepsTheStrategiesApart() async throws {
        defer { server.stop() }
        server.route("GET", "/missing", respond: .text("no such file", status: 404))
        let client = FetchClient { $0.retryPolicy = .none }
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("every-status-\(UUID()).txt")
        let refused = await #expect(throws: FetchError.self) {
            try await client.fetch(
                .url(server.url("/missing")), extracting: Extraction.file(to: destination).acceptingEveryStatus())
        }
        #expect(refused?.code == .invalidRequest)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(server.requests(to: "/missing").isEmpty)

        // The same key, one strategy taking every status and one not: each gets its own answer.
        async let handedOver = client.fetch(
            .url(server.url("/missing")), extracting: Self.statusAndBody, sharing: "missing")
        async let failed: FetchError? = {
            do {
                _ = try await client.fetch(.url(server.url("/missing")), extracting: .string, sharing: "missing")
                return nil
            } catch {
                return error as? FetchError
            }
        }()
        #expect(try await handedOver == (404, "no such file"))
        #expect(await failed?.statusCode == 404)
    }

    @Test func aPlainURLCarriesAMethodABodyAndItsEncodingAsItIs() async throws {
        defer { server.stop() }
        // The stub routes by the decoded path; the target it recorded shows what was sent.
        server.route("PUT", "/notes/a b/c") { request in
            .text("\(request.header("Content-Type") ?? "") \(request.bodyText ?? "")")
        }
        let client = FetchClient { $0.retryPolicy = .none }
        let url = URL(string: server.url("/notes/a%20b%2Fc").absoluteString + "?tag=x%26y")
        let echoed = try await client.fetch(
            .url(url, method: .put, body: .text("hello", contentType: "text/plain")), extracting: .string)
        #expect(echoed == "text/plain hello")
        #expect(server.requests(to: "/notes/a b/c").first?.target == "/notes/a%20b%2Fc?tag=x%26y")
    }
}
