import FetchKit
import FetchKitTesting
import Foundation
import TestSupport
import Testing

@Suite("Error paths")
struct FetchErrorPathTests {
    let server = StubServer()
    let client = FetchClient {
        $0.retryPolicy = .none
        $0.timeout = Patience.hang
    }
    /// A client whose short timeout the timeout tests use (only they: on a loaded machine a
    /// short timeout could end any request).
    let impatient = FetchClient {
        $0.retryPolicy = .none
        $0.timeout = .milliseconds(300)
    }

    init() throws {
        server.route("GET", "/ok", respond: .json(#"{"id":1,"title":"t","popularity":1}"#))
        server.route(
            "GET", "/missing",
            respond: .json(
                #"{"status_code":34,"status_message":"The resource you requested could not be found."}"#, status: 404))
        server.route("GET", "/teapot", respond: .text(String(repeating: "long body ", count: 100), status: 418))
        server.route("GET", "/created", respond: .text("made", status: 201))
        server.route("GET", "/slow", respond: .text("late").delayed(by: Patience.beyondTheTest))
        server.route(
            "GET", "/drop", respond: .text(String(repeating: "x", count: 5000)).droppingConnection(afterBodyBytes: 100))
        server.route("GET", "/silent", respond: .closeWithoutAnswer)
        try server.start()
    }

    private func failure<Value: Sendable>(
        _ url: URL?, _ extraction: Extraction<Value>, client: FetchClient? = nil
    ) async
        -> FetchError?
    {
        let client = client ?? self.client
        let result = await completion { done in client.fetch(.url(url), extracting: extraction, completion: done) }
        guard case .failure(let error) = result else { return nil }
        return error
    }

    @Test func aNilURLIsAnInvalidURLErrorDeliveredToTheCompletion() async throws {
        defer { server.stop() }
        let error = try #require(await failure(nil, .data))
        #expect(error.code == .invalidURL)
        #expect(error.description.contains("nil"))
    }

    @Test(
        "A URL that is not http(s) with a host is an invalid URL",
        arguments: ["ftp://example.com/x", "mailto:a@b.c", "/relative/path"])
    func unsupportedURLIsInvalid(text: String) async throws {
        defer { server.stop() }
        let error = try #require(await failure(URL(string: text), .data))
        #expect(error.code == .invalidURL)
    }

    @Test func aRefusedConnectionIsATransportFailureWithItsURLErrorCode() async throws {
        server.stop()
        // Port 1 on loopback: nothing listens there. (The stopped server's port is no good:
        // another test's server, started meanwhile, may be given it.)
        let url = URL(string: "http://127.0.0.1:1/ok")
        let error = try #require(await failure(url, .data))
        #expect(error.code == .transportFailed)
        #expect(error.urlErrorCode == .cannotConnectToHost)
        #expect(error.description.contains("cannotConnectToHost"))
    }

    @Test func aConnectionDroppedMidBodyIsALostConnection() async throws {
        defer { server.stop() }
        let error = try #require(await failure(server.url("/drop"), .data))
        #expect(error.code == .connectionLost)
        #expect(error.urlErrorCode != nil)
        #expect(error.description.contains("lost its connection before the response was complete"))
    }

    @Test func aConnectionClosedWithoutAnswerIsALostConnection() async throws {
        defer { server.stop() }
        let error = try #require(await failure(server.url("/silent"), .data))
        #expect(error.code == .connectionLost)
        #expect(error.description.contains("closed the connection without answering"))
    }

    @Test(arguments: [
        (
            "a body shorter than its Content-Length", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789",
            FetchError.Code.connectionLost
        ),
        ("a garbage status line", "HTTQ/9 nonsense\r\n\r\n", .badResponse),
        ("broken chunked encoding", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n", .badResponse),
        (
            "a body that is not the gzip it claims",
            "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 10\r\n\r\n0123456789", .badResponse
        ),
    ])
    func aBrokenAnswerHasAKindAPersonUnderstands(what: String, raw: String, code: FetchError.Code) async throws {
        defer { server.stop() }
        server.route("GET", "/broken", respond: .raw(Data(raw.utf8)))
        let error = try #require(await failure(server.url("/broken"), .data), "\(what)")
        #expect(error.code == code, "\(what): \(error)")
        #expect(!error.description.contains("URLError"), "\(what): \(error)")
    }

    @Test func aSlowServerTimesOutWithTheTimeoutNamed() async throws {
        defer { server.stop() }
        let clock = TestClock()
        let client = FetchClient {
            $0.retryPolicy = .none
            // An hour on the test clock: URLSession's own backstop (the timeout plus a margin, in
            // real time) must not end the request while a busy machine holds this test up.
            $0.timeout = .seconds(3600)
            $0.clock = clock
        }
        let fetch = Task { () async -> FetchError? in
            do throws(FetchError) {
                _ = try await client.fetch(.url(server.url("/slow")), extracting: .data)
                return nil
            } catch {
                return error
            }
        }
        #expect(await server.waitForRequests(count: 1))
        #expect(await clock.sleepers(count: 1))
        await clock.advance(by: .seconds(3599))
        #expect(server.requestsInFlight == 1)
        await clock.advance(by: .seconds(1))
        let error = try #require(await fetch.value)
        #expect(error.code == .timedOut)
        #expect(error.timeout == .seconds(3600))
        #expect(error.description.contains("timed out after 3600 s"), "\(error)")
    }

    @Test func anEndpointTimeoutOverridesTheClients() async throws {
        defer { server.stop() }
        let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/slow", timeout: .milliseconds(150))
        let result = await completion { done in client.fetch(endpoint, extracting: .data, completion: done) }
        guard case .failure(let error) = result else { throw Failure("expected a failure") }
        #expect(error.timeout == .milliseconds(150))
    }

    @Test func anErrorStatusCarriesTheStatusAndABodyExcerpt() async throws {
        defer { server.stop() }
        let error = try #require(await failure(server.url("/missing"), .decode(Movie.self)))
        #expect(error.code == .unacceptableStatus)
        #expect(error.statusCode == 404)
        #expect(error.bodyExcerpt?.contains("could not be found") == true)
        #expect(error.description.contains("HTTP 404"))
    }

    @Test func aLongErrorBodyIsCutToAShortExcerpt() async throws {
        defer { server.stop() }
        let error = try #require(await failure(server.url("/teapot"), .data))
        #expect(error.statusCode == 418)
        #expect((error.bodyExcerpt?.count ?? 0) <= 201)
        #expect(error.bodyExcerpt?.hasSuffix("…") == true)
    }

    @Test func acceptableStatusCodesAreConfigurable() async throws {
        defer { server.stop() }
        let strict = FetchClient {
            $0.retryPolicy = .none
            $0.acceptableStatusCodes = [200]
        }
        let error = try #require(await failure(server.url("/created"), .string, client: strict))
        #expect(error.statusCode == 201)
        let lenient = FetchClient { $0.acceptableStatusCodes = Set(200..<300).union([404]) }
        #expect(try await lenient.fetch(.url(server.url("/missing")), extracting: .string).contains("status_code"))
    }

    @Test func anAPIFailureInsideA200IsReported() async throws {
        defer { server.stop() }
        server.route(
            "GET", "/flickr", respond: .file(Fixtures.url("flickr/error_stat_fail_code_100_invalid_api_key.json")))
        let flickr = FetchClient {
            $0.apiFailureDetector = APIFailure.jsonField("stat", equals: "fail", code: "code", message: "message")
        }
        let error = try #require(await failure(server.url("/flickr"), .data, client: flickr))
        #expect(error.code == .apiFailure)
        #expect(error.statusCode == 200)
        #expect(error.reportedFailure?.code == "100")
        #expect(error.reportedFailure?.message.contains("Invalid API Key") == true)
        #expect(try await flickr.fetch(.url(server.url("/ok")), extracting: .data).count > 0)
    }

    @Test func errorsMatchTheirCodeInCatchClauses() async throws {
        defer { server.stop() }
        let result = await completion { done in
            client.fetch(.url(server.url("/missing")), extracting: .data, completion: done)
        }
        guard case .failure(let error) = result else { throw Failure("expected a failure") }
        #expect(Self.matchTyped(error) == "unacceptableStatus")
        #expect(Self.matchUntyped(error) == "unacceptableStatus")
        let untyped: any Error = error
        #expect(FetchError.Code.unacceptableStatus ~= untyped)
        #expect(!(FetchError.Code.timedOut ~= untyped))
        #expect(!(FetchError.Code.cancelled ~= CancellationError()))
        switch error.code {
        case .unacceptableStatus: break
        default: Issue.record("switch on code did not match")
        }
    }

    private static func matchTyped(_ error: FetchError) -> String {
        func fail() throws(FetchError) { throw error }
        do {
            try fail()
            return "none"
        } catch FetchError.Code.timedOut {
            return "timedOut"
        } catch FetchError.Code.unacceptableStatus {
            return "unacceptableStatus"
        } catch {
            return "other"
        }
    }

    private static func matchUntyped(_ error: FetchError) -> String {
        func fail() throws { throw error }
        do {
            try fail()
            return "none"
        } catch FetchError.Code.timedOut {
            return "timedOut"
        } catch FetchError.Code.unacceptableStatus {
            return "unacceptableStatus"
        } catch {
            return "other"
        }
    }

    @Test func everyErrorDescriptionIsOneActionableLine() async throws {
        defer { server.stop() }
        let paths = ["/missing", "/slow", "/silent", "/drop"]
        for path in paths {
            let error = try #require(await failure(server.url(path), .decode(Movie.self), client: impatient))
            #expect(!error.description.contains("\n"))
            #expect(error.description.contains("GET http://127.0.0.1"))
            #expect(error.request?.hasPrefix("GET ") == true)
        }
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
