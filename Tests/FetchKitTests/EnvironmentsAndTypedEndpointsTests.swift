import FetchKit
import FetchKitTesting
import Foundation
import Testing

/// An endpoint enum as an app writes it, with a hard-coded production base URL.
private enum CatalogRoute: Endpoint {
    case movie(Int)
    case search(String)

    var baseURL: URL { URL(string: "https://api.themoviedb.org/3")! }
    var path: String {
        switch self {
        case .movie(let id): "/movie/\(id)"
        case .search: "/search/movie"
        }
    }
    var queryItems: [URLQueryItem] {
        switch self {
        case .movie: []
        case .search(let query): [URLQueryItem(name: "query", value: query)]
        }
    }

}

/// The API as call sites see it: each request paired with its response type.
private enum Catalog {
    struct Movie: Decodable, Sendable, Equatable {
        var id: Int
        var title: String
    }

    static func movie(id: Int) -> TypedRequest<Movie> { TypedRequest(CatalogRoute.movie(id)) }
    static func firstResult(of query: String) -> TypedRequest<Movie> {
        TypedRequest(CatalogRoute.search(query), at: "results.first")
    }
}

/// An endpoint type that declares its response itself.
private struct Ping: Endpoint {
    typealias Response = String
    var baseURL: URL
    var path: String { "/ping" }
    var extraction: Extraction<String> { .string }
}

@Suite("Environments and typed endpoints")
struct EnvironmentsAndTypedEndpointsTests {
    let server = StubServer()

    init() throws {
        server.route("GET", "/3/movie/550", respond: .json(#"{"id":550,"title":"Fight Club"}"#))
        server.route(
            "GET", "/3/search/movie", query: ["query": "heat"],
            respond: .json(#"{"results":[{"id":949,"title":"Heat"},{"id":1,"title":"Other"}]}"#))
        server.route("GET", "/ping", respond: .text("pong"))
        try server.start()
    }

    @Test func aClientBaseURLPointsAHardCodedEndpointAtAnotherServer() async throws {
        defer { server.stop() }
        let client = FetchClient { $0.baseURL = server.url("/3") }
        let movie = try await client.fetch(Catalog.movie(id: 550))
        #expect(movie == Catalog.Movie(id: 550, title: "Fight Club"))
        #expect(server.requests(to: "/3/movie/550").count == 1)
        // The query of the endpoint survives the change of base.
        let first = try await client.fetch(Catalog.firstResult(of: "heat"))
        #expect(first.title == "Heat")
    }

    @Test func withoutABaseURLTheEndpointKeepsItsOwn() throws {
        let request = try Catalog.movie(id: 550).urlRequest()
        #expect(request.url?.absoluteString == "https://api.themoviedb.org/3/movie/550")
        let staged = try Catalog.movie(id: 550).urlRequest(base: URL(string: "https://staging.example.com/v3/")!)
        #expect(staged.url?.absoluteString == "https://staging.example.com/v3/movie/550")
    }

    @Test func theCallbackFormInfersTheTypeToo() async throws {
        defer { server.stop() }
        let client = FetchClient { $0.baseURL = server.url("/3") }
        let result = await withCheckedContinuation { continuation in
            client.fetch(Catalog.movie(id: 550)) { continuation.resume(returning: $0) }
        }
        #expect(try result.get().title == "Fight Club")
    }

    @Test func anEndpointTypeCanDeclareItsResponseAndExtraction() async throws {
        defer { server.stop() }
        let pong = try await FetchClient().fetch(Ping(baseURL: server.baseURL))
        #expect(pong == "pong")
    }

    @Test func aTypedFetchFailsAsAnyOtherWithAFetchError() async throws {
        defer { server.stop() }
        let client = FetchClient {
            $0.baseURL = server.url("/3")
            $0.retryPolicy = .none
        }
        let error = await #expect(throws: FetchError.self) { try await client.fetch(Catalog.movie(id: 1)) }
        #expect(error?.code == .unacceptableStatus)
        #expect(error?.statusCode == 404)
    }

    @Test func aStubServerListensOnTheChosenPortAndRefusesATakenOne() throws {
        defer { server.stop() }
        let chosen = StubServer()
        // A port that is free right now: one the system just handed out and released.
        let probe = StubServer()
        try probe.start()
        let port = probe.port
        probe.stop()
        try chosen.start(port: port)
        defer { chosen.stop() }
        #expect(chosen.port == port)
        #expect(chosen.baseURL.absoluteString == "http://127.0.0.1:\(port)")
        let other = StubServer()
        #expect(throws: StubServerError.self) { try other.start(port: server.port) }
        #expect(!other.isRunning)
    }
}

@Suite("Fan-out report items")
struct FanOutReportItemsTests {
    @Test func changedItemsCarryTheIndexAndValueOfEachChangedItemInOrder() async {
        let report = await FanOut(maximumConcurrency: 3).run(
            Array(0..<10), changed: { element, value in value % 3 == 0 && element != 6 }
        ) { element -> Int in
            if element == 9 { throw CancellationError() }
            return element * 10
        }
        #expect(report.changedItems.map(\.index) == [0, 3])
        #expect(report.changedItems.map(\.value) == [0, 30])
        #expect(report.changedCount == 2)
        #expect(report.failedCount == 1)
    }
}
