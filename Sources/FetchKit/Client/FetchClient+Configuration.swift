public import Dispatch
public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension FetchClient {
    /// Everything a ``FetchClient`` can be configured with, as one value.
    ///
    /// Start from the defaults and change what you need, usually through
    /// ``FetchClient/init(_:)``'s closure:
    ///
    /// ```swift
    /// let client = FetchClient { configuration in
    ///     configuration.timeout = .seconds(10)
    ///     configuration.adapters = [APIKeyAdapter(.query(name: "api_key"), value: key)]
    ///     configuration.apiFailureDetector = APIFailure.jsonField("stat", equals: "fail", code: "code", message: "message")
    /// }
    /// ```
    public struct Configuration: Sendable {
        /// A base URL that replaces every ``Endpoint``'s own ``Endpoint/baseURL``; `nil` (the
        /// default) keeps each endpoint's.
        ///
        /// Point one set of endpoints at another environment without a global variable:
        /// production, staging, or a `StubServer` in tests and offline runs. The whole base is
        /// replaced (scheme, host, port and base path); the endpoint's ``Endpoint/path`` and
        /// query are appended to it as usual:
        ///
        /// ```swift
        /// let staging = FetchClient { $0.baseURL = URL(string: "https://staging.example.com/3") }
        /// // TMDB.movie(id: 550) now goes to https://staging.example.com/3/movie/550
        /// ```
        ///
        /// Fetches of a plain `URL` are not affected.
        public var baseURL: URL?

        /// The timeout of a request whose endpoint names none; 60 seconds by default.
        ///
        /// The clock starts when an attempt is handed to the transport, not while the
        /// request waits for a free connection slot, and restarts for each retry.
        public var timeout: Duration = .seconds(60)

        /// The most requests in flight to one host at once; further requests wait in
        /// order. 6 by default, the connection limit of URLSession on Linux.
        public var maximumConnectionsPerHost: Int = 6

        /// The HTTP statuses that count as success; `200..<300` by default. Any other
        /// status fails with ``FetchError/Code-swift.struct/unacceptableStatus``.
        public var acceptableStatusCodes: Set<Int> = Set(200..<300)

        /// Finds failures that an API reports inside an acceptable response (such as
        /// Flickr's `{"stat":"fail"}` with status 200); `nil` by default.
        ///
        /// Return an ``APIFailure`` to fail the fetch with ``FetchError/Code-swift.struct/apiFailure``,
        /// or `nil` to accept the response. See ``APIFailure/jsonField(_:equals:code:message:)``.
        public var apiFailureDetector: (@Sendable (Data, HTTPURLResponse) -> APIFailure?)?

        /// When failed requests are sent again; ``RetryPolicy/default`` by default.
        public var retryPolicy: RetryPolicy = .default

        /// Adapters applied to every request, in order; none by default.
        ///
        /// The client adds the name each ``APIKeyAdapter`` puts its key under to its
        /// ``redactor``'s secret names.
        public var adapters: [any RequestAdapter] = []

        /// Observers told about every request; none by default.
        public var observers: [any FetchObserver] = []

        /// What is treated as secret when requests are described; ``Redactor/standard`` by default.
        public var redactor: Redactor = .standard

        /// The transport that sends requests, or `nil` (the default) for a
        /// ``URLSessionTransport`` with ``maximumConnectionsPerHost`` connections per host.
        public var transport: (any HTTPTransport)?

        /// The clock that times timeouts and the waits before retries; `ContinuousClock()` by default.
        ///
        /// Tests pass a `TestClock` from FetchKitTesting and advance it, so a 30-second
        /// timeout or a `Retry-After: 120` takes no real time and no test depends on how
        /// busy the machine is:
        ///
        /// ```swift
        /// let clock = TestClock()
        /// let client = FetchClient { $0.clock = clock }
        /// // … start a fetch whose server never answers, then:
        /// await clock.advance(by: .seconds(60))  // the fetch times out now
        /// ```
        public var clock: any Clock<Duration> = ContinuousClock()

        /// The HTTP cache that answers `GET` requests, or `nil` (the default) for none.
        ///
        /// With a cache, responses with `max-age` are served without a request while fresh,
        /// and stale ones are revalidated with `If-None-Match` / `If-Modified-Since`, a
        /// `304 Not Modified` costing no body. See ``HTTPCache``.
        public var cache: HTTPCache?

        /// Adds a token to every request and refreshes it once, for all requests at once,
        /// when the server rejects it; `nil` (the default) for none. See ``TokenAuthenticator``.
        ///
        /// The client adds the header or query-item name the token travels under to its
        /// ``redactor``'s secret names.
        public var authenticator: TokenAuthenticator?

        /// The shortest time between two progress reports of one request; 100 ms by default.
        public var progressInterval: Duration = .milliseconds(100)

        /// The queue completions run on when a `fetch` call names none.
        ///
        /// By default each client has its own serial queue, so completions of one client
        /// never run at the same time and need no run loop (a command-line program has
        /// none for `DispatchQueue.main` unless it calls `dispatchMain()`).
        public var callbackQueue: DispatchQueue?

        /// The folder where a multipart form with files is written while its request runs;
        /// `nil` (the default) for the system's temporary folder.
        ///
        /// Each form is written to a file of its own, named `FetchKit-upload-<UUID>.multipart`,
        /// and the file is removed when its request ends, however it ends (success, failure,
        /// cancellation, or a form that cannot be written). Only a process that is killed while
        /// a form is being sent leaves one behind: a program that sends large forms can name a
        /// folder of its own and empty it at launch. The folder must exist; when a form cannot be
        /// written there, the fetch fails with ``FetchError/Code-swift.struct/invalidRequest``
        /// naming it.
        public var temporaryDirectory: URL?

        /// Creates the default configuration.
        public init() {}
    }
}

extension FetchClient.Configuration {
    /// The error of one part of an answer that carries several, each with its own status (an
    /// item of a batch request): what a response of that status fails with, its body's excerpt
    /// scrubbed by the client's ``Redactor``.
    ///
    /// - Parameters:
    ///   - status: the part's status.
    ///   - body: the part's body.
    /// - Returns: the error.
    public func partError(status: Int, body: Data) -> FetchError {
        FetchError(
            code: .unacceptableStatus, statusCode: status,
            bodyExcerpt: redactor.scrub(Self.excerpt(of: body), secrets: []))
    }
}
