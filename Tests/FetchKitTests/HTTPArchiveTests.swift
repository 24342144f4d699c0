import FetchKit
import FetchKitTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Recording a session's real exchanges to a HAR file and replaying them: `RecordingTransport`,
/// `HTTPArchive`, `ReplayTransport` and `StubServer.replay(_:)`.
@Suite struct HTTPArchiveTests {
    struct Token: Codable, Equatable { var access_token: String }
    struct Page: Codable, Equatable { var page: Int; var titles: [String] }

    static let password = "hunter2-horse-battery"
    static let token = "tok-7f3a9c2e55d1"
    static let apiKey = "KEY-19b7e4c0aa"

    /// A small API: a token for a password, a list that pages by polling, a note that echoes the token.
    static func serve() throws -> StubServer {
        let server = StubServer()
        server.route("POST", "/auth/token", respond: .json(#"{"access_token":"\#(token)","expires_in":3600}"#))
        server.route(
            "GET", "/v1/books", query: ["q": "cats"],
            respondInTurn: [
                .json(#"{"page":1,"titles":["Cat's Cradle"]}"#),
                .json(#"{"page":2,"titles":["The Cat Who Went to Paris"]}"#),
            ])
        server.route("GET", "/v1/whoami", respond: .json(#"{"page":0,"titles":["signed in with \#(token)"]}"#))
        try server.start()
        return server
    }

    /// Runs the session on `client`, against `base`, with `key` as its API key.
    static func session(_ client: FetchClient, base: URL, key: String) async throws -> (Token, [Page]) {
        let form = RequestBody.form([
            URLQueryItem(name: "username", value: "ada"), URLQueryItem(name: "password", value: password),
        ])
        let token = try await client.fetch(
            TestEndpoint(baseURL: base, path: "/auth/token", method: .post, body: form),
            extracting: .decode(Token.self))
        var pages: [Page] = []
        for _ in 0..<3 {
            let books = TestEndpoint(
                baseURL: base, path: "/v1/books",
                queryItems: [URLQueryItem(name: "q", value: "cats"), URLQueryItem(name: "api_key", value: key)],
                headers: ["Authorization": "Bearer \(token.access_token)"])
            pages.append(try await client.fetch(books, extracting: .decode(Page.self)))
        }
        let whoami = TestEndpoint(
            baseURL: base, path: "/v1/whoami", headers: ["Authorization": "Bearer \(token.access_token)"])
        pages.append(try await client.fetch(whoami, extracting: .decode(Page.self)))
        return (token, pages)
    }

    @Test func aSessionRecordedToAFileHasNoSecretsAndReplaysTheSame() async throws {
        let server = try Self.serve()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let file = directory.file("session.har")

        let recorder = RecordingTransport(wrapping: URLSessionTransport())
        let recorded = try await Self.session(
            FetchClient { $0.transport = recorder }, base: server.baseURL, key: Self.apiKey)
        try recorder.archive.write(to: file)

        let text = try String(contentsOf: file, encoding: .utf8)
        for secret in [Self.password, Self.token, Self.apiKey] {
            #expect(!text.contains(secret), "the recording holds \(secret)")
        }
        #expect(text.contains("REDACTED"))
        let archive = try HTTPArchive(contentsOf: file)
        #expect(archive.entries.map(\.method) == ["POST", "GET", "GET", "GET", "GET"])
        #expect(archive.entries[1].requestHeaders["Authorization"] == "REDACTED")
        #expect(archive.entries[1].url.hasSuffix("/v1/books?q=cats&api_key=REDACTED"))

        // Replayed in-process, with another key: the same answers in the same order, the last page repeating.
        let replay = FetchClient { $0.transport = ReplayTransport(archive) }
        let (token, pages) = try await Self.session(replay, base: server.baseURL, key: "another-key-0000")
        #expect(token.access_token == "REDACTED")
        #expect(pages.map(\.page) == recorded.1.map(\.page))
        #expect(pages.map(\.page) == [1, 2, 2, 0])
        #expect(recorded.0.access_token == Self.token)
    }

    @Test func aRequestTheRecordingDoesNotHaveFailsNamingTheNearestOne() async throws {
        let base = "https://api.example.com"
        let archive = HTTPArchive(entries: [
            .init(url: "\(base)/v1/books?q=cats&page=2", responseBody: Data("{}".utf8)),
            .init(url: "\(base)/v1/books?q=dogs&page=2", responseBody: Data("{}".utf8)),
            .init(method: "POST", url: "\(base)/v1/books?q=cats&page=3", status: 201),
            .init(url: "\(base)/v1/authors"),
        ])
        let client = FetchClient { $0.transport = ReplayTransport(archive) }
        let url = try #require(URL(string: "\(base)/v1/books?q=cats&page=3&api_key=secret-value-1"))
        let error = await #expect(throws: FetchError.self) { try await client.fetch(.url(url), extracting: .data) }
        #expect(error?.code == .transportFailed)
        let description = error?.description ?? ""
        #expect(
            description.contains("no exchange for GET https://api.example.com/v1/books?q=cats&page=3&api_key=REDACTED"))
        #expect(
            description.contains(
                "The nearest recorded one: GET \(base)/v1/books?q=cats&page=2 (entry 1 of 4, answered 200)"))
        #expect(!description.contains("secret-value-1"))
        #expect(!description.contains("URLError"))

        // The transport's own error says the same, typed.
        let answer = await withCheckedContinuation { continuation in
            _ = ReplayTransport(archive).send(URLRequest(url: url)) { continuation.resume(returning: $0) }
        }
        guard case .failure(let failure as HTTPArchiveError) = answer else {
            Issue.record("expected an HTTPArchiveError, got \(answer)")
            return
        }
        #expect(failure.kind == .noMatch)
        #expect(failure.nearest == "GET \(base)/v1/books?q=cats&page=2")
    }

    @Test func aStubServerReplaysARecordingThroughTheClientsOwnTransport() async throws {
        let server = try Self.serve()
        let recorder = RecordingTransport(wrapping: URLSessionTransport())
        _ = try await Self.session(FetchClient { $0.transport = recorder }, base: server.baseURL, key: Self.apiKey)
        server.stop()

        let replaying = StubServer()
        replaying.replay(try HTTPArchive(data: recorder.archive.data))
        try replaying.start()
        defer { replaying.stop() }
        let client = FetchClient { $0.transport = URLSessionTransport() }
        let (_, pages) = try await Self.session(client, base: replaying.baseURL, key: "another-key-0000")
        #expect(pages.map(\.page) == [1, 2, 2, 0])
        #expect(replaying.requests(to: "/v1/books").count == 3)

        let missing = TestEndpoint(baseURL: replaying.baseURL, path: "/v1/whoami/settings")
        let error = await #expect(throws: FetchError.self) { try await client.fetch(missing, extracting: .data) }
        #expect(error?.statusCode == 404)
        #expect(error?.bodyExcerpt?.contains("The nearest recorded one: GET") == true)
        #expect(error?.bodyExcerpt?.contains("/v1/whoami") == true)
    }

    @Test func aStreamIsRecordedAsItArrivesAndUpToWhereTheReaderStopped() async throws {
        let server = StubServer()
        server.route(
            "GET", "/events",
            respond: .stream(headers: ["Content-Type": "text/event-stream"]) { writer in
                for number in 1...3 { guard writer.write("id: \(number)\ndata: event \(number)\n\n") else { return } }
                // Then nothing more until the reader goes: an endless stream.
                while writer.write(":\n\n") { Thread.sleep(forTimeInterval: 0.05) }
            })
        try server.start()
        defer { server.stop() }
        let recorder = RecordingTransport(wrapping: URLSessionTransport())
        let client = FetchClient { $0.transport = recorder }
        var received: [String] = []
        for try await event in try await client.fetch(.url(server.url("/events")), extracting: .stream).events {
            received.append(event.data)
            if received.count == 3 { break }
        }
        #expect(received == ["event 1", "event 2", "event 3"])

        // The exchange is recorded once its relay has seen the reader stop.
        var archive = recorder.archive
        for _ in 0..<2_000 where archive.entries.isEmpty {
            try await Task.sleep(for: .milliseconds(5))
            archive = recorder.archive
        }
        let entry = try #require(archive.entries.first)
        let body = String(decoding: entry.responseBody ?? Data(), as: UTF8.self)
        #expect(body.hasPrefix("id: 1\ndata: event 1\n\nid: 2\ndata: event 2\n\nid: 3\ndata: event 3\n\n"))

        let replay = FetchClient { $0.transport = ReplayTransport(archive) }
        var replayed: [String] = []
        for try await event in try await replay.fetch(.url(server.url("/events")), extracting: .stream).events {
            replayed.append(event.data)
        }
        #expect(replayed == ["event 1", "event 2", "event 3"])
    }

    @Test func uploadsDownloadsAndANetworkFailureAreRecordedAndReplayed() async throws {
        let server = StubServer()
        server.route("PUT", "/files/cover.jpg", handler: { request in .json(#"{"bytes":\#(request.body.count)}"#) })
        let image = Data((0..<3_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        server.route("GET", "/files/cover.jpg", respond: .data(image, contentType: "image/jpeg"))
        server.route("GET", "/flaky", respond: .resetWithoutAnswer)
        try server.start()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let upload = directory.file("upload.bin")
        try Data(repeating: 0xAB, count: 5_000).write(to: upload)

        let recorder = RecordingTransport(wrapping: URLSessionTransport())
        func run(_ client: FetchClient, _ round: String) async throws -> (Data, Data, FetchError?) {
            let put = TestEndpoint(
                baseURL: server.baseURL, path: "/files/cover.jpg", method: .put, body: .file(upload))
            let sent = try await client.fetch(put, extracting: .data)
            let destination = directory.file("cover-\(round).jpg")
            let saved = try await client.fetch(.url(server.url("/files/cover.jpg")), extracting: .file(to: destination))
            let failure = await #expect(throws: FetchError.self) {
                try await client.fetch(.url(server.url("/flaky")), extracting: .data)
            }
            return (sent, try Data(contentsOf: saved), failure)
        }
        let live = try await run(
            FetchClient {
                $0.transport = recorder; $0.retryPolicy = .none
            }, "live")
        let archive = recorder.archive
        #expect(archive.entries.count == 3)
        #expect(archive.entries[0].requestBody == Data(repeating: 0xAB, count: 5_000))
        #expect(archive.entries[1].responseBody == image)
        #expect(archive.entries[2].failure != nil)

        // Through the file: the binary body goes as base64 and comes back the same.
        let file = directory.file("files.har")
        try archive.write(to: file)
        let reread = try HTTPArchive(contentsOf: file)
        let replay = try await run(
            FetchClient {
                $0.transport = ReplayTransport(reread); $0.retryPolicy = .none
            }, "replay")
        #expect(replay.0 == live.0)
        #expect(replay.1 == image)
        #expect(replay.2?.code == live.2?.code)
        #expect(replay.2?.code == .connectionLost)
    }

    @Test func replaysInParallelEachTransportKeepingItsOwnTurns() async throws {
        let url = "https://api.example.com/v1/poll"
        let archive = HTTPArchive(entries: (1...3).map { .init(url: url, responseBody: Data("\($0)".utf8)) })
        let runs = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<20 {
                group.addTask {
                    let client = FetchClient { $0.transport = ReplayTransport(archive) }
                    var answers: [String] = []
                    for _ in 0..<4 {
                        answers.append(try await client.fetch(.url(URL(string: url)), extracting: .string))
                    }
                    return answers
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(runs.count == 20)
        #expect(runs.allSatisfy { $0 == ["1", "2", "3", "3"] })
    }

    @Test func secretsInBodiesCookiesRedirectsAndPathsNeverReachTheArchive() async throws {
        let cookie = "sess-8d1f0a7c9b"
        let pin = "48151623"
        let pathToken = "bot-5c2e9a71d4"
        let server = StubServer()
        server.route(
            "POST", "/login",
            handler: { _ in
                StubResponse(
                    status: 201,
                    headers: [
                        "Set-Cookie": "session=\(cookie); Path=/; HttpOnly", "Location": "/home?access_token=\(cookie)",
                    ])
            })
        server.route("POST", "/pin", respond: .json(#"{"ok":true,"echo":"\#(pin)"}"#))
        server.route("GET", "/\(pathToken)/me", respond: .json(#"{"seen":"\#(cookie)"}"#))
        server.route("GET", "/avatar", respond: .data(Data([0xFF, 0xD8]) + Data(cookie.utf8) + Data([0x00, 0xFE])))
        try server.start()
        defer { server.stop() }

        let recorder = RecordingTransport(wrapping: URLSessionTransport(), secrets: [pathToken])
        let client = FetchClient { $0.transport = recorder }
        var form = MultipartFormData()
        form.append("ada", name: "username")
        form.append(Self.password, name: "password")
        _ = try? await client.fetch(
            TestEndpoint(baseURL: server.baseURL, path: "/login", method: .post, body: .multipart(form)),
            extracting: .data)
        _ = try await client.fetch(
            TestEndpoint(
                baseURL: server.baseURL, path: "/pin", method: .post,
                body: .text(#"{"secret_pin":\#(pin)}"#, contentType: "")),
            extracting: .data)
        _ = try await client.fetch(TestEndpoint(baseURL: server.baseURL, path: "/\(pathToken)/me"), extracting: .data)
        _ = try await client.fetch(TestEndpoint(baseURL: server.baseURL, path: "/avatar"), extracting: .data)

        let archive = recorder.archive
        #expect(archive.entries.count == 4)
        let text = String(decoding: archive.data, as: UTF8.self)
        for secret in [Self.password, cookie, pin, pathToken] {
            #expect(!text.contains(secret), "the recording holds \(secret)")
        }
        let binary = try #require(archive.entries.last?.responseBody)
        #expect(binary.range(of: Data(cookie.utf8)) == nil)
        #expect(binary.prefix(2) == Data([0xFF, 0xD8]))
    }

    @Test func aBodyTheRecorderDidNotKeepFailsItsReplayAfterTheFileRoundTrip() async throws {
        let server = StubServer()
        server.route("GET", "/big", respond: .data(Data(repeating: 7, count: 2_000)))
        server.route("GET", "/small", respond: .text("ok"))
        try server.start()
        defer { server.stop() }
        let recorder = RecordingTransport(wrapping: URLSessionTransport(), maximumBodySize: 1_000)
        let client = FetchClient { $0.transport = recorder }
        _ = try await client.fetch(.url(server.url("/big")), extracting: .data)
        _ = try await client.fetch(.url(server.url("/small")), extracting: .data)

        let archive = try HTTPArchive(data: recorder.archive.data)
        #expect(archive.entries.map(\.responseBody) == [nil, Data("ok".utf8)])
        let replay = FetchClient { $0.transport = ReplayTransport(archive) }
        let error = await #expect(throws: FetchError.self) {
            try await replay.fetch(.url(server.url("/big")), extracting: .data)
        }
        #expect(error?.description.contains("has no response body") == true)
        #expect(try await replay.fetch(.url(server.url("/small")), extracting: .string) == "ok")
    }

    @Test func aStreamCutOffByTheNetworkIsRecordedAsTheFailure() async throws {
        let server = StubServer()
        server.route(
            "GET", "/feed",
            respond: StubResponse.data(Data(repeating: 0x61, count: 4_000), contentType: "text/plain")
                .droppingConnection(afterBodyBytes: 1_000))
        try server.start()
        defer { server.stop() }
        let recorder = RecordingTransport(wrapping: URLSessionTransport())
        let client = FetchClient {
            $0.transport = recorder; $0.retryPolicy = .none
        }
        let stream = try await client.fetch(.url(server.url("/feed")), extracting: .stream)
        await #expect(throws: FetchError.self) { for try await _ in stream.bytes {} }
        var archive = recorder.archive
        for _ in 0..<2_000 where archive.entries.isEmpty {
            try await Task.sleep(for: .milliseconds(5))
            archive = recorder.archive
        }
        let entry = try #require(archive.entries.first)
        #expect(entry.failure == .networkConnectionLost)
        #expect(entry.status == 0)
    }

    @Test func readsABrowsersHARAndNamesTheFieldOfOneThatIsNot() throws {
        let exported = #"""
            {"log":{"version":"1.2","creator":{"name":"WebInspector","version":"537.36"},"pages":[],
            "entries":[{"_initiator":{"type":"script"},"startedDateTime":"2026-11-27T10:00:00.123Z","time":41.5,
            "request":{"method":"GET","url":"https://api.example.com/logo.png","httpVersion":"h2",
            "headers":[{"name":":authority","value":"api.example.com"},{"name":"accept","value":"image/*"}],
            "queryString":[],"cookies":[],"headersSize":-1,"bodySize":0},
            "response":{"status":200,"statusText":"","httpVersion":"h2",
            "headers":[{"name":"content-type","value":"image/png"}],"cookies":[],
            "content":{"size":4,"mimeType":"image/png","text":"iVBORw==","encoding":"base64"},
            "redirectURL":"","headersSize":-1,"bodySize":4,"_transferSize":120},
            "cache":{},"timings":{"blocked":1,"send":0.1,"wait":40,"receive":0.4}}]}}
            """#
        let archive = try HTTPArchive(data: Data(exported.utf8))
        let entry = try #require(archive.entries.first)
        #expect(entry.responseBody == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(entry.requestHeaders == ["accept": "image/*"])
        #expect(entry.duration == .milliseconds(41.5))

        let broken = Data(
            #"{"log":{"entries":[{"request":{"url":"https://x.test/"},"response":{"status":200}}]}}"#.utf8)
        let error = #expect(throws: HTTPArchiveError.self) { try HTTPArchive(data: broken, source: "broken.har") }
        #expect(error?.kind == .unreadable)
        #expect(error?.description == #"broken.har is not a HAR file: log.entries[0].request has no "method"."#)
    }
}
