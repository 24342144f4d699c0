import FetchKit
import FetchKitTesting
import Foundation
import Testing

@Suite("Fetch basics")
struct FetchBasicsTests {
    @Test func fetchesAndDecodesThroughTheCallbackAndAsyncForms() async throws {
        let server = StubServer()
        server.route("GET", "/movie/550", respond: .json(#"{"id":550,"title":"Fight Club","popularity":61.4}"#))
        try server.start()
        defer { server.stop() }
        let client = FetchClient()
        let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/movie/550")
        let result = await completion { done in client.fetch(endpoint, extracting: .decode(Movie.self), completion: done) }
        #expect(try result?.get() == Movie(id: 550, title: "Fight Club", popularity: 61.4))
        let movie = try await client.fetch(endpoint, extracting: .decode(Movie.self))
        #expect(movie.title == "Fight Club")
        let text = try await client.fetch(server.url("/movie/550"), extracting: .string)
        #expect(text.contains("Fight Club"))
    }
}
