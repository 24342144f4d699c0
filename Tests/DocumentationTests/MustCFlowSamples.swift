import FetchKit
import FetchKitOperations
import FetchKitTesting
import Foundation
import Persistence
import TestSupport
import Testing

/// The "ours" side of the `FlowMustC` article, piece by piece.
enum MustCFlow {
    // MARK: 1. The endpoint enum

    enum TMDB: Endpoint {
        case search(String)
        case movie(id: Int64)

        var baseURL: URL { URL(string: "https://api.themoviedb.org/3") ?? URL(fileURLWithPath: "/") }
        var path: String {
            switch self {
            case .search: "/search/movie"
            case .movie(let id): "/movie/\(id)"
            }
        }
        var queryItems: [URLQueryItem] {
            switch self {
            case .search(let title): [URLQueryItem(name: "query", value: title)]
            case .movie: []
            }
        }
    }

    // MARK: 2. The key is configuration

    static func makeClient() -> FetchClient {
        let key = ProcessInfo.processInfo.environment["TMDB_API_KEY"] ?? ""
        return FetchClient { configuration in
            configuration.adapters = [APIKeyAdapter(.query(name: "api_key"), value: key)]
        }
    }

    // MARK: 4. One fetch, one strategy, one typed result

    struct Rating: Decodable, Sendable {
        var id: Int64
        var popularity: Double
    }

    static func fetchRating(
        client: FetchClient, title: String,
        completion: @escaping @Sendable (Result<Rating, FetchError>) -> Void
    ) {
        client.fetch(TMDB.search(title), extracting: .decode(Rating.self, at: "results.first")) { result in
            completion(result)  // exactly once, on every path
        }
    }

    // MARK: 5. Typed errors

    static func describe(_ error: FetchError) -> String {
        switch error.code {
        case .invalidRequest: "Set TMDB_API_KEY to your TMDB key."
        case .unacceptableStatus where error.statusCode == 401: "TMDB refused the key."
        case .unacceptableStatus where error.statusCode == 404: "TMDB does not know this movie."
        case .timedOut, .transportFailed: "TMDB could not be reached; try again later."
        case .decodingFailed: "TMDB's answer had no movie: \(error)"
        case .cancelled: "Cancelled."
        default: "\(error)"
        }
    }

    // MARK: 6. persist

    struct Movie: StoredEntity {
        var id: Int64  // TMDB's id, the remote id
        var title: String
        var popularity: Double?

        static let title = Field<Movie, String>("title")
    }

    static func add(title: String, client: FetchClient, store: ObjectStore) async throws {
        let rating = try await client.fetch(TMDB.search(title), extracting: .decode(Rating.self, at: "results.first"))
        try await store.context.persist { tx in
            try tx.upsert(Movie(id: rating.id, title: title, popularity: rating.popularity))
        }
    }

    // MARK: 7. DispatchGroup → fetchAll

    static func refresh(client: FetchClient, store: ObjectStore) async throws -> RefreshOutcome {
        let movies = try await store.context.read { tx in try tx.fetch(Query<Movie>()) }
        let report = await client.fetchAll(
            movies, endpoint: { TMDB.movie(id: $0.id) }, extracting: .decode(Rating.self),
            changed: { movie, rating in rating.popularity != movie.popularity })
        try await store.context.persist { tx in
            // Only the items `changed` said yes to, each with its fetched rating: nothing is compared twice.
            for item in report.changedItems {
                guard var movie = try tx.fetch(Movie.self, id: movies[item.index].id) else { continue }
                movie.popularity = item.value.popularity
                try tx.update(movie)
            }
        }
        return report.outcome  // .newData, .noData or .failed
    }

    // MARK: 8. OperationQueue → FetchOperation + addRefresh

    static func refreshWithOperations(
        client: FetchClient, movies: [Movie], completionHandler: @escaping @Sendable (RefreshOutcome) -> Void
    ) {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = FanOut.defaultMaximumConcurrency
        let updates = movies.map { movie in
            FetchOperation(
                client: client, endpoint: TMDB.movie(id: movie.id), extracting: .decode(Rating.self),
                changed: { $0.popularity != movie.popularity })
        }
        queue.addRefresh(updates) { outcome in completionHandler(outcome) }
    }
}

@Suite struct MustCFlowSampleTests {
    @Test func searchTitleWithAmpersandArrivesIntact() throws {
        let url = try MustCFlow.TMDB.search("Fast & Furious").url()
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
        #expect(query == [URLQueryItem(name: "query", value: "Fast & Furious")])
        #expect(url.absoluteString.hasSuffix("/search/movie?query=Fast%20%26%20Furious"))
    }

    @Test func missingKeyIsATypedErrorThatSaysWhatToDo() async throws {
        let client = FetchClient { $0.adapters = [APIKeyAdapter(.query(name: "api_key"), value: "")] }
        do {
            _ = try await client.fetch(MustCFlow.TMDB.movie(id: 550), extracting: .data)
            Issue.record("a request without a key was sent")
        } catch {
            #expect(error.code == .invalidRequest)
            #expect(MustCFlow.describe(error) == "Set TMDB_API_KEY to your TMDB key.")
        }
    }
}
