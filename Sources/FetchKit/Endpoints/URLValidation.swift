import Foundation

/// Checks that a URL can be fetched over HTTP.
enum URLValidation {
    /// Throws ``FetchError/Code-swift.struct/invalidURL`` unless `url` is http or https with a host.
    static func check(_ url: URL?) throws(FetchError) {
        _ = try validated(url)
    }

    /// Checks `url` as ``check(_:)`` does and returns its `host:port` (the port the scheme
    /// implies when the URL names none): the key of the requests that share a server.
    static func hostKey(of url: URL?) throws(FetchError) -> String {
        let (url, scheme, host) = try validated(url)
        return host + ":" + String(url.port ?? (scheme == "https" ? 443 : 80))
    }

    /// The URL with its lowercased scheme and its host, or the error that says what is missing.
    private static func validated(_ url: URL?) throws(FetchError) -> (url: URL, scheme: String, host: String) {
        guard let url else { throw FetchError(code: .invalidURL, detail: "the URL is nil") }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw FetchError(code: .invalidURL, detail: "the scheme is not http or https")
        }
        guard let host = url.host, !host.isEmpty else {
            throw FetchError(code: .invalidURL, detail: "the URL has no host")
        }
        return (url, scheme, host)
    }
}
