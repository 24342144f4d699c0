import FetchKit
import FetchKitTesting
import Foundation
import Testing

@Suite("Endpoint encoding")
struct EndpointEncodingTests {
    static let hostileValues = [
        "Fast & Furious", "C++ = 100%", "a+b", "#1", "Amélie", "東京", "  spaced  out ", "", "a=b&c=d", "50%25",
        "?/:@!$'()*,;", "emoji 🎬",
    ]

    @Test("A hostile query value arrives at the server intact", arguments: hostileValues)
    func queryValueArrivesIntact(value: String) async throws {
        let server = StubServer()
        server.route("GET", "/search/movie", respond: .json("{}"))
        try server.start()
        defer { server.stop() }
        let endpoint = TestEndpoint(
            baseURL: server.baseURL, path: "/search/movie",
            queryItems: [URLQueryItem(name: "query", value: value), URLQueryItem(name: "page", value: "1")])
        _ = try await FetchClient().fetch(endpoint, extracting: .data)
        let request = try #require(server.receivedRequests.first)
        #expect(request.queryValue("query") == value)
        #expect(request.queryValue("page") == "1")
        #expect(request.queryItems.count == 2)
        // Reserved characters never travel unescaped inside a value.
        let rawValue = try #require(request.rawQuery?.split(separator: "&").first?.dropFirst("query=".count))
        #expect(!rawValue.contains { "&=+# ".contains($0) })
    }

    @Test("A hostile path segment arrives at the server intact", arguments: hostileValues.filter { !$0.isEmpty })
    func pathSegmentArrivesIntact(value: String) async throws {
        let server = StubServer()
        server.route("GET", "/shelf/*", respond: .json("{}"))
        try server.start()
        defer { server.stop() }
        let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/shelf/\(value)")
        _ = try await FetchClient().fetch(endpoint, extracting: .data)
        let request = try #require(server.receivedRequests.first)
        #expect(request.path == "/shelf/\(value)")
        #expect(request.rawQuery == nil)
    }

    @Test func keepsTheBaseURLsPathAndQuery() throws {
        let base = try #require(URL(string: "https://api.example.com/3/?language=en"))
        let endpoint = TestEndpoint(
            baseURL: base, path: "movie/550", queryItems: [URLQueryItem(name: "append", value: "a b")])
        #expect(try endpoint.url().absoluteString == "https://api.example.com/3/movie/550?language=en&append=a%20b")
    }

    @Test func itemWithoutValueIsSentAsBareName() throws {
        let base = try #require(URL(string: "https://api.example.com"))
        let endpoint = TestEndpoint(baseURL: base, path: "/x", queryItems: [URLQueryItem(name: "flag", value: nil)])
        #expect(try endpoint.url().absoluteString == "https://api.example.com/x?flag")
    }

    @Test func buildsMethodHeadersBodyAndTimeout() throws {
        struct Favourite: Encodable { var movieID: Int }
        let base = try #require(URL(string: "https://api.example.com"))
        let endpoint = TestEndpoint(
            baseURL: base, path: "/favourites", method: .post, headers: ["Accept": "application/json"],
            body: .json(Favourite(movieID: 550)), timeout: .seconds(3))
        let request = try endpoint.urlRequest()
        #expect(request.httpMethod == "POST")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(request.httpBody == Data(#"{"movieID":550}"#.utf8))
        #expect(request.timeoutInterval == 3)
    }

    @Test func sendsBodiesTheServerReceives() async throws {
        let server = StubServer()
        server.route("POST", "/form", respond: .status(204))
        try server.start()
        defer { server.stop() }
        let endpoint = TestEndpoint(
            baseURL: server.baseURL, path: "/form", method: .post,
            body: .form([URLQueryItem(name: "title", value: "Fast & Furious"), URLQueryItem(name: "n", value: "1+1")]))
        _ = try await FetchClient().fetch(endpoint, extracting: .data)
        let request = try #require(server.receivedRequests.first)
        #expect(request.method == "POST")
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(request.bodyText == "title=Fast%20%26%20Furious&n=1%2B1")
    }

    @Test func aBodyThatCannotBeEncodedFailsAsAnInvalidRequest() async throws {
        struct Bad: Encodable { var value = Double.nan }
        let base = try #require(URL(string: "http://127.0.0.1:9"))
        let endpoint = TestEndpoint(baseURL: base, path: "/x", method: .post, body: .json(Bad()))
        let error = await #expect(throws: FetchError.self) {
            try await FetchClient().fetch(endpoint, extracting: .data)
        }
        #expect(error?.code == .invalidRequest)
    }

    @Test(
        "A base URL that is not http(s) with a host is an invalid URL",
        arguments: ["ftp://example.com", "file:///tmp/x", "https:///nohost"])
    func nonHTTPBaseURLIsInvalid(base: String) throws {
        let url = try #require(URL(string: base))
        let endpoint = TestEndpoint(baseURL: url, path: "/x")
        let error = #expect(throws: FetchError.self) { try endpoint.url() }
        #expect(error?.code == .invalidURL)
    }

    @Test func methodsKnowWhetherTheyAreIdempotent() {
        #expect(HTTPMethod.get.isIdempotent)
        #expect(HTTPMethod.put.isIdempotent)
        #expect(HTTPMethod.delete.isIdempotent)
        #expect(!HTTPMethod.post.isIdempotent)
        #expect(!HTTPMethod.patch.isIdempotent)
        #expect(HTTPMethod(rawValue: "get") == .get)
    }
}
