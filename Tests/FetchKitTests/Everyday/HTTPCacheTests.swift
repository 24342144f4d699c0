import FetchKit
import FetchKitTesting
import Foundation
import Locking
import Testing

/// The client's HTTP cache against the stub server: freshness, revalidation, opt-outs, disk.
@Suite struct HTTPCacheTests {
    struct Fixture {
        let server = StubServer()
        let observer = RecordingObserver()
        let client: FetchClient
        let cache: HTTPCache

        init(
            cache: HTTPCache = HTTPCache(), configure: (inout FetchClient.Configuration) -> Void = { _ in }
        )
            throws
        {
            try server.start()
            self.cache = cache
            let observer = self.observer
            client = FetchClient {
                $0.cache = cache
                $0.observers = [observer]
                configure(&$0)
            }
        }

        func get(_ path: String, policy: CachePolicy = .useProtocol) async throws -> String {
            var endpoint = TestEndpoint(baseURL: server.baseURL, path: path)
            endpoint.cachePolicy = policy
            return try await client.fetch(endpoint, extracting: .string)
        }

        var lastMetrics: FetchMetrics? { observer.finished.current.last?.1 }
    }

    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
    }

    @Test func aFreshResponseIsServedWithoutARequest() async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        fixture.server.route("GET", "/genres", respond: .json(#"{"genres":[]}"#).header("Cache-Control", "max-age=86400"))
        #expect(try await fixture.get("/genres") == #"{"genres":[]}"#)
        #expect(fixture.lastMetrics?.cacheUse == FetchMetrics.CacheUse.none)
        #expect(try await fixture.get("/genres") == #"{"genres":[]}"#)
        #expect(fixture.server.requests(to: "/genres").count == 1)
        #expect(fixture.lastMetrics?.cacheUse == .hit)
        #expect(fixture.lastMetrics?.bytesReceived == 0)
        #expect(fixture.lastMetrics?.attempts == 0)
    }

    @Test func aStaleResponseIsRevalidatedAndNotModifiedCostsNoBody() async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let body = #"{"id":550,"popularity":61.4}"#
        fixture.server.route(
            "GET", "/movie/550", respond: .json(body).conditional().header("Cache-Control", "no-cache"))
        #expect(try await fixture.get("/movie/550") == body)
        #expect(try await fixture.get("/movie/550") == body)
        let requests = fixture.server.requests(to: "/movie/550")
        #expect(requests.count == 2)
        #expect(requests[0].header("If-None-Match") == nil)
        #expect(requests[1].header("If-None-Match") == "\"\(RecordedRequest.fingerprint(of: Data(body.utf8)))\"")
        #expect(fixture.lastMetrics?.cacheUse == .notModified)
        #expect(fixture.lastMetrics?.statusCode == 304, "the status that came over the wire")
        #expect(fixture.lastMetrics?.bytesReceived == 0)
    }

    @Test func lastModifiedIsUsedWhenThereIsNoETag() async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        let stamp = "Tue, 15 Nov 1994 12:45:26 GMT"
        // `no-cache`: without it, a Last-Modified this old is heuristically fresh for a week.
        var response = StubResponse.json(#"{"v":1}"#).conditional(lastModified: stamp).header(
            "Cache-Control", "no-cache")
        response.headers["ETag"] = nil
        fixture.server.route("GET", "/v", respond: response)
        _ = try await fixture.get("/v")
        _ = try await fixture.get("/v")
        #expect(fixture.server.requests(to: "/v").last?.header("If-Modified-Since") == stamp)
        #expect(fixture.lastMetrics?.cacheUse == .notModified)
    }

    @Test func aChangedResourceReplacesTheStoredOne() async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        fixture.server.route("GET", "/r", respond: .json(#"{"v":1}"#).conditional().header("Cache-Control", "no-cache"))
        #expect(try await fixture.get("/r") == #"{"v":1}"#)
        fixture.server.route("GET", "/r", respond: .json(#"{"v":2}"#).conditional().header("Cache-Control", "no-cache"))
        #expect(try await fixture.get("/r") == #"{"v":2}"#)
        #expect(fixture.lastMetrics?.cacheUse == FetchMetrics.CacheUse.none)
        #expect(try await fixture.get("/r") == #"{"v":2}"#)
        #expect(fixture.lastMetrics?.cacheUse == .notModified)
    }

    @Test(arguments: ["no-store", "max-age=60, no-store", "NO-STORE, max-age=60"])
    func noStoreIsNotStored(_ control: String) async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        fixture.server.route("GET", "/x", respond: .json("{}").conditional().header("Cache-Control", control))
        #expect(try await fixture.get("/x") == "{}")
        #expect(try await fixture.get("/x") == "{}")
        let requests = fixture.server.requests(to: "/x")
        #expect(requests.count == 2)
        #expect(requests.last?.header("If-None-Match") == nil)
        #expect(fixture.cache.count == 0)
    }

    /// A malformed `max-age` cannot prove the response fresh (RFC 9111 §4.2.1): it is stored
    /// for its validator and revalidated every time, never an error.
    @Test(arguments: ["max-age=\"60", "max-age=ten", "=5", "private, max-age=-1"])
    func malformedCacheControlIsNeverFreshAndNotAnError(_ control: String) async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        fixture.server.route("GET", "/x", respond: .json("{}").conditional().header("Cache-Control", control))
        #expect(try await fixture.get("/x") == "{}")
        #expect(try await fixture.get("/x") == "{}")
        let requests = fixture.server.requests(to: "/x")
        #expect(requests.count == 2)
        #expect(requests.last?.header("If-None-Match") != nil)
    }

    @Test func privateResponsesAreStoredInThisPrivateCache() async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        fixture.server.route("GET", "/p", respond: .json("{}").header("Cache-Control", "private, max-age=3600"))
        _ = try await fixture.get("/p")
        _ = try await fixture.get("/p")
        #expect(fixture.server.requests(to: "/p").count == 1)
    }

    @Test func anEndpointCanBypassOrAlwaysRevalidate() async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        fixture.server.route("GET", "/b", respond: .json("{}").conditional().header("Cache-Control", "max-age=86400"))
        _ = try await fixture.get("/b", policy: .bypass)
        #expect(fixture.cache.count == 0)
        _ = try await fixture.get("/b")
        _ = try await fixture.get("/b", policy: .bypass)
        #expect(fixture.server.requests(to: "/b").last?.header("If-None-Match") == nil)
        _ = try await fixture.get("/b", policy: .revalidate)
        #expect(fixture.server.requests(to: "/b").count == 4)
        #expect(fixture.server.requests(to: "/b").last?.header("If-None-Match") != nil)
        #expect(fixture.lastMetrics?.cacheUse == .notModified)
    }

    @Test func aSuccessfulPostDropsTheStoredResponseOfItsURL() async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        fixture.server.route("GET", "/list", respond: .json("[]").header("Cache-Control", "max-age=86400"))
        fixture.server.route("POST", "/list", respond: .json("{}", status: 201))
        _ = try await fixture.get("/list")
        let post = TestEndpoint(baseURL: fixture.server.baseURL, path: "/list", method: .post, body: .json(["a": 1]))
        _ = try await fixture.client.fetch(post, extracting: .data)
        _ = try await fixture.get("/list")
        #expect(fixture.server.requests(to: "/list").filter { $0.method == "GET" }.count == 2)
    }

    @Test func responsesThatVaryOnASecretHeaderAreNotStored() async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/mine", respond: .json("{}").header("Cache-Control", "max-age=86400").header("Vary", "Authorization"))
        _ = try await fixture.get("/mine")
        _ = try await fixture.get("/mine")
        #expect(fixture.server.requests(to: "/mine").count == 2)
    }

    @Test func theDiskCacheOutlivesItsClientAndHoldsNoSecret() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = "sekrit-api-key-9876"
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route(
            "GET", "/movie/1",
            respond: .json(#"{"id":1}"#).conditional().header("Cache-Control", "max-age=86400")
                .header("Set-Cookie", "session=cookie-secret-1"))
        let first = FetchClient {
            $0.cache = try? HTTPCache(directory: folder)
            $0.adapters = [APIKeyAdapter(.query(name: "api_key"), value: key)]
        }
        _ = try await first.fetch(TestEndpoint(baseURL: server.baseURL, path: "/movie/1"), extracting: .data)

        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        #expect(files.count == 1)
        for file in files {
            let bytes = try Data(contentsOf: file)
            #expect(bytes.range(of: Data(key.utf8)) == nil)
            #expect(bytes.range(of: Data("cookie-secret-1".utf8)) == nil)
            #expect(!file.lastPathComponent.contains("movie"))
        }

        let observer = RecordingObserver()
        let second = FetchClient {
            $0.cache = try? HTTPCache(directory: folder)
            $0.adapters = [APIKeyAdapter(.query(name: "api_key"), value: key)]
            $0.observers = [observer]
        }
        let text = try await second.fetch(TestEndpoint(baseURL: server.baseURL, path: "/movie/1"), extracting: .string)
        #expect(text == #"{"id":1}"#)
        #expect(server.requests(to: "/movie/1").count == 1)
        #expect(observer.finished.current.last?.1.cacheUse == .hit)
    }

    @Test func aDamagedEntryIsAMissNotAnError() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = try Fixture(cache: try HTTPCache(directory: folder))
        defer { fixture.server.stop() }
        fixture.server.route("GET", "/d", respond: .json(#"{"d":true}"#).header("Cache-Control", "max-age=86400"))
        _ = try await fixture.get("/d")
        for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) {
            let data = try Data(contentsOf: file)
            try data.prefix(data.count / 2).write(to: file)  // torn
        }
        // A new cache over the same folder, so nothing comes from memory.
        let reopened = FetchClient { $0.cache = try? HTTPCache(directory: folder) }
        let text = try await reopened.fetch(
            TestEndpoint(baseURL: fixture.server.baseURL, path: "/d"), extracting: .string)
        #expect(text == #"{"d":true}"#)
        #expect(fixture.server.requests(to: "/d").count == 2)
    }

    @Test func theDiskCacheStaysWithinItsSize() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = try Fixture(cache: try HTTPCache(directory: folder, maximumBytes: 200_000, memoryBytes: 0))
        defer { fixture.server.stop() }
        let body = String(repeating: "x", count: 10_000)
        fixture.server.route("GET", "/big/*", respond: .text(body).header("Cache-Control", "max-age=86400"))
        for index in 0..<60 { _ = try await fixture.get("/big/\(index)") }
        let sizes = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.fileSizeKey])
            .map { try $0.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0 }
        #expect(sizes.reduce(0, +) <= 200_000 + 60_000, "trimmed once the writes could have passed the limit")
        #expect(sizes.count < 60)
        #expect(sizes.count > 5)
    }

    @Test func aRefreshOfUnchangedItemsSendsConditionalRequestsAndReceivesNoBodies() async throws {
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        fixture.server.route(
            "GET", "/movie/*",
            handler: { request in
                let id = request.path.split(separator: "/").last ?? "0"
                return StubResponse.json(#"{"id":\#(id),"popularity":7.5}"#).conditional().header(
                    "Cache-Control", "no-cache")
            })
        struct Rating: Decodable, Equatable, Sendable { var popularity: Double }
        let ids = Array(1...60)
        let endpoint: @Sendable (Int) -> TestEndpoint = {
            TestEndpoint(baseURL: fixture.server.baseURL, path: "/movie/\($0)")
        }
        let first = await fixture.client.fetchAll(
            ids, endpoint: endpoint, extracting: .decode(Rating.self), changed: { _, rating in rating.popularity != 0 })
        #expect(first.outcome == .newData)
        fixture.observer.finished.withLock { $0.removeAll() }
        fixture.server.resetRecording()

        let second = await fixture.client.fetchAll(
            ids, endpoint: endpoint, extracting: .decode(Rating.self),
            changed: { _, rating in rating.popularity != 7.5 })
        #expect(second.outcome == .noData)
        let requests = fixture.server.receivedRequests
        #expect(requests.count == 60)
        #expect(requests.allSatisfy { $0.header("If-None-Match") != nil })
        let metrics = fixture.observer.finished.current.map(\.1)
        #expect(metrics.count == 60)
        #expect(metrics.allSatisfy { $0.cacheUse == .notModified && $0.bytesReceived == 0 })
    }
}

extension HTTPCacheTests {
    /// Two caches over one folder stand in for two processes: entries are renamed into place,
    /// so a reader sees one whole response or none, never a mix.
    @Test func cachesSharingAFolderNeverSeeATornEntry() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let bodies = (0..<4).map { String(repeating: String($0), count: 50_000) }
        let counter = Locked(0)
        server.route(
            "GET", "/shared",
            handler: { _ in
                let index = counter.withLock { value -> Int in
                    value += 1
                    return value % 4
                }
                return .text(bodies[index]).header("Cache-Control", "max-age=0").header("ETag", "\"v\(index)\"")
            })
        let writers = (0..<2).map { _ in
            FetchClient { $0.cache = try? HTTPCache(directory: folder, memoryBytes: 0) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<40 {
                group.addTask {
                    let client = writers[round % 2]
                    // max-age=0 and no 304 support: every fetch downloads and stores a whole body.
                    let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/shared")
                    let text = try await client.fetch(endpoint, extracting: .string)
                    #expect(bodies.contains(text))
                }
            }
            try await group.waitForAll()
        }
        let reader = try HTTPCache(directory: folder, memoryBytes: 0)
        #expect(reader.count == 1)
        let client = FetchClient { $0.cache = reader }
        // max-age=0: the stored entry is revalidated; whichever body the server sends, it is whole.
        let text = try await client.fetch(TestEndpoint(baseURL: server.baseURL, path: "/shared"), extracting: .string)
        #expect(bodies.contains(text))
    }
}
