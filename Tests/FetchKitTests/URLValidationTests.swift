import Foundation
import Testing

@testable import FetchKit

/// The host key read from a plain URL's text is the key `URL`'s own getters give, and any
/// other shape is left to the getters.
@Suite("URL validation")
struct URLValidationTests {
    /// The key `URL`'s getters give: the host, and the port or the scheme's default.
    private func keyFromGetters(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { return nil }
        return host + ":" + String(url.port ?? (scheme == "https" ? 443 : 80))
    }

    @Test(arguments: [
        ("http://example.com", "example.com:80"),
        ("https://Example.COM/a?b#c", "Example.COM:443"),
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
}
