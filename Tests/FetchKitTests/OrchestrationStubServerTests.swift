import FetchKitTesting
import Foundation
import TestSupport
import Testing
import FetchKitOperations

@testable import FetchKit

/// Fan-out, Operations and pagination against the loopback stub server, over URLSession.
@Suite struct OrchestrationStubServerTests {
    struct Movie: Sendable {
        let id: Int
        let popularity: Double
    }

    struct Rating: Decodable, Sendable {
        let id: Int
        let popularity: Double
    }

    let server = StubServer()

    init() throws {
        try server.start()
    }

    /// TMDB-like movies: `/3/movie/{id}` answers the id with popularity `id * 10`.
    func routeMovies(delay: Duration = .milliseconds(20)) {
        server.route("GET", "/3/movie/*") { request in
            let id = Int(request.path.split(separator: "/").last ?? "") ?? 0
            return StubResponse.json(#"{"id":\#(id),"popularity":\#(id * 10)}"#).delayed(by: delay)
        }
    }

    func rating(of movie: Movie) async throws -> Double {
        let data = try await OrchestrationHTTP.get(server.url("/3/movie/\(movie.id)"))
        return try JSONDecoder().decode(Rating.self, from: data).popularity
    }

    @Test(arguments: [3, FanOut.defaultMaximumConcurrency])
    func theServerNeverSeesMoreRequestsInFlightThanTheLimit(limit: Int) async {
        routeMovies()
        let movies = (1...48).map { Movie(id: $0, popularity: Double($0 * 10)) }
        let report = await FanOut(maximumConcurrency: limit).run(
            movies, changed: { movie, popularity in popularity != movie.popularity }
        ) { movie in try await rating(of: movie) }
        #expect(report.outcome == .noData)
        #expect(report.failedCount == 0)
        #expect(server.receivedRequests.count == 48)
        #expect(server.maxRequestsInFlight <= limit)
        #expect(server.maxRequestsInFlight >= 1)
    }

    @Test func oneChangedRatingMakesNewDataAndAServerErrorMakesFailed() async {
        routeMovies(delay: .zero)
        server.route("GET", "/3/movie/13", respond: .json(#"{"status_code":34}"#, status: 404))
        var movies = (1...12).map { Movie(id: $0, popularity: Double($0 * 10)) }
        movies[4] = Movie(id: 5, popularity: 1)  // Stored 1, server says 50: changed.
        let changed = await FanOut().run(movies, changed: { $1 != $0.popularity }) { try await rating(of: $0) }
        #expect(changed.outcome == .newData)
        #expect(changed.itemOutcomes[4] == .changed)

        let withFailure = movies.enumerated().map { index, movie in
            index == 4 ? Movie(id: 13, popularity: 130) : movie
        }
        let failed = await FanOut().run(withFailure, changed: { $1 != $0.popularity }) { try await rating(of: $0) }
        #expect(failed.outcome == .failed)
        #expect(failed.errors.count == 1)
    }

    @Test func cancellingAFanOutSendsNoFurtherRequests() async throws {
        routeMovies(delay: Patience.beyondTheTest)
        let movies = (1...40).map { Movie(id: $0, popularity: 0) }
        let done = Arrival<FanOutReport<Double>>()
        let handle = FanOut(maximumConcurrency: 4).run(
            movies, changed: { $1 != $0.popularity }, transform: { try await rating(of: $0) },
            completion: { done.fulfill($0) })
        #expect(await server.waitForRequestsInFlight(count: 4))
        handle.cancel()
        let report = try await done.value("the cancelled fan-out")
        #expect(report.wasCancelled)
        #expect(report.outcome == .failed)
        #expect(report.failedCount == 40)
        #expect(server.receivedRequests.count == 4)
    }

    @Test func theSeedsOperationPipelineRunsInAFewLines() async throws {
        routeMovies(delay: .milliseconds(5))
        let movies = (1...30).map { Movie(id: $0, popularity: $0 == 17 ? 0 : Double($0 * 10)) }
        let outcome = Arrival<RefreshOutcome>()

        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = FanOut.defaultMaximumConcurrency
        let updates = movies.map { movie in
            FetchOperation(changed: { $0 != movie.popularity }) { try await rating(of: movie) }
        }
        queue.addRefresh(updates) { outcome.fulfill($0) }

        #expect(try await outcome.value("the pipeline's outcome") == .newData)
        #expect(updates[16].itemOutcome == .changed)
        #expect(server.maxRequestsInFlight <= FanOut.defaultMaximumConcurrency)
        #expect(server.receivedRequests.count == 30)
    }

    func routeGoogleBooks(page2: StubResponse) throws {
        server.setFallback(.file(Fixtures.url("googlebooks/volumes_zero_results.json")))
        server.route(
            "GET", "/books/v1/volumes", query: ["startIndex": "0"],
            respond: .file(Fixtures.url("googlebooks/volumes_dawn_page1_30_items.json")))
        server.route("GET", "/books/v1/volumes", query: ["startIndex": "30"], respond: page2)
    }

    func booksPaginator() -> Paginator<String> {
        struct Volumes: Decodable {
            struct Volume: Decodable { let id: String }
            let totalItems: Int
            let items: [Volume]?
        }
        let server = server
        return Paginator(style: .offset(pageSize: 30), limits: .init(maximumPages: 10)) { request in
            var components = URLComponents(url: server.url("/books/v1/volumes"), resolvingAgainstBaseURL: false)
            components?.queryItems =
                [URLQueryItem(name: "q", value: "dawn")]
                + request.offsetQueryItems(offsetName: "startIndex", sizeName: "maxResults")
            guard let url = components?.url else { throw URLError(.badURL) }
            let volumes = try JSONDecoder().decode(Volumes.self, from: try await OrchestrationHTTP.get(url))
            return Page(items: (volumes.items ?? []).map(\.id), totalItems: volumes.totalItems)
        }
    }

    @Test func googleBooksPagesComeOneAfterAnotherUntilTheTotalIsReached() async throws {
        try routeGoogleBooks(page2: .file(Fixtures.url("googlebooks/volumes_dawn_page2_30_items.json")))
        let summary = await booksPaginator().collect()
        #expect(summary.stop == .totalReached)
        #expect(summary.items.count == 60)
        let requests = server.receivedRequests
        #expect(requests.map { $0.queryValue("startIndex") } == ["0", "30"])
        #expect(requests.allSatisfy { $0.queryValue("maxResults") == "30" })
        #expect(server.maxRequestsInFlight == 1)
    }

    @Test func aFailingMiddlePageKeepsTheFirstPageAndSendsNothingMore() async throws {
        try routeGoogleBooks(page2: .status(503))
        let summary = await booksPaginator().collect()
        #expect(summary.stop == .failed)
        #expect((summary.error as? OrchestrationHTTP.BadStatus)?.status == 503)
        #expect(summary.items.count == 30)
        #expect(server.receivedRequests.count == 2)
    }

    @Test func aNewSearchCancelsTheOldOneMidPage() async throws {
        try routeGoogleBooks(
            page2: StubResponse.file(Fixtures.url("googlebooks/volumes_dawn_page2_30_items.json")).delayed(
                by: Patience.beyondTheTest))
        let done = Arrival<PaginationSummary<String>>()
        let handle = booksPaginator().collect(onPage: { _ in }, completion: { done.fulfill($0) })
        #expect(await server.waitForRequests(count: 2))
        handle.cancel()
        let summary = try await done.value("the cancelled search")
        #expect(summary.stop == .cancelled)
        #expect(summary.items.count == 30)
        #expect(server.receivedRequests.count == 2)
    }
}
