import FetchKit
import Foundation

/// The code samples of the documentation, compiled (never run) so they stay honest.
enum CodeSamples {
    struct Movie: Decodable, Sendable {
        var id: Int64
        var popularity: Double
    }

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
            if case .search(let title) = self { [URLQueryItem(name: "query", value: title)] } else { [] }
        }
    }

    static func landingPage(apiKey: String) async throws {
        let client = FetchClient { configuration in
            configuration.adapters = [APIKeyAdapter(.query(name: "api_key"), value: apiKey)]
        }
        client.fetch(TMDB.search("Fast & Furious"), extracting: .decode(Movie.self, at: "results.first")) { result in
            print(result)
        }
        let movie = try await client.fetch(TMDB.movie(id: 550), extracting: .decode(Movie.self))
        print(movie.popularity)
    }

    static func errors(client: FetchClient) async {
        do {
            let movie = try await client.fetch(TMDB.movie(id: 550), extracting: .decode(Movie.self))
            print(movie)
        } catch FetchError.Code.unacceptableStatus {
            print("status")
        } catch FetchError.Code.timedOut, FetchError.Code.transportFailed {
            print("network")
        } catch {
            print(error)
        }
    }

    static func configuration(key: String) -> FetchClient {
        FetchClient { configuration in
            configuration.timeout = .seconds(10)
            configuration.adapters = [APIKeyAdapter(.query(name: "api_key"), value: key)]
            configuration.apiFailureDetector = APIFailure.jsonField(
                "stat", equals: "fail", code: "code", message: "message")
            configuration.retryPolicy = RetryPolicy(maximumRetries: 3, baseDelay: .milliseconds(200), jitter: 0.3)
            configuration.observers = [FetchLogger()]
        }
    }

    // RetriesAndCancellation.md, "Winding down without cancelling".
    static func programWasAskedToStop(_ client: FetchClient) {
        client.stopRetrying()  // the attempts in flight finish; no new attempt starts
    }

    static func searches(client: FetchClient, searches: CancellationGroup, text: String) {
        searches.cancelAll()
        client.fetch(TMDB.search(text), extracting: .data, group: searches) { result in
            print(result)
        }
    }
}

extension CodeSamples {
    // RetriesAndCancellation.md, "Cancelling handles of any kind" and "Cancelling a shared request".
    static func handles(client: FetchClient, cover: URL) {
        var loads: [any CancellableFetch] = []
        loads.append(client.fetch(.url(cover), extracting: .data) { result in print(result) })
        loads.append(client.fetch(TMDB.movie(id: 550), extracting: .decode(Movie.self)) { result in print(result) })
        for load in loads { load.cancel() }
    }

    static func handlesInAsyncCode(client: FetchClient, cover: URL) async throws {
        let task = client.fetch(.url(cover), extracting: .data, completion: nil)
        let loads: [any CancellableFetch] = [task]
        for load in loads { load.cancel() }
        _ = try await task.value  // throws FetchError.cancelled
    }

    static func sharedCover(client: FetchClient, cover: URL) async throws {
        client.fetch(.url(cover), extracting: .data, sharing: "cover-42") { result in print(result) }
        client.cancelAll(sharing: "cover-42")  // the screen that wanted the cover is gone
    }
}

/// The samples of `TraceParent`'s and `TraceContextAdapter`'s doc comments, as printed.
enum TraceContextSamples {
    static func traceParent() {
        let trace = TraceParent.random()
        print(trace)  // 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01
    }

    enum Tracing {
        @TaskLocal static var span: TraceParent?
    }

    static func adapter() async throws {
        let client = FetchClient {
            $0.adapters.append(TraceContextAdapter(hosts: ["api.example.com"]) { Tracing.span })
        }
        try await Tracing.$span.withValue(TraceParent.random()) {
            _ = try await client.fetch(.url(URL(string: "https://api.example.com/v1/books")), extracting: .data)
        }
    }
}

/// The samples of `Extraction.acceptingEveryStatus()` and `Extraction.response`, compiled.
enum WholeResponseSamples {
    enum Notes: Endpoint {
        case delete(String)
        var baseURL: URL { URL(string: "https://notes.example.com/v1") ?? URL(fileURLWithPath: "/") }
        var path: String {
            if case .delete(let id) = self { "/notes/\(id)" } else { "" }
        }
        var method: HTTPMethod { .delete }
    }

    enum GitHub: Endpoint {
        case issues(String)
        var baseURL: URL { URL(string: "https://api.github.com") ?? URL(fileURLWithPath: "/") }
        var path: String {
            if case .issues(let repository) = self { "/repos/\(repository)/issues" } else { "" }
        }
    }

    static func everyStatus(client: FetchClient, id: String) async throws {
        let (status, text) = try await client.fetch(
            Notes.delete(id),
            extracting: Extraction.custom { data, response in
                (response.statusCode, String(decoding: data, as: UTF8.self))
            }.acceptingEveryStatus())
        print(status, text)
    }

    static func response(client: FetchClient, repository: String) async throws {
        let page = try await client.fetch(GitHub.issues(repository), extracting: .response)
        let next = page.value(forHTTPHeaderField: "Link")
        print(next ?? "")
    }
}
