import Foundation
import Testing

@testable import FetchKit

/// The host key read from a plain URL's text is the key `URL`'s own getters give, and any
/// other shape is left to the getters.
@Suite("URL validation")
struct URLValidationTests {
    /// The key `URL`'s getters give: the host in lower case, and the port or the scheme's default.
    private func keyFromGetters(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { return nil }
        return host.lowercased() + ":" + String(url.port ?? (scheme == "https" ? 443 : 80))
    }

    @Test(arguments: [
        ("http://example.com", "example.com:80"),
        ("https://Example.COM/a?b#c", "example.com:443"),
        ("http://h:0/", "h:0"),
        ("http://h:65535/", "h:65535"),
        ("HTTP://h:080/x", "h:80"),
        ("http://127.0.0.1:8080/movie", "127.0.0.1:8080"),
        ("https://a.b-c_d~e:8443", "a.b-c_d~e:8443"),
        ("http://h?x", "h:80"),
        ("http://h#f", "h:80"),
    ])
    func aPlainURLsHostKeyIsReadFromItsText(_ text: String, _ key: String) throws {
        let url = try #require(URL(string: text))
        #expect(URLValidation.plainHostKey(url.absoluteString) == key)
        #expect(keyFromGetters(url) == key)
        #expect(try URLValidation.hostKey(of: url) == key)
    }

    @Test(arguments: ["http://h:/x", "http://user@h/x", "http://[::1]:80/", "http://h%41/x", "ftp://h/", "http:///x"])
    func anyOtherShapeIsLeftToTheGetters(_ text: String) throws {
        let url = try #require(URL(string: text))
        #expect(URLValidation.plainHostKey(url.absoluteString) == nil)
        let fromGetters = keyFromGetters(url)
        #expect((try? URLValidation.hostKey(of: url)) == fromGetters)
    }

    /// Bases an endpoint's URL is built on: plain ones, whose key the build reads from the
    /// text, and others, whose key is read from the URL.
    @Test(arguments: [
        "http://example.com", "https://Example.COM", "HTTPS://API.themoviedb.org/3/", "http://127.0.0.1:8080",
        "http://h:0", "http://h:65535/v1", "http://h:65536", "http://h:123456", "http://h:080", "http://h:",
        "http://user@h", "http://[::1]:8080", "http://h%41", "ftp://h", "https://h/a%20b",
    ])
    func theKeyAnEndpointsBuildReadsIsTheKeyOfItsURL(_ base: String) throws {
        struct Probe: Endpoint {
            var baseURL: URL
            var path: String { "movie/550" }
            var queryItems: [URLQueryItem] { [URLQueryItem(name: "q", value: "Fast & Furious")] }
        }
        let probe = Probe(baseURL: try #require(URL(string: base)))
        let location: (url: URL, hostKey: String?)
        do {
            location = try probe.located(base: nil)
        } catch {
            // A base that makes no URL to fetch has no key either.
            #expect(throws: FetchError.self) { try URLValidation.hostKey(of: probe.baseURL) }
            return
        }
        let key = try URLValidation.hostKey(of: location.url)
        #expect(key == keyFromGetters(location.url))
        if let read = location.hostKey { #expect(read == key) }
    }

    @Test func aPlainBasesKeyIsReadWhileTheURLIsBuilt() throws {
        struct Probe: Endpoint {
            var baseURL: URL
            var path: String { "/movie" }
        }
        let probe = Probe(baseURL: try #require(URL(string: "https://API.Example.com:8443/v3")))
        #expect(try probe.located(base: nil).hostKey == "api.example.com:8443")
    }
}
