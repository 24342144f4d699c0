import Dispatch
import Foundation
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches values over HTTP: one request call, `fetch`, that takes an ``Endpoint`` (a plain URL
/// is `.url(link)`) and an ``Extraction`` strategy, `async` or with a completion that runs
/// exactly once.
///
/// ```swift
/// let client = FetchClient { $0.adapters = [APIKeyAdapter(.query(name: "api_key"), value: key)] }
///
/// let movie = try await client.fetch(TMDB.movie(id: 550), extracting: .decode(Movie.self))
///
/// client.fetch(TMDB.movie(id: 550), extracting: .decode(Movie.self)) { result in
///     switch result {
///     case .success(let movie): print(movie.popularity)
///     case .failure(let error): print(error)  // secrets redacted
///     }
/// }
/// ```
///
/// The same call uploads a body (the endpoint's ``Endpoint/body``), downloads to a file
/// (``Extraction/file(to:)``), reports progress, and shares one request among callers that
/// give the same `sharing` key. The completion runs exactly once on every path: invalid URL,
/// transport error, timeout, unacceptable status, empty or undecodable body, API-reported
/// failure, cancellation before or during the request, and success. It runs in the caller's
/// isolation: on the main actor when the caller is on the main actor, on an actor when the
/// caller is that actor, and on the client's ``Configuration-swift.struct/callbackQueue``
/// from code isolated to no actor.
///
/// A client is thread-safe; share one per API. Requests are retried according to the
/// ``Configuration-swift.struct/retryPolicy``, limited per host, and cancelled through
/// their ``FetchTask``, a ``CancellationGroup``, ``cancelAll()``, or Swift task cancellation.
public final class FetchClient: Sendable {
    /// The configuration the client was created with.
    public let configuration: Configuration

    let transport: any HTTPTransport
    let limiter: HostLimiter
    let callbackQueue: DispatchQueue
    let running = CancellationGroup()
    /// The requests callers share by a key.
    let shared = SharedRequests()
    /// Whether ``stopRetrying()`` holds: read only when a request would start another attempt.
    let retriesStopped = Locked(false)
    private let nextID = Locked(0)

    /// Creates a client with a configuration.
    ///
    /// - Parameter configuration: the configuration.
    public init(configuration: Configuration) {
        var configuration = configuration
        if let authenticator = configuration.authenticator {
            // Wherever the token travels, it is redacted like a key.
            configuration.redactor = configuration.redactor.adding(authenticator.secretName)
        }
        // So is a key an adapter adds, under whatever name (TMDB's `session_id`).
        for case let adapter as APIKeyAdapter in configuration.adapters {
            configuration.redactor = configuration.redactor.adding(adapter.secretName)
        }
        self.configuration = configuration
        self.transport =
            configuration.transport
            ?? URLSessionTransport(maximumConnectionsPerHost: configuration.maximumConnectionsPerHost)
        let limit = configuration.maximumConnectionsPerHost
        // Look ahead only when the transport itself keeps the wire within the limit.
        let transportLimit = transport.connectionLimitPerHost ?? Int.max
        self.limiter = HostLimiter(limit: limit, lookAhead: transportLimit <= limit ? Self.lookAhead(limit) : 0)
        self.callbackQueue =
            configuration.callbackQueue ?? DispatchQueue(label: "FetchKit.FetchClient.callbacks", qos: .userInitiated)
    }

    /// Creates a client from the default configuration changed by `configure`.
    ///
    /// - Parameter configure: changes the default ``Configuration-swift.struct``.
    public convenience init(_ configure: (inout Configuration) -> Void = { _ in }) {
        var configuration = Configuration()
        configure(&configuration)
        self.init(configuration: configuration)
    }

    /// Cancels every request of this client that is still running. Later requests run normally.
    public func cancelAll() {
        running.cancelAll()
    }

    /// Cancels the request shared by `key` (`fetch(…, sharing: key)`) for every caller waiting
    /// for it: each one's completion runs with ``FetchError/Code-swift.struct/cancelled``, and each
    /// `async` call throws it; the request itself stops. A later fetch with the key starts a new
    /// request. Does nothing when no request of the key is in flight.
    ///
    /// ```swift
    /// client.fetch(.url(cover), extracting: .data, sharing: "cover-42") { result in … }
    /// client.cancelAll(sharing: "cover-42")  // the screen that wanted the cover is gone
    /// ```
    ///
    /// - Parameter key: the `sharing:` key of the request.
    public func cancelAll(sharing key: String) {
        shared.cancel(key: key)
    }

    /// Lets every running request finish the attempt it is making, and starts no further
    /// attempt for any request of this client until ``resumeRetrying()``: no retry, no re-send
    /// after a rejected token.
    ///
    /// A request waiting to retry ends at once with its last attempt's error; one whose attempt
    /// is in flight ends with that attempt's outcome, success or failure; a request started
    /// later makes one attempt. Use it to wind down without cutting a transfer short (a program
    /// asked to stop, an app moving to the background), where ``cancelAll()`` would throw away
    /// the work in flight.
    public func stopRetrying() {
        retriesStopped.withLock { $0 = true }
        running.stopRetrying()
    }

    /// Lets requests retry again after ``stopRetrying()``, from their next failure on.
    public func resumeRetrying() {
        retriesStopped.withLock { $0 = false }
    }

    /// The number of requests of this client that are still running.
    public var runningCount: Int { running.count }

    // MARK: Internals

    /// The transport's own timeout for an attempt the client times out after `timeout`: a
    /// backstop only, later than the client's clock, and at most a century (the client's own
    /// timer waits no longer either). FoundationNetworking turns a request's timeout into
    /// milliseconds in an `Int` and traps when they do not fit (from about 292 million years).
    static func sessionTimeout(for timeout: Duration) -> TimeInterval {
        min(timeout.timeInterval, 3_155_760_000) + 5
    }

    /// How many requests per host the client hands its transport ahead of time.
    static func lookAhead(_ limit: Int) -> Int { max(1, limit) }

    /// How many more requests than `limit` a fan-out may start at once so that the
    /// client's look-ahead has requests to hand over (0 when it does not look ahead).
    func fanOutLookAhead(forLimit limit: Int) -> Int {
        limiter.lookAhead > 0 && limit >= limiter.limit ? limiter.lookAhead : 0
    }

    func makeID() -> Int {
        nextID.withLock { id in
            id += 1
            return id
        }
    }

    /// Starts a request whose end goes to `handoff`, and returns it: not generic, so nothing
    /// here looks up generic metadata at run time.
    func execute(
        method: HTTPMethod, timeout: Duration, handoff: any ResultHandoff, downloadTo: URL? = nil,
        streams: Bool = false, group: CancellationGroup?, delivery: Delivery,
        progress: (@Sendable (TransferProgress) -> Void)? = nil, progressChannel: ProgressChannel? = nil,
        build: @Sendable () throws(FetchError) -> BuiltRequest
    ) -> RequestExecution {
        let execution = RequestExecution(
            id: makeID(), client: self, method: method, timeout: timeout, handoff: handoff, downloadTo: downloadTo,
            streams: streams, group: group, delivery: delivery, progress: progress, progressChannel: progressChannel)
        execution.begin(build: build)
        return execution
    }

    /// An endpoint's request, built against the client's base URL: what the callback and async
    /// fetches build (in a closure literal each, which, not escaping, allocates no context).
    func builtRequest(
        _ endpoint: some Endpoint, timeout: Duration, handling: BodyHandling = .stream
    ) throws(FetchError) -> BuiltRequest {
        try endpoint.builtRequest(
            defaultTimeout: timeout, base: configuration.baseURL, handling: handling,
            sessionTimeout: Self.sessionTimeout(for: timeout), temporaryDirectory: configuration.temporaryDirectory)
    }
}
