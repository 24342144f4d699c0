import Foundation
import Testing

@testable import FetchKit

/// Joining a plain base URL, a path and a query as text gives exactly the URL that the
/// `URLComponents` route gives, and bases that are not plain take that route.
@Suite("Endpoint URL joining")
struct EndpointURLJoinTests {
    static let bases = [
        "http://127.0.0.1:8080", "http://127.0.0.1:8080/", "https://api.themoviedb.org/3",
        "https://api.themoviedb.org/3/", "https://api.themoviedb.org/3//", "https://www.googleapis.com/books/v1",
        "http://localhost", "HTTPS://Example.COM/Api", "http://127.0.0.1:0", "http://h:65535/x",
    ]
    static let paths = [
        "", "/", "movie/550", "/movie/550", "/search/movie", "/volumes/Amélie & co", "a b/c?d#e", "/trailing/",
        "//double",
    ]
    static let queries: [[URLQueryItem]] = [
        [], [URLQueryItem(name: "query", value: "Fast & Furious"), URLQueryItem(name: "page", value: "1")],
        [URLQueryItem(name: "flag", value: nil)], [URLQueryItem(name: "q", value: "東京 +50%")],
    ]

    /// The `URLComponents` route, as `Endpoint.url(base:)` takes it for any base.
    static func viaComponents(_ base: String, _ path: String, _ query: [URLQueryItem]) -> URL? {
        guard let url = URL(string: base), var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        else { return nil }
        var basePath = components.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        let encodedPath = PercentEncoding.encodePath(path)
        components.percentEncodedPath =
            encodedPath.isEmpty ? basePath : basePath + (encodedPath.hasPrefix("/") ? "" : "/") + encodedPath
        if !query.isEmpty { components.percentEncodedQuery = PercentEncoding.encodeQuery(query) }
        return components.url
    }

    @Test(arguments: bases)
    func aPlainBaseJoinsToTheSameURLAsURLComponents(base: String) throws {
        for path in Self.paths {
            for query in Self.queries {
                let joined = try #require(PercentEncoding.joined(base, path: path, query: query))
                let expected = try #require(Self.viaComponents(base, path, query))
                #expect(joined.url.absoluteString == expected.absoluteString, "\(base) + \(path) + \(query)")
            }
        }
    }

    /// The join reads from the base's text whether the URL is http(s) with a host, and then
    /// skips ``URLValidation``; the two must agree, or a URL that cannot be fetched gets through.
    @Test(
        arguments: bases + [
            "ftp://files.example.com/pub", "file://localhost/tmp", "http://:8080", "http://:8080/v1", "HtTpS://h",
            "httpx://h", "htt://h", "h-ttp://h", "https2://h",
        ])
    func theJoinsOwnCheckAgreesWithURLValidation(base: String) throws {
        let joined = try #require(PercentEncoding.joined(base, path: "/movie", query: []))
        let validates: Bool
        do {
            try URLValidation.check(joined.url)
            validates = true
        } catch {
            validates = false
        }
        #expect(joined.isHTTPWithHost == validates, "\(base)")
    }

    @Test func anEndpointUnderAnFTPBaseIsAnInvalidURL() throws {
        struct Listing: Endpoint {
            let baseURL: URL
            var path: String { "/movies" }
        }
        let listing = Listing(baseURL: try #require(URL(string: "ftp://files.example.com/pub")))
        let error = #expect(throws: FetchError.self) { try listing.url() }
        #expect(error?.code == .invalidURL)
    }

    @Test(arguments: [
        "https://api.example.com/v1?api_version=2", "https://api.example.com/v1#top",
        "https://user:secret@api.example.com", "https://api.example.com/caf%C3%A9", "http://[::1]:8080",
        "https://", "https:///path", "relative/path", "http://host:", "http://host:/", "http://host:080",
        "http://host:080/v1",
    ])
    func aBaseThatIsNotPlainTakesTheComponentsRoute(base: String) {
        #expect(PercentEncoding.joined(base, path: "/movie", query: []) == nil)
    }

    @Test(arguments: ["http://host:", "http://host:/v1", "http://host:080"])
    func aBaseWithAnUnusualPortGetsTheURLThatURLComponentsWrites(base: String) throws {
        struct Movie: Endpoint {
            let baseURL: URL
            var path: String { "/movie" }
        }
        let endpoint = Movie(baseURL: try #require(URL(string: base)))
        let expected = try #require(Self.viaComponents(base, "/movie", []))
        #expect(try endpoint.url().absoluteString == expected.absoluteString)
    }

    @Test func anEndpointWithAQueryInItsBaseStillKeepsIt() throws {
        struct Search: Endpoint {
            let baseURL = URL(string: "https://api.example.com/v1?lang=en")!
            var path: String { "/search" }
            var queryItems: [URLQueryItem] { [URLQueryItem(name: "q", value: "a&b")] }
        }
        #expect(try Search().url().absoluteString == "https://api.example.com/v1/search?lang=en&q=a%26b")
    }
}
