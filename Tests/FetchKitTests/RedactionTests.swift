import FetchKitTesting
import Foundation
import Locking
import TestSupport
import Testing

@testable import FetchKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Secret redaction")
struct RedactionTests {
    static let secret = "sk_live_5ecr3tValue42"

    @Test(
        "Secret-looking names are recognised",
        arguments: [
            "api_key", "API_KEY", "key", "apikey", "x-api-key", "client_secret", "access_token", "Authorization",
            "password", "refresh-token", "auth", "signature", "private_key", "proxy-authorization", "cookie",
            "set-cookie", "x-auth-token", "token", "secret", "sig", "X-Amz-Signature", "X-Amz-Credential",
            "X-Goog-Signature", "AWSAccessKeyId", "X-Amz-Security-Token",
        ])
    func secretNames(name: String) {
        #expect(Redactor.standard.isSecret(name))
    }

    @Test("Ordinary names are kept", arguments: ["query", "page", "author", "keyword", "title", "language", "monkey"])
    func ordinaryNames(name: String) {
        #expect(!Redactor.standard.isSecret(name))
    }

    @Test func describesURLsWithSecretValuesRedacted() throws {
        let url = try #require(
            URL(string: "https://user:pw@api.example.com/3/movie?api_key=abc&query=a%26b&Token=t#frag"))
        let text = Redactor.standard.describe(url)
        #expect(text == "https://user:REDACTED@api.example.com/3/movie?api_key=REDACTED&query=a%26b&Token=REDACTED")
        let extra = Redactor(additionalNames: ["sig2"])
        #expect(extra.describe(try #require(URL(string: "https://h/x?sig2=zz"))) == "https://h/x?sig2=REDACTED")
    }

    @Test func aKeyNeverAppearsInAnyErrorDescriptionOrObserverEvent() async throws {
        let server = StubServer()
        server.route("GET", "/echo-key") { request in
            .text(
                "invalid key \(request.queryValue("api_key") ?? "") for \(request.header("Authorization") ?? "")",
                status: 401)
        }
        server.route("GET", "/api-fail") { request in
            .json(#"{"stat":"fail","code":100,"message":"Invalid API Key (\#(request.queryValue("api_key") ?? ""))"}"#)
        }
        server.route("GET", "/slow", respond: .text("x").delayed(by: Patience.beyondTheTest))
        server.route("GET", "/silent", respond: .closeWithoutAnswer)
        server.route("GET", "/bad-json", respond: .json("{not json"))
        server.route("GET", "/unavailable", respond: .status(503, headers: ["Retry-After": "0"]))
        try server.start()
        defer { server.stop() }

        let observer = RecordingObserver()
        let lines = Locked<[String]>([])
        let client = FetchClient {
            $0.timeout = .milliseconds(250)
            $0.retryPolicy = RetryPolicy(maximumRetries: 1, baseDelay: .milliseconds(1))
            $0.adapters = [
                APIKeyAdapter(.query(name: "api_key"), value: Self.secret), HeaderAdapter.bearer(token: Self.secret),
            ]
            $0.observers = [observer, FetchLogger { line in lines.withLock { $0.append(line) } }]
            $0.apiFailureDetector = APIFailure.jsonField("stat", equals: "fail", code: "code", message: "message")
        }
        var descriptions: [String] = []
        for path in ["/echo-key", "/api-fail", "/slow", "/silent", "/bad-json", "/unavailable"] {
            let result = await completion { done in
                client.fetch(.url(server.url(path)), extracting: .decode(Movie.self), completion: done)
            }
            guard case .failure(let error) = result else {
                Issue.record("expected \(path) to fail")
                continue
            }
            descriptions.append(error.description)
            descriptions.append(String(reflecting: error))
            descriptions.append(
                "\(error.bodyExcerpt ?? "") \(error.reportedFailure?.message ?? "") \(error.request ?? "")")
        }
        let cancelled = await completion { done in
            let task = client.fetch(.url(server.url("/slow")), extracting: .data, completion: done)
            task.cancel()
        }
        if case .failure(let error) = cancelled { descriptions.append(error.description) }

        #expect(descriptions.count >= 19)
        #expect(descriptions.contains { $0.contains("api_key=REDACTED") })
        for text in descriptions + lines.current {
            #expect(!text.contains(Self.secret), "leaked in: \(text)")
        }
        for summary in observer.started.current + observer.finished.current.map(\.0) {
            #expect(!summary.description.contains(Self.secret))
            #expect(summary.headers["Authorization"] == "REDACTED")
        }
        for retry in observer.retries.current {
            #expect(!retry.error.description.contains(Self.secret))
        }
        // The key did reach the server.
        #expect(server.receivedRequests.allSatisfy { $0.queryValue("api_key") == Self.secret })
        #expect(server.receivedRequests.allSatisfy { $0.header("Authorization") == "Bearer \(Self.secret)" })
    }

    @Test func adaptersDescribeThemselvesWithoutTheirSecrets() {
        let adapters: [any RequestAdapter] = [
            APIKeyAdapter(.query(name: "api_key"), value: Self.secret),
            APIKeyAdapter(.header(name: "X-Api-Key"), value: Self.secret),
            HeaderAdapter.bearer(token: Self.secret),
            HeaderAdapter(["X-Auth-Token": Self.secret, "Accept": "application/json"]),
        ]
        for adapter in adapters {
            var dumped = ""
            dump(adapter, to: &dumped)
            #expect(!"\(adapter)".contains(Self.secret))
            #expect(!String(reflecting: adapter).contains(Self.secret), "\(String(reflecting: adapter))")
            #expect(!dumped.contains(Self.secret), "\(dumped)")
        }
    }

    /// A key under a name no rule calls secret (TMDB's `session_id`) is redacted all the same:
    /// the adapter's own name joins the client's secret names.
    @Test func aKeyUnderAnyNameIsRedactedFromWhatTheClientDescribes() async throws {
        let server = StubServer()
        // Closed before the request: the error names the URL, with the query.
        try server.start()
        let closed = server.baseURL
        server.stop()
        let observer = RecordingObserver()
        let client = FetchClient { configuration in
            configuration.adapters = [
                APIKeyAdapter(.query(name: "session_id"), value: Self.secret),
                APIKeyAdapter(.header(name: "X-Session"), value: Self.secret),
            ]
            configuration.observers = [observer]
            configuration.retryPolicy = .none
        }
        let error = await #expect(throws: FetchError.self) {
            _ = try await client.fetch(.url(closed.appendingPathComponent("account")), extracting: .data)
        }
        let description = try #require(error).description
        #expect(description.contains("session_id=REDACTED"), "\(description)")
        #expect(!description.contains(Self.secret), "\(description)")
        let summaries = observer.finished.withLock { $0.map(\.0) }
        #expect(!summaries.isEmpty)
        for summary in summaries {
            #expect(!summary.url.contains(Self.secret), "\(summary.url)")
            #expect(!summary.headers.values.contains(Self.secret), "\(summary.headers)")
        }
        let prepared = try client.prepare(.url(closed.appendingPathComponent("account")))
        #expect(!prepared.description.contains(Self.secret), "\(prepared)")
    }

    @Test func aFailedDownloadKeepsNoSecretInItsErrorOrItsDump() async throws {
        let server = StubServer()
        server.route("GET", "/file", respond: .text("no such file, key \(Self.secret)", status: 404))
        server.route(
            "GET", "/drop",
            respond: StubResponse.text(String(repeating: "x", count: 400)).droppingConnection(afterBodyBytes: 10))
        try server.start()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let client = FetchClient {
            $0.retryPolicy = .none
            $0.adapters = [APIKeyAdapter(.query(name: "api_key"), value: Self.secret)]
        }
        for path in ["/file", "/drop"] {
            let error = await #expect(throws: FetchError.self) {
                try await client.fetch(.url(server.url(path)), extracting: .file(to: directory.file("out")))
            }
            let failure = try #require(error)
            var dumped = ""
            dump(failure, to: &dumped)
            #expect(!"\(failure)".contains(Self.secret), "\(failure)")
            #expect(!String(reflecting: failure).contains(Self.secret))
            #expect(!dumped.contains(Self.secret), "\(dumped)")
            #expect("\(failure)".contains("api_key=REDACTED"), "\(failure)")
        }
        // The server did receive the key: the download went through the client's adapters.
        #expect(server.receivedRequests.allSatisfy { $0.queryValue("api_key") == Self.secret })
    }
}
