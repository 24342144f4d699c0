import Foundation

/// Checks that a URL can be fetched over HTTP.
enum URLValidation {
    static func check(_ url: URL?) throws(FetchError) {
        guard let url else { throw FetchError(code: .invalidURL, detail: "the URL is nil") }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw FetchError(code: .invalidURL, detail: "the scheme is not http or https")
        }
        guard let host = url.host, !host.isEmpty else {
            throw FetchError(code: .invalidURL, detail: "the URL has no host")
        }
    }
}
