import ExampleSupport
import FetchKit
import FetchKitTesting
import Foundation

/// Where the books come from: the offline server on 127.0.0.1 (the default), with `--live` the
/// real Google Books API, or the Google Books–compatible server named by `BOOKLAB_API_URL`
/// (a mirror, or a test serving recorded responses). The same endpoints and decoding serve all.
final class BookSource: Sendable {
    /// The client every request goes through.
    let client: FetchClient
    /// The API's base URL, ending in `/books/v1`.
    let baseURL: URL
    /// Whether this is the real API.
    let isLive: Bool
    private let server: StubServer?

    /// The variable naming another Google Books–compatible server, such as `http://127.0.0.1:8080/books/v1`.
    static let serverVariable = "BOOKLAB_API_URL"

    /// Starts the offline server, or prepares the live client.
    ///
    /// - Parameters:
    ///   - live: whether to talk to the real API.
    ///   - environment: the process environment, read for ``serverVariable``.
    /// - Throws: ``ExampleFailure`` when the offline server cannot open a loopback port, or
    ///   ``serverVariable`` is not an http(s) URL.
    init(live: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) throws(ExampleFailure) {
        isLive = live
        if !live, let text = environment[Self.serverVariable], !text.isEmpty {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw ExampleFailure(
                    "\(Self.serverVariable) must be an http or https URL, not '\(text)'",
                    fix: "unset it to use the built-in catalogue")
            }
            server = nil
            baseURL = url
            client = FetchClient { configuration in
                configuration.timeout = .seconds(10)
                configuration.retryPolicy = .none
            }
        } else if live {
            guard let url = GoogleBooks.liveBaseURL else {
                throw ExampleFailure(
                    "the Google Books URL is invalid", fix: "this is a bug in the example; please report it")
            }
            server = nil
            baseURL = url
            // A live run without network must fail within seconds, not hang: a short timeout
            // and a single retry bound it to about 20 seconds even when packets vanish.
            client = FetchClient { configuration in
                configuration.timeout = .seconds(10)
                configuration.retryPolicy = RetryPolicy(maximumRetries: 1)
            }
        } else {
            let server = try OfflineServers.start("Google Books") { try OfflineServers.googleBooks() }
            self.server = server
            baseURL = server.baseURL.appendingPathComponent("books/v1")
            client = FetchClient { configuration in
                configuration.timeout = .seconds(10)
                configuration.retryPolicy = .none
            }
        }
    }

    /// What to call the source in messages.
    var name: String {
        if isLive { return "Google Books" }
        return server == nil ? "Google Books at \(baseURL.absoluteString)" : "the offline Google Books catalogue"
    }

    /// Stops the offline server, if one runs.
    func stop() {
        server?.stop()
    }

    /// Turns a fetch failure into one line a person can act on.
    ///
    /// - Parameter error: what the fetch threw.
    /// - Returns: the failure to report.
    func failure(_ error: any Error) -> ExampleFailure {
        let unreachable = (error as? FetchError).map({ [.transportFailed, .timedOut].contains($0.code) }) == true
        let fix =
            isLive && unreachable
            ? "check that this machine is online, or leave out --live to use the built-in catalogue"
            : unreachable ? "try again in a moment" : nil
        return ExampleFailure("cannot search \(name): \(error)", fix: fix)
    }
}
