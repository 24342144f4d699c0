import FetchKitTesting
import Foundation
import TestSupport
import Testing
import FetchKitOperations

@testable import FetchKit

/// The orchestration engines plugged into FetchKit's client, against the stub server.
@Suite struct OrchestrationClientTests {
    /// An endpoint below the stub server's base URL.
    struct StubEndpoint: Endpoint {
        let baseURL: URL
        let path: String
        var queryItems: [URLQueryItem] = []
    }

    struct Movie: Sendable {
        let id: Int
        let popularity: Double
    }

    struct Rating: Decodable, Sendable {
        let id: Int
        let popularity: Double
    }

    struct Volumes: Decodable, Sendable {
        struct Volume: Decodable, Sendable { let id: String }
        let totalItems: Int
        let items: [Volume]?
    }

    let server = StubServer()
    /// Held requests are cancelled by the tests, never timed out, however busy the machine.
    let client = FetchClient { $0.timeout = Patience.beyondTheTest }

    init() throws {
        try server.start()
        server.route("GET", "/3/movie/*") { request in
            let id = Int(request.path.split(separator: "/").last ?? "") ?? 0
            return StubResponse.json(#"{"id":\#(id),"popularity":\#(id * 10)}"#).delayed(by: .milliseconds(20))
        }
        server.route("GET", "/3/movie/404", respond: .json(#"{"status_code":34}"#, status: 404))
    }

    func movieEndpoint(_ movie: Movie) -> StubEndpoint {
        StubEndpoint(baseURL: server.baseURL, path: "/3/movie/\(movie.id)")
    }

    @Test func fetchAllKeepsToTheConnectionLimitAndReportsTheOutcome() async {
        let movies = (1...36).map { Movie(id: $0, popularity: $0 == 9 ? 0 : Double($0 * 10)) }
        let baseURL = server.baseURL
        let report = await client.fetchAll(
            movies, endpoint: { StubEndpoint(baseURL: baseURL, path: "/3/movie/\($0.id)") },
            extracting: .decode(Rating.self), changed: { movie, rating in rating.popularity != movie.popularity })
        #expect(report.outcome == .newData)
        #expect(report.changedCount == 1)
        #expect(report.itemOutcomes[8] == .changed)
        #expect(server.receivedRequests.count == 36)
        #expect(server.maxRequestsInFlight <= FanOut.defaultMaximumConcurrency)
    }

    @Test func fetchAllTurnsAnHTTPErrorIntoAFailedItem() async throws {
        let movies = [Movie(id: 1, popularity: 10), Movie(id: 404, popularity: 0)]
        let baseURL = server.baseURL
        let report = await client.fetchAll(
            movies, endpoint: { StubEndpoint(baseURL: baseURL, path: "/3/movie/\($0.id)") },
            extracting: .decode(Rating.self), using: FanOut(maximumConcurrency: 2),
            changed: { movie, rating in rating.popularity != movie.popularity })
        #expect(report.outcome == .failed)
        let error = try #require(report.errors.first as? FetchError)
        #expect(error.code == .unacceptableStatus)
        #expect(error.statusCode == 404)
    }

    @Test func fetchOperationsWithTheClientFeedTheCompletionOperation() async throws {
        let movies = (1...12).map { Movie(id: $0, popularity: Double($0 * 10)) }
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 4
        let outcome = Arrival<RefreshOutcome>()
        let updates = movies.map { movie in
            FetchOperation(
                client: client, endpoint: movieEndpoint(movie), extracting: .decode(Rating.self),
                changed: { $0.popularity != movie.popularity })
        }
        queue.addRefresh(updates) { outcome.fulfill($0) }
        #expect(try await outcome.value("the refresh outcome") == .noData)
        #expect(updates.allSatisfy { $0.value != nil })
        #expect(server.maxRequestsInFlight <= 4)
    }

    @Test func pagesFetchGoogleBooksThroughTheClient() async throws {
        server.setFallback(.file(Fixtures.url("googlebooks/volumes_zero_results.json")))
        server.route(
            "GET", "/books/v1/volumes", query: ["startIndex": "0"],
            respond: .file(Fixtures.url("googlebooks/volumes_dawn_page1_30_items.json")))
        server.route(
            "GET", "/books/v1/volumes", query: ["startIndex": "30"],
            respond: .file(Fixtures.url("googlebooks/volumes_dawn_page2_30_items.json")))
        let baseURL = server.baseURL
        let pages = client.pages(
            style: .offset(pageSize: 30), limits: .init(maximumPages: 10),
            endpoint: { request in
                StubEndpoint(
                    baseURL: baseURL, path: "/books/v1/volumes",
                    queryItems: [URLQueryItem(name: "q", value: "dawn & dusk")]
                        + request.offsetQueryItems(offsetName: "startIndex", sizeName: "maxResults"))
            },
            extracting: .decode(Volumes.self)
        ) { volumes in
            Page(items: (volumes.items ?? []).map(\.id), totalItems: volumes.totalItems)
        }
        var counts: [Int] = []
        for try await page in pages { counts.append(page.items.count) }
        #expect(counts == [30, 30])
        #expect(server.receivedRequests.map { $0.queryValue("q") } == ["dawn & dusk", "dawn & dusk"])
    }

    @Test func downloadingAnEndpointAppliesTheClientsAdapters() async throws {
        let directory = try TemporaryDirectory(prefix: "OrchestrationClientTests")
        defer { directory.remove() }
        server.route("GET", "/services/rest", respond: .file(Fixtures.url("flickr/photos_with_geo_extras_2014.json")))
        let flickr = FetchClient { configuration in
            configuration.adapters = [APIKeyAdapter(.query(name: "api_key"), value: "test-key")]
        }
        let file = try await flickr.fetch(
            StubEndpoint(baseURL: server.baseURL, path: "/services/rest"), extracting: .file(to: directory.file("recent.json")),
            sharing: "recent")
        #expect(try Data(contentsOf: file) == Fixtures.data("flickr/photos_with_geo_extras_2014.json"))
        #expect(server.receivedRequests.first?.queryValue("api_key") == "test-key")
    }

    @Test func cancellingTheGroupEndsAPaginationAsCancelled() async throws {
        server.route(
            "GET", "/books/v1/volumes", query: ["startIndex": "0"],
            respond: .file(Fixtures.url("googlebooks/volumes_dawn_page1_30_items.json")))
        server.route(
            "GET", "/books/v1/volumes", query: ["startIndex": "30"],
            respond: StubResponse.file(Fixtures.url("googlebooks/volumes_dawn_page2_30_items.json")).delayed(
                by: Patience.beyondTheTest))
        let baseURL = server.baseURL
        let group = CancellationGroup()
        let pages = client.pages(
            style: .offset(pageSize: 30),
            endpoint: {
                StubEndpoint(
                    baseURL: baseURL, path: "/books/v1/volumes",
                    queryItems: $0.offsetQueryItems(offsetName: "startIndex", sizeName: "maxResults"))
            },
            extracting: .decode(Volumes.self), group: group
        ) { volumes in
            Page(items: (volumes.items ?? []).map(\.id), totalItems: volumes.totalItems)
        }
        let run = Task { await pages.collect() }
        #expect(await server.waitForRequests(count: 2))
        group.cancelAll()
        let summary = await run.value
        #expect(summary.stop == .cancelled)
        #expect((summary.error as? FetchError)?.code == .cancelled)
        #expect(summary.items.count == 30)
        #expect(server.receivedRequests.count == 2)
    }
}
