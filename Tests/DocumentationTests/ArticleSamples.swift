import FetchKit
import FetchKitTesting
import Foundation
import Persistence
import TestSupport
import Testing

/// Samples of the module catalogs' articles that no module test target compiled:
/// "Endpoints and fetching", "Retries and cancellation", "Testing with the stub server",
/// "Queries and sorting" and "Observing changes". Compiled, never run.
enum ArticleSamples {
    struct Volumes: Decodable, Sendable {
        var totalItems: Int
    }

    // MARK: Endpoints and fetching

    enum GoogleBooks: Endpoint {
        case volumes(query: String, startIndex: Int)

        var baseURL: URL { URL(string: "https://www.googleapis.com/books/v1") ?? URL(fileURLWithPath: "/") }
        var path: String { "/volumes" }
        var queryItems: [URLQueryItem] {
            switch self {
            case .volumes(let query, let startIndex):
                [
                    URLQueryItem(name: "q", value: query),
                    URLQueryItem(name: "maxResults", value: "40"),
                    URLQueryItem(name: "startIndex", value: String(startIndex)),
                ]
            }
        }
    }

    static func withCompletions(_ client: FetchClient, url: URL) {
        client.fetch(.url(url), extracting: .decode(Volumes.self)) { result in print(result) }
        client.fetch(GoogleBooks.volumes(query: "tolstoy", startIndex: 0), extracting: .data) { result in print(result)
        }
    }

    static func endpointsAndFetching(url: URL, myQueue: DispatchQueue) async throws {
        let client = FetchClient { configuration in
            configuration.adapters = [
                APIKeyAdapter(.query(name: "api_key"), value: ProcessInfo.processInfo.environment["TMDB_API_KEY"] ?? "")
            ]
        }
        withCompletions(client, url: url)
        let volumes = try await client.fetch(
            GoogleBooks.volumes(query: "tolstoy", startIndex: 0), extracting: .decode(Volumes.self))
        _ = volumes
    }

    static func environments() throws -> URL? {
        let staging = FetchClient { $0.baseURL = URL(string: "https://staging.example.com/books/v1") }
        return try GoogleBooks.volumes(query: "tolstoy", startIndex: 0).url(base: staging.configuration.baseURL)
    }

    static func typedEndpoints(client: FetchClient) async throws -> Volumes {
        let volumes = try await client.fetch(GoogleBooks.search("tolstoy"))  // a Volumes
        return volumes
    }

    // MARK: Strategies and errors

    static func errors(_ error: FetchError, showNotFound: () -> Void, scheduleRetry: () -> Void, show: (String) -> Void)
    {
        switch error.code {
        case .unacceptableStatus where error.statusCode == 404: showNotFound()
        case .timedOut, .connectionLost: scheduleRetry()
        default: show(error.description)
        }
    }

    // MARK: Retries and cancellation

    static func timeOnAClock(server: StubServer) async throws -> String {
        let clock = TestClock()
        let client = FetchClient {
            $0.clock = clock
            $0.timeout = .seconds(600)
            $0.retryPolicy = RetryPolicy(maximumRetryAfter: .seconds(300))
        }
        let fetch = Task { try await client.fetch(.url(server.url("/limited")), extracting: .string) }
        // The 429 comes back with Retry-After: 120, and the retry waits on the clock:
        await clock.sleepers(count: 1, within: .seconds(120))
        await clock.advance(by: .seconds(120))  // the retry goes out now
        let text = try await fetch.value
        return text
    }

    static func retries() -> FetchClient {
        FetchClient { configuration in
            configuration.retryPolicy = RetryPolicy(maximumRetries: 3, baseDelay: .milliseconds(200), jitter: 0.3)
        }
    }

    static let searches = CancellationGroup()

    static func search(_ text: String, client: FetchClient) {
        searches.cancelAll()
        client.fetch(
            GoogleBooks.volumes(query: text, startIndex: 0), extracting: .decode(Volumes.self), group: searches
        ) { result in
            print(result)
        }
    }

    // MARK: Testing with the stub server

    static func stubServer(recordedResponseURL: URL) throws {
        let server = StubServer()
        server.route("GET", "/books/v1/volumes", respond: .file(recordedResponseURL))
        try server.start()
        defer { server.stop() }
        let url = server.url("/books/v1/volumes?q=tolstoy")
        _ = url
    }

    static func stubServerLandingPage() throws {
        let server = StubServer()
        server.route("GET", "/3/search/movie", respond: .json(#"{"page":1,"results":[]}"#))
        try server.start()
        defer { server.stop() }

        // Point the client under test at server.baseURL, then:
        let request = try #require(server.receivedRequests.first)
        #expect(request.queryValue("query") == "Fast & Furious")
    }

    // MARK: Queries and sorting, observing changes

    struct Book: StoredEntity {
        var id: String
        var title: String
        var rating: Double?
        var pages: Int

        static let indexes = [EntityIndex(title, caseInsensitive: true), EntityIndex(rating)]
    }

    static func queries(tx: ObjectTransaction) throws {
        let filter = (Book.rating >= 4 && !Book.title.hasPrefix("The")) || Book.pages.isIn([100, 200])
        let books = try tx.fetch(Query<Book>(where: filter, sortedBy: [Book.title.ascending(caseInsensitive: true)]))
        _ = books
    }

    // The full-text search section, as printed.
    enum FullText {
        struct Book: StoredEntity {
            var id: String
            var title: String
            var summary: String?

            static let title = Field<Book, String>("title")
            static let summary = Field<Book, String?>("summary")
            static let fullTextIndex: FullTextIndex<Book>? = FullTextIndex(title, summary)
        }

        static func search(tx: ObjectTransaction) throws -> [Book] {
            let hits = try tx.fetch(
                Query<Book>(
                    where: Book.title.matches("unreal engine") && Book.summary != nil,
                    sortedBy: [Book.title.relevance]))
            return hits
        }
    }

    // "Observed queries with change sets", "Live queries", "Live aggregates" and "Sections" are
    // compiled with the other UI samples in UISamples.swift.

    // MARK: ObservingChanges.md, "Commits of other processes"

    static func openWatched(url: URL) throws -> ObjectStore {
        let store = try ObjectStore(at: url, entities: [Book.self]) { configuration in
            configuration.externalCommitPolling = .milliseconds(250)
        }
        return store
    }
}

extension ArticleSamples.Book {
    static let title = Field<ArticleSamples.Book, String>("title")
    static let rating = Field<ArticleSamples.Book, Double?>("rating")
    static let pages = Field<ArticleSamples.Book, Int>("pages")
}

/// Runs the full-text search sample of "Queries and sorting".
@Suite struct FullTextSampleTests {
    @Test func theFullTextSampleFindsAndRanks() throws {
        let directory = try TemporaryDirectory(prefix: "ArticleSamples")
        defer { directory.remove() }
        let store = try ObjectStore(at: directory.file("fts.sqlite"), entities: [ArticleSamples.FullText.Book.self])
        defer { store.close() }
        try store.context.persistAndWait { tx in
            try tx.insert(
                ArticleSamples.FullText.Book(id: "1", title: "Unreal Engine 5 Game Development", summary: "C++"))
            try tx.insert(ArticleSamples.FullText.Book(id: "2", title: "Unreal Engine", summary: nil))
            try tx.insert(ArticleSamples.FullText.Book(id: "3", title: "Unity", summary: "engine"))
        }
        let hits = try store.context.readAndWait { tx in try ArticleSamples.FullText.search(tx: tx) }
        #expect(hits.map(\.id) == ["1"])
    }
}

extension ArticleSamples.GoogleBooks {
    static func search(_ query: String) -> TypedRequest<ArticleSamples.Volumes> {
        TypedRequest(ArticleSamples.GoogleBooks.volumes(query: query, startIndex: 0))
    }
}

@Suite struct EnvironmentAndClockSampleTests {
    @Test func theStagingSampleGoesWhereTheArticleSays() throws {
        #expect(
            try ArticleSamples.environments()?.absoluteString
                == "https://staging.example.com/books/v1/volumes?q=tolstoy&maxResults=40&startIndex=0")
    }

    @Test func theClockSampleRetriesAfterTwoMinutesOfClockTime() async throws {
        let server = StubServer()
        server.route("GET", "/limited", respondInTurn: [.status(429, headers: ["Retry-After": "120"]), .text("ok")])
        try server.start()
        defer { server.stop() }
        #expect(try await ArticleSamples.timeOnAClock(server: server) == "ok")
        #expect(server.requests(to: "/limited").count == 2)
    }

    @Test func theTypedSampleInfersVolumes() async throws {
        let server = StubServer()
        server.route("GET", "/volumes", query: ["q": "tolstoy"], respond: .json(#"{"totalItems":7}"#))
        try server.start()
        defer { server.stop() }
        let client = FetchClient { $0.baseURL = server.baseURL }
        #expect(try await ArticleSamples.typedEndpoints(client: client).totalItems == 7)
    }
}
