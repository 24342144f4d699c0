import Foundation
import Testing
import FetchKitOperations

@testable import FetchKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The code samples of `Orchestration.md`, compiled (never run) so they stay honest.
enum OrchestrationCodeSamples {
    struct Movie: Sendable {
        let remoteID: Int64
        let popularity: Double
    }

    struct Ratings: Sendable {
        func popularity(of id: Int64) async throws -> Double { 0 }
    }

    struct Volumes: Sendable {
        let items: [String]
        let totalItems: Int
    }

    struct Books: Sendable {
        func search(_ name: String, query: [URLQueryItem]) async throws -> Volumes { Volumes(items: [], totalItems: 0) }
    }

    static let ratings = Ratings()
    static let books = Books()

    static func fanOut(movies: [Movie], completionHandler: @escaping @Sendable (RefreshOutcome) -> Void) async {
        let report = await FanOut().run(
            movies,
            changed: { movie, popularity in
                popularity != movie.popularity
            }
        ) { movie in
            try await ratings.popularity(of: movie.remoteID)
        }
        completionHandler(report.outcome)
    }

    static func fanOutResults(
        movies: [Movie], refresh: @escaping @Sendable (Movie) async throws -> Double,
        completionHandler: @escaping @Sendable (RefreshOutcome) -> Void
    ) async {
        for await event in FanOut().results(movies, changed: { $0.popularity != $1 }, transform: refresh) {
            if case .finished(let report) = event { completionHandler(report.outcome) }
        }
    }

    /// The `FanOutEvent` doc comment's sample.
    static func fanOutEvents(
        movies: [(title: String, popularity: Double)],
        refresh: @escaping @Sendable ((title: String, popularity: Double)) async throws -> Double,
        completionHandler: @escaping @Sendable (RefreshOutcome) -> Void
    ) async {
        for await event in FanOut().results(movies, changed: { $0.popularity != $1 }, transform: refresh) {
            switch event {
            case .item(let index, let result, _, let progress):
                print("\(movies[index].title): \(result) (\(progress.completed) of \(progress.total))")
            case .finished(let report):
                completionHandler(report.outcome)
            }
        }
    }

    /// `PeriodicFetcher.runs()`'s doc comment sample.
    static func periodicRuns(refreshRecentPhotos: @escaping @Sendable () async throws -> Int) async {
        let fetcher = PeriodicFetcher(every: .seconds(20 * 60)) { try await refreshRecentPhotos() }
        fetcher.start()
        for await run in fetcher.runs() {
            print("run \(run.number): \(run.result)")
        }
    }

    static func operations(movies: [Movie], completionHandler: @escaping @Sendable (RefreshOutcome) -> Void) {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = FanOut.defaultMaximumConcurrency
        let updates = movies.map { movie in
            FetchOperation(changed: { $0 != movie.popularity }) {
                try await ratings.popularity(of: movie.remoteID)
            }
        }
        queue.addRefresh(updates) { outcome in completionHandler(outcome) }
    }

    static func pagination(name: String, show: ([String]) -> Void) async throws {
        let search = Paginator(style: .offset(pageSize: 40), limits: .init(maximumPages: 10)) { request in
            let volumes = try await books.search(
                name, query: request.offsetQueryItems(offsetName: "startIndex", sizeName: "maxResults"))
            return Page(items: volumes.items, totalItems: volumes.totalItems)
        }
        for try await page in search {
            show(page.items)
        }
    }

    static func downloads(
        recentPhotos: URL, cacheFile: URL, backgroundSessionCompletionHandler: @escaping @Sendable () -> Void
    ) async throws {
        let client = FetchClient()
        let file = try await client.fetch(.url(recentPhotos), extracting: .file(to: cacheFile), sharing: "recent-photos")
        backgroundSessionCompletionHandler()
        _ = file
    }

    static func periodic(refreshRecentPhotos: @escaping @Sendable () async throws -> RefreshOutcome) {
        let fetcher = PeriodicFetcher(every: .seconds(20 * 60), jitter: .seconds(30)) {
            try await refreshRecentPhotos()
        } onRun: { run in
            print("run \(run.number): \(run.result)")
        }
        fetcher.start()
    }

    // MARK: The client layers

    enum TMDB: Endpoint {
        case movie(id: Int64)

        var baseURL: URL { URL(fileURLWithPath: "/") }
        var path: String {
            switch self {
            case .movie(let id): "/movie/\(id)"
            }
        }
    }

    struct Rating: Decodable, Sendable {
        let popularity: Double
    }

    struct BooksEndpoint: Endpoint {
        let name: String
        let page: PageRequest
        var baseURL: URL { URL(fileURLWithPath: "/") }
        var path: String { "/books/v1/volumes" }
        var queryItems: [URLQueryItem] {
            [URLQueryItem(name: "q", value: name)]
                + page.offsetQueryItems(offsetName: "startIndex", sizeName: "maxResults")
        }
    }

    struct DecodedVolumes: Decodable, Sendable {
        let items: [String]?
        let totalItems: Int
    }

    static func clientLayers(
        client: FetchClient, movies: [Movie], name: String,
        completionHandler: @escaping @Sendable (RefreshOutcome) -> Void
    ) async throws {
        let report = await client.fetchAll(
            movies, endpoint: { TMDB.movie(id: $0.remoteID) },
            extracting: .decode(Rating.self),
            changed: { movie, rating in rating.popularity != movie.popularity })
        completionHandler(report.outcome)

        let pages = client.pages(
            style: .offset(pageSize: 40), limits: .init(maximumPages: 10),
            endpoint: { BooksEndpoint(name: name, page: $0) },
            extracting: .decode(DecodedVolumes.self)
        ) { volumes in
            Page(items: volumes.items ?? [], totalItems: volumes.totalItems)
        }
        for try await page in pages { _ = page.items }

        let movie = movies[0]
        let update = FetchOperation(
            client: client, endpoint: TMDB.movie(id: movie.remoteID),
            extracting: .decode(Rating.self), changed: { $0.popularity != movie.popularity })
        _ = update
    }
}
