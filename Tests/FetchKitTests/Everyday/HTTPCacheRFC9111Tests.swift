import FetchKit
import FetchKitTesting
import Foundation
import Locking
import Testing

/// The HTTP cache's rules, each from RFC 9111 (and RFC 5861, RFC 8246, the Fetch standard's
/// cache modes), against the stub server. A response is made stale without waiting by an
/// `Age` header older than its `max-age`.
@Suite struct HTTPCacheRFC9111Tests {
    typealias Fixture = HTTPCacheTests.Fixture

    static func fixture(
        cache: HTTPCache = HTTPCache(), acceptingEverything: Bool = false
    ) throws -> Fixture {
        try Fixture(cache: cache) { configuration in
            configuration.retryPolicy = .none
            if acceptingEverything { configuration.acceptableStatusCodes = Set(200..<600) }
        }
    }

    /// A fetch's status, headers and body.
    struct Answer: Sendable {
        var status: Int
        var headers: [String: String]
        var body: String
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    static func answer(
        _ fixture: Fixture, _ path: String, headers: [String: String] = [:], policy: CachePolicy = .useProtocol
    ) async throws -> Answer {
        var endpoint = TestEndpoint(baseURL: fixture.server.baseURL, path: path)
        endpoint.headers = headers
        endpoint.cachePolicy = policy
        return try await fixture.client.fetch(
            endpoint,
            extracting: .custom { data, response in
                var fields: [String: String] = [:]
                for (name, value) in response.allHeaderFields {
                    if let name = name as? String, let value = value as? String { fields[name] = value }
                }
                return Answer(status: response.statusCode, headers: fields, body: String(decoding: data, as: UTF8.self))
            })
    }

    // MARK: Freshness (§4.2)

    @Test(arguments: [
        "Thu, 18 Aug 2050 02:01:18 UTC", "Thu, 18 Aug 2050 02:01:18 AEST", "Thu, 18 Aug 50 02:01:18 GMT",
        "Thu 18 Aug 2050 02:01:18 GMT", "Thu, 18  Aug  2050 02:01:18 GMT", "Thu, 18-Aug-2050 02:01:18 GMT",
        "Thu, 18 Aug 2050 02.01.18 GMT", "Thu, 18 Aug 2050 2:01:18 GMT", "0", "-1", "", "tomorrow",
        "Thu, 31 Feb 2050 02:01:18 GMT",
    ])
    func anExpiresThatIsNotAnHTTPDateMeansAlreadyExpired(_ expires: String) async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route("GET", "/e", respond: .text("e").header("Expires", expires))
        _ = try await fixture.get("/e")
        _ = try await fixture.get("/e")
        #expect(fixture.server.requests(to: "/e").count == 2)
    }

    @Test(arguments: [
        "Thu, 18 Aug 2050 02:01:18 GMT", "THU, 18 AUG 2050 02:01:18 gmt", "Thursday, 18-Aug-50 02:01:18 GMT",
        "Thu Aug  8 02:01:18 2050", "Tue, 19 Jan 2038 14:14:08 GMT",
    ])
    func everyFormOfHTTPDateIsReadInExpires(_ expires: String) async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route("GET", "/e", respond: .text("e").header("Expires", expires))
        _ = try await fixture.get("/e")
        _ = try await fixture.get("/e")
        #expect(fixture.server.requests(to: "/e").count == 1)
        #expect(fixture.lastMetrics?.cacheUse == .hit)
    }

    @Test func maxAgeWinsOverExpires() async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/m",
            respond: .text("m").header("Expires", "Thu, 01 Jan 1970 00:00:00 GMT").header(
                "Cache-Control", "max-age=86400"))
        _ = try await fixture.get("/m")
        _ = try await fixture.get("/m")
        #expect(fixture.server.requests(to: "/m").count == 1)
    }

    @Test func aLastModifiedGivesHeuristicFreshnessOnlyToStatusesThatAllowIt() async throws {
        let fixture = try Self.fixture(acceptingEverything: true)
        defer { fixture.server.stop() }
        let now = Date()
        let dayAgo = HTTPCacheRFC9111Tests.httpDate(now.addingTimeInterval(-86_400))
        for (path, status) in [("/ok", 200), ("/gone", 410), ("/created", 201), ("/unavailable", 503)] {
            fixture.server.route(
                "GET", path,
                respond: .text(path, status: status).header("Last-Modified", dayAgo).header(
                    "Date", HTTPCacheRFC9111Tests.httpDate(now)))
            _ = try await Self.answer(fixture, path)
            _ = try await Self.answer(fixture, path)
        }
        #expect(fixture.server.requests(to: "/ok").count == 1, "a tenth of a day is fresh")
        #expect(fixture.server.requests(to: "/gone").count == 1, "410 is cacheable by default")
        #expect(fixture.server.requests(to: "/created").count == 2, "201 is not")
        #expect(fixture.server.requests(to: "/unavailable").count == 2, "503 is not")
    }

    @Test(arguments: [203, 204, 404, 405, 410, 414, 501, 500, 599])
    func everyFinalStatusWithExplicitFreshnessIsReused(_ status: Int) async throws {
        let fixture = try Self.fixture(acceptingEverything: true)
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/s", respond: StubResponse(status: status).header("Cache-Control", "max-age=86400"))
        #expect(try await Self.answer(fixture, "/s").status == status)
        #expect(try await Self.answer(fixture, "/s").status == status)
        #expect(fixture.server.requests(to: "/s").count == 1)
    }

    // MARK: Age (§4.2.3, §5.1)

    @Test func aServedResponseSaysHowOldItIs() async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/a", respond: .text("a").header("Cache-Control", "max-age=86400").header("Age", "30"))
        _ = try await fixture.get("/a")
        let cached = try await Self.answer(fixture, "/a")
        #expect(fixture.lastMetrics?.cacheUse == .hit)
        let age = try #require(cached.header("Age").flatMap { Int($0) })
        #expect(age >= 30)
    }

    @Test(arguments: [
        ("7200", false), ("7200, 0", false), ("0, 7200", true), ("7200.0", true), ("-7200", true), ("abc", true),
        ("2147483648", false), ("99999999999999999999", false), ("", true),
    ])
    func ageCountsByItsFirstValueAndIgnoresWhatIsNotDigits(_ age: String, _ reused: Bool) async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/a", respond: .text("a").header("Cache-Control", "max-age=3600").header("Age", age))
        _ = try await fixture.get("/a")
        _ = try await fixture.get("/a")
        #expect(fixture.server.requests(to: "/a").count == (reused ? 1 : 2))
    }

    @Test(arguments: ["max-age=ten", "max-age=\"60", "max-age='60'", "max-age=", "max-age=-1", "max-age= 60"])
    func aMalformedMaxAgeIsStale(_ control: String) async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route("GET", "/c", respond: .text("c").conditional().header("Cache-Control", control))
        #expect(try await fixture.get("/c") == "c")
        #expect(try await fixture.get("/c") == "c")
        #expect(fixture.server.requests(to: "/c").last?.header("If-None-Match") != nil, "revalidated, never fresh")
    }

    @Test(arguments: [
        "abc", "", "Thu, 18 Aug 2050 02:01:18 UTC", "Mon, 99 Foo 2050 99:99:99 GMT", "9999999999999999999999",
    ])
    func aMalformedDateFallsBackToTheTimeOfReceipt(_ date: String) async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/d", respond: .text("d").header("Cache-Control", "max-age=86400").header("Date", date))
        _ = try await fixture.get("/d")
        _ = try await fixture.get("/d")
        #expect(fixture.server.requests(to: "/d").count == 1)
    }

    // MARK: Storing (§3)

    @Test func hopByHopFieldsAndTheFieldsConnectionNamesAreNotStored() async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        // Raw bytes: the stub server's own responses name `Connection: keep-alive`.
        let head =
            "HTTP/1.1 200 OK\r\nCache-Control: max-age=86400\r\nConnection: a, b\r\nA: 1\r\nB: 2\r\nC: 3\r\n"
            + "Keep-Alive: timeout=5\r\nContent-Length: 1\r\n\r\nh"
        fixture.server.route("GET", "/h", respond: .raw(Data(head.utf8)))
        _ = try await fixture.get("/h")
        let cached = try await Self.answer(fixture, "/h")
        #expect(fixture.lastMetrics?.cacheUse == .hit)
        #expect(cached.header("C") == "3")
        for name in ["A", "B", "Keep-Alive", "Connection"] { #expect(cached.header(name) == nil, "\(name)") }
    }

    @Test func setCookieIsNeverStored() async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/k", respond: .text("k").header("Cache-Control", "max-age=86400").header("Set-Cookie", "session=1"))
        #expect(try await Self.answer(fixture, "/k").header("Set-Cookie") == "session=1")
        let cached = try await Self.answer(fixture, "/k")
        #expect(fixture.lastMetrics?.cacheUse == .hit)
        #expect(cached.header("Set-Cookie") == nil)
    }

    @Test func noStoreAndMustUnderstandFollowTheStatus() async throws {
        let fixture = try Self.fixture(acceptingEverything: true)
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/known", respond: .text("k").header("Cache-Control", "no-store, must-understand, max-age=86400"))
        fixture.server.route(
            "GET", "/unknown",
            respond: .text("u", status: 599).header("Cache-Control", "no-store, must-understand, max-age=86400"))
        for path in ["/known", "/known", "/unknown", "/unknown"] { _ = try await Self.answer(fixture, path) }
        #expect(
            fixture.server.requests(to: "/known").count == 1, "must-understand of a known status overrides no-store")
        #expect(fixture.server.requests(to: "/unknown").count == 2)
    }

    // MARK: Vary (§4.1)

    @Test func severalVariantsOfOneURLAreKeptAndMatchedOnNormalisedValues() async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/v",
            handler: { request in
                .text("lang=\(request.header("Accept-Language") ?? "")").header("Cache-Control", "max-age=86400").header(
                    "Vary", "Accept-Language, Foo")
            })
        let english = try await Self.answer(fixture, "/v", headers: ["Accept-Language": "en, de", "Foo": "1,2"])
        let french = try await Self.answer(fixture, "/v", headers: ["Accept-Language": "fr"])
        #expect(fixture.server.requests(to: "/v").count == 2)
        let englishAgain = try await Self.answer(
            fixture, "/v", headers: ["Accept-Language": " DE ,en", "Foo": " 1, 2 "])
        let frenchAgain = try await Self.answer(fixture, "/v", headers: ["Accept-Language": "fr"])
        #expect(fixture.server.requests(to: "/v").count == 2)
        #expect(englishAgain.body == english.body)
        #expect(frenchAgain.body == french.body)
        _ = try await Self.answer(fixture, "/v", headers: ["Accept-Language": "fr", "Foo": "1"])
        #expect(fixture.server.requests(to: "/v").count == 3, "another Foo is another variant")
    }

    @Test(arguments: ["*", "Foo, *", "*, *", ",*"])
    func varyStarIsNeverReused(_ vary: String) async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/v", respond: .text("v").header("Cache-Control", "max-age=86400").header("Vary", vary))
        _ = try await fixture.get("/v")
        _ = try await fixture.get("/v")
        #expect(fixture.server.requests(to: "/v").count == 2)
    }

    @Test(arguments: [",", " , ,", "\u{7f}", "Foo,,Bar", "Ünïcödé"])
    func aMalformedVaryIsReadAsTheNamesItHolds(_ vary: String) async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/v", respond: .text("v").header("Cache-Control", "max-age=86400").header("Vary", vary))
        #expect(try await fixture.get("/v") == "v")
        #expect(try await fixture.get("/v") == "v")
    }

    // MARK: Validation (§4.3)

    @Test func aNotModifiedUpdatesTheStoredHeaders() async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/u",
            respondInTurn: [
                .text("u").header("ETag", "\"1\"").header("Cache-Control", "max-age=60").header("Age", "120").header(
                    "X-Version", "1"),
                StubResponse(
                    status: 304, headers: ["ETag": "\"1\"", "X-Version": "2", "Cache-Control": "max-age=86400"]),
            ])
        _ = try await fixture.get("/u")
        let revalidated = try await Self.answer(fixture, "/u")
        #expect(fixture.lastMetrics?.cacheUse == .notModified)
        #expect(revalidated.body == "u")
        #expect(revalidated.header("X-Version") == "2")
        let cached = try await Self.answer(fixture, "/u")
        #expect(fixture.lastMetrics?.cacheUse == .hit, "the 304's max-age made it fresh")
        #expect(cached.header("X-Version") == "2")
        #expect(fixture.server.requests(to: "/u").count == 2)
    }

    @Test func mustRevalidateAndNoCacheAreNeverServedWithoutTheServer() async throws {
        let fixture = try Self.fixture(cache: HTTPCache(offlinePolicy: .serveStored))
        fixture.server.route(
            "GET", "/r", respond: .text("r").header("Cache-Control", "max-age=1, must-revalidate").header("Age", "5"))
        fixture.server.route(
            "GET", "/n", respond: .text("n").header("Cache-Control", "no-cache").header("ETag", "\"n\""))
        _ = try await fixture.get("/r")
        _ = try await fixture.get("/n")
        let base = fixture.server.baseURL
        fixture.server.stop()
        await Self.expectFailure {
            try await fixture.client.fetch(.url(base.appendingPathComponent("r")), extracting: .string)
        }
        await Self.expectFailure {
            try await fixture.client.fetch(.url(base.appendingPathComponent("n")), extracting: .string)
        }
    }

    @Test func immutableIsNotRevalidatedWhileFreshEvenOnRevalidate() async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/i", respond: .text("i").conditional().header("Cache-Control", "max-age=86400, immutable"))
        _ = try await fixture.get("/i")
        _ = try await fixture.get("/i", policy: .revalidate)
        #expect(fixture.server.requests(to: "/i").count == 1)
        #expect(fixture.lastMetrics?.cacheUse == .hit)
    }

    // MARK: Invalidation (§4.4)

    @Test func aSuccessfulPostDropsItsURLAndTheURLsItsLocationsName() async throws {
        let fixture = try Self.fixture(acceptingEverything: true)
        defer { fixture.server.stop() }
        for path in ["/list", "/item", "/other"] {
            fixture.server.route("GET", path, respond: .text(path).header("Cache-Control", "max-age=86400"))
        }
        fixture.server.route(
            "POST", "/list",
            respondInTurn: [
                StubResponse(status: 500),
                StubResponse(status: 201, headers: ["Location": "/item", "Content-Location": "/other"]),
            ])
        for path in ["/list", "/item", "/other"] { _ = try await fixture.get(path) }
        let post = TestEndpoint(baseURL: fixture.server.baseURL, path: "/list", method: .post, body: .json(["a": 1]))
        _ = try await fixture.client.fetch(post, extracting: .data)
        _ = try await fixture.get("/list")
        #expect(
            fixture.server.requests(to: "/list").filter { $0.method == "GET" }.count == 1,
            "a failed POST changes nothing")
        _ = try await fixture.client.fetch(post, extracting: .data)
        for path in ["/list", "/item", "/other"] { _ = try await fixture.get(path) }
        for path in ["/list", "/item", "/other"] {
            #expect(fixture.server.requests(to: path).filter { $0.method == "GET" }.count == 2, "\(path)")
        }
    }

    // MARK: Ranges (§3.4)

    @Test func aRangeRequestIsAnsweredWithTheBytesItAsksForNeverTheWholeResponse() async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route("GET", "/r", respond: .text("0123456789").header("Cache-Control", "max-age=86400"))
        _ = try await fixture.get("/r")
        for (range, body, contentRange) in [
            ("bytes=0-1", "01", "bytes 0-1/10"), ("bytes=8-", "89", "bytes 8-9/10"),
            ("bytes=-3", "789", "bytes 7-9/10"),
        ] {
            let part = try await Self.answer(fixture, "/r", headers: ["Range": range])
            #expect(part.status == 206)
            #expect(part.body == body)
            #expect(part.header("Content-Range") == contentRange)
        }
        #expect(fixture.server.requests(to: "/r").count == 1)
        // Several ranges go to the server, which answers with the whole response here.
        let several = try await Self.answer(fixture, "/r", headers: ["Range": "bytes=0-1,3-4"])
        #expect(fixture.server.requests(to: "/r").count == 2)
        #expect(several.status == 200)
    }

    @Test func aStalePartIsNotServedAndAStoredPartNeverAnswersForTheWhole() async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/p",
            respondInTurn: [
                StubResponse(
                    status: 206, headers: ["Content-Range": "bytes 4-9/10", "Cache-Control": "max-age=86400"],
                    body: .data(Data("456789".utf8))),
                .text("0123456789").header("Cache-Control", "max-age=86400"),
            ])
        _ = try await Self.answer(fixture, "/p", headers: ["Range": "bytes=-6"])
        let part = try await Self.answer(fixture, "/p", headers: ["Range": "bytes=6-8"])
        #expect(part.body == "678")
        #expect(fixture.server.requests(to: "/p").count == 1)
        #expect(try await fixture.get("/p") == "0123456789")
        #expect(fixture.server.requests(to: "/p").count == 2)
    }

    // MARK: Serving stale (RFC 5861, §4.2.4)

    @Test func staleWhileRevalidateServesAtOnceAndRefreshesInTheBackground() async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/s",
            respondInTurn: [
                .text("old").header("Cache-Control", "max-age=1, stale-while-revalidate=3600").header("Age", "5")
                    .header("ETag", "\"old\""),
                .text("new").header("Cache-Control", "max-age=86400").header("ETag", "\"new\""),
            ])
        _ = try await fixture.get("/s")
        #expect(try await fixture.get("/s") == "old")
        #expect(fixture.lastMetrics?.cacheUse == .staleWhileRevalidating)
        #expect(await fixture.server.waitForRequests(count: 2))
        let refresh = fixture.server.requests(to: "/s")[1]
        #expect(refresh.header("If-None-Match") == "\"old\"")
        // The refresh stores what it receives; a fetch after it sees it.
        var body = ""
        for _ in 0..<500 where body != "new" {
            body = try await fixture.get("/s")
            if body != "new" { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(body == "new")
        #expect(fixture.server.requests(to: "/s").count == 2, "one refresh")
    }

    @Test func staleIfErrorServesTheStoredResponseWhenTheServerFails() async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/e",
            respondInTurn: [
                .text("stored").header("Cache-Control", "max-age=1, stale-if-error=3600").header("Age", "5"),
                StubResponse(status: 503),
            ])
        _ = try await fixture.get("/e")
        #expect(try await fixture.get("/e") == "stored")
        #expect(fixture.lastMetrics?.cacheUse == .staleAfterError)
        #expect(fixture.server.requests(to: "/e").count == 2)
    }

    @Test func theOfflinePolicyServesWhatIsStoredWhenTheServerCannotBeReached() async throws {
        let offline = try Self.fixture(cache: HTTPCache(offlinePolicy: .serveStored))
        let strict = try Self.fixture()
        var urls: [URL] = []
        for fixture in [offline, strict] {
            fixture.server.route(
                "GET", "/o", respond: .text("stored").header("Cache-Control", "max-age=1").header("Age", "5"))
            _ = try await fixture.get("/o")
            urls.append(fixture.server.url("/o"))
            fixture.server.stop()
        }
        #expect(try await offline.client.fetch(.url(urls[0]), extracting: .string) == "stored")
        #expect(offline.lastMetrics?.cacheUse == .staleAfterError)
        #expect(offline.lastMetrics?.description.contains("stale") == true)
        await Self.expectFailure { try await strict.client.fetch(.url(urls[1]), extracting: .string) }
    }

    // MARK: Cache modes (Fetch, URLRequest.CachePolicy)

    @Test func cacheModesReadAndWriteTheCacheAsFetchDoes() async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/m", respond: .text("m").conditional().header("Cache-Control", "max-age=1").header("Age", "5"))
        await expectFetchError(.unacceptableStatus) { try await fixture.get("/m", policy: .onlyIfCached) }
        #expect(fixture.server.requests(to: "/m").isEmpty)
        _ = try await fixture.get("/m", policy: .reload)
        #expect(fixture.server.requests(to: "/m").last?.header("Cache-Control") == "no-cache")
        #expect(fixture.server.requests(to: "/m").last?.header("If-None-Match") == nil)
        #expect(try await fixture.get("/m", policy: .forceCache) == "m")
        #expect(try await fixture.get("/m", policy: .onlyIfCached) == "m")
        #expect(fixture.server.requests(to: "/m").count == 1, "stale, yet served")
        _ = try await fixture.get("/m", policy: .revalidate)
        #expect(fixture.server.requests(to: "/m").last?.header("Cache-Control") == "max-age=0")
        #expect(fixture.server.requests(to: "/m").last?.header("If-None-Match") != nil)
    }

    @Test func theRequestsOwnCacheControlIsHonoured() async throws {
        let fixture = try Self.fixture()
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/q", respond: .text("q").header("Cache-Control", "max-age=86400").header("Age", "100"))
        _ = try await fixture.get("/q")
        _ = try await Self.answer(fixture, "/q", headers: ["Cache-Control": "max-age=50"])
        #expect(fixture.server.requests(to: "/q").count == 2, "older than the request allows")
        _ = try await Self.answer(fixture, "/q", headers: ["Cache-Control": "no-store"])
        #expect(fixture.server.requests(to: "/q").count == 3)
        _ = try await Self.answer(fixture, "/q", headers: ["Pragma": "no-cache"])
        #expect(fixture.server.requests(to: "/q").count == 4)
    }

    /// Expects `body` to fail (the server is gone: which transport error that is varies by platform).
    static func expectFailure(
        sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> String
    ) async {
        do {
            let value = try await body()
            Issue.record("expected a failure, got \(value)", sourceLocation: sourceLocation)
        } catch {
            #expect((error as? FetchError)?.code != .cancelled, sourceLocation: sourceLocation)
        }
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
