import ExampleSupport
import FetchKit
import FetchKitTesting
import Foundation

/// Where MustC's TMDB requests go and how they are authorised: the embedded offline server
/// (the default) or the real API with `--live`.
///
/// The key is configuration, added to every request by FetchKit's ``APIKeyAdapter`` as the
/// `api_key` query item; it is never printed, and FetchKit redacts it from every error. A
/// connection for the watchlist adds the user session (`session_id`) the same way.
struct TMDBConnection: Sendable {
    /// The variable that sets the live key.
    static let liveKeyVariable = "TMDB_API_KEY"
    /// The variable that overrides the key sent to the offline server (to see the invalid-key error).
    static let offlineKeyVariable = "MUSTC_OFFLINE_KEY"
    /// The variable that keeps offline popularity values fixed between runs (`fixed`) or lets them drift.
    static let offlinePopularityVariable = "MUSTC_OFFLINE_POPULARITY"
    /// The variable that sets the live user session, for the account's watchlist.
    static let liveSessionVariable = "TMDB_SESSION_ID"
    /// The variable that turns the offline network off (`off`): no request reaches the offline
    /// server, as on a machine without network.
    static let offlineNetworkVariable = "MUSTC_OFFLINE_NETWORK"
    /// The real API.
    static let liveBaseURL = URL(string: "https://api.themoviedb.org/3")

    /// The client every request goes through.
    let client: FetchClient
    /// `https://api.themoviedb.org/3`, or the offline server's `/3`.
    let baseURL: URL
    /// Whether requests reach the real API.
    let isLive: Bool
    /// The offline server, kept running while the connection lives.
    private let server: StubServer?
    /// Counts the responses the HTTP cache revalidated with `304 Not Modified`.
    private let cacheUses = CacheUseCounter()

    /// Connects to the real API with the key in `TMDB_API_KEY`, or starts the offline server.
    ///
    /// - Parameters:
    ///   - connections: the most requests in flight at once (FetchKit's per-host limit, 6 by
    ///     default, so a refresh's `--concurrency` above 6 is really used).
    ///   - cacheFolder: a folder for an HTTP cache on disk, kept between runs (and, offline,
    ///     the server's port, so the cache's keys still name it), or `nil` for no cache.
    ///   - watchlist: for the account's watchlist, the file that keeps the offline account's
    ///     watchlist between runs; the connection then sends the user session too (live, the
    ///     one in `TMDB_SESSION_ID`). `nil` for a connection without a session.
    /// - Throws: ``ExampleFailure`` when `--live` has no key (or, for the watchlist, no session),
    ///   the offline settings are wrong, or the offline server cannot start.
    init(
        live: Bool, program: ExampleProgram, environment: [String: String],
        connections: Int = FanOut.defaultMaximumConcurrency, cacheFolder: URL? = nil, watchlist: URL? = nil
    ) throws(ExampleFailure) {
        let key: String
        var session: String?
        if live {
            key = try program.liveKey(from: Self.liveKeyVariable, environment: environment)
            if watchlist != nil {
                guard let value = environment[Self.liveSessionVariable], !value.isEmpty else {
                    throw ExampleFailure(
                        "the TMDB watchlist needs a user session in \(Self.liveSessionVariable)",
                        fix: "create one with TMDB's sign-in flow (authentication/token/new, approve it, "
                            + "authentication/session/new) and set \(Self.liveSessionVariable) to its session_id")
                }
                session = value
            }
            guard let url = Self.liveBaseURL else {
                throw ExampleFailure(
                    "the TMDB base URL is malformed", fix: "this is a bug in the example; please report it")
            }
            baseURL = url
            server = nil
        } else {
            let driftSeed = try Self.driftSeed(environment[Self.offlinePopularityVariable])
            let networkOff = try Self.networkOff(environment[Self.offlineNetworkVariable])
            let portFile = cacheFolder?.appendingPathComponent("offline-port")
            let earlierPort = portFile.flatMap { try? String(contentsOf: $0, encoding: .utf8) }.flatMap {
                UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            let server = try OfflineServers.start("TMDB") {
                try OfflineServers.tmdb(driftSeed: driftSeed, port: earlierPort ?? 0, watchlist: watchlist)
            }
            if let portFile, let folder = cacheFolder {
                try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try? Data("\(server.port)\n".utf8).write(to: portFile, options: .atomic)
            }
            baseURL = server.baseURL.appendingPathComponent("3")
            if networkOff {
                // Its port closed: every request is refused, as without network.
                server.stop()
                self.server = nil
            } else {
                self.server = server
            }
            key = environment[Self.offlineKeyVariable].flatMap { $0.isEmpty ? nil : $0 } ?? OfflineServers.offlineKey
            if watchlist != nil { session = OfflineServers.offlineSession }
        }
        isLive = live
        // A cache that cannot be opened (a read-only folder) only costs the 304s.
        let cache = cacheFolder.flatMap { try? HTTPCache(directory: $0.appendingPathComponent("http")) }
        let cacheUses = self.cacheUses
        client = FetchClient { configuration in
            configuration.cache = cache
            configuration.observers = [cacheUses]
            configuration.adapters =
                [APIKeyAdapter(.query(name: "api_key"), value: key)]
                + (session.map { [APIKeyAdapter(.query(name: "session_id"), value: $0)] } ?? [])
            // A live run without network fails after the retries, in well under a minute.
            configuration.timeout = live ? .seconds(15) : .seconds(10)
            configuration.retryPolicy = RetryPolicy(maximumRetries: live ? 2 : 0)
            configuration.maximumConnectionsPerHost = max(connections, FanOut.defaultMaximumConcurrency)
        }
    }

    /// The drift seed for the offline catalogue: a fresh random one per run, or nil for fixed values.
    private static func driftSeed(_ setting: String?) throws(ExampleFailure) -> UInt64? {
        switch setting?.lowercased() {
        case nil, "", "drift": return UInt64.random(in: 1...UInt64.max)
        case "fixed": return nil
        case let other?:
            throw ExampleFailure(
                "\(offlinePopularityVariable) must be 'fixed' or 'drift', not '\(other)'",
                fix: "unset it, or set fixed or drift")
        }
    }

    /// Whether the offline network is off: `off` (or `down`) turns it off; unset or `on` leaves it on.
    private static func networkOff(_ setting: String?) throws(ExampleFailure) -> Bool {
        switch setting?.lowercased() {
        case nil, "", "on", "up": return false
        case "off", "down": return true
        case let other?:
            throw ExampleFailure(
                "\(offlineNetworkVariable) must be 'off' or 'on', not '\(other)'", fix: "unset it, or set off or on")
        }
    }

    /// The number of responses the HTTP cache revalidated with `304 Not Modified` so far.
    var notModifiedCount: Int { cacheUses.notModified }

    /// The most requests the offline server has had in flight at once; nil when live.
    var offlinePeakRequests: Int? {
        server?.maxRequestsInFlight
    }

    /// The search request for a title, released in `year` if one is given.
    func search(_ title: String, year: Int? = nil) -> TMDBEndpoint {
        TMDBEndpoint(baseURL: baseURL, route: .searchMovie(title: title, year: year))
    }

    /// The detail request for a TMDB id.
    func movie(_ id: Int64) -> TMDBEndpoint {
        TMDBEndpoint(baseURL: baseURL, route: .movie(id: id))
    }

    /// One line a person can act on, for a failed request (never containing the key).
    func explain(_ error: any Error) -> String {
        guard let error = error as? FetchError else {
            return String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        let status = Self.tmdbStatus(in: error.bodyExcerpt)
        let reported = status.message.map { message in (status.code.map { "status_code \($0), " } ?? "") + message }
        switch error.code {
        case _ where Self.isUnreachable(error):
            return "cannot reach \(place): \(error.description)"
        case .unacceptableStatus where error.statusCode == 401 && status.code == 3:
            let hint =
                isLive
                ? "set \(Self.liveSessionVariable) to the session_id of a new TMDB session" : "this is a bug in the example"
            return "TMDB refused the user session (HTTP 401\(reported.map { ": \($0)" } ?? "")); \(hint)"
        case .unacceptableStatus where error.statusCode == 401:
            let variable = isLive ? Self.liveKeyVariable : Self.offlineKeyVariable
            let hint = isLive ? "set \(variable) to a valid TMDB API key" : "unset \(variable) to use the offline key"
            return "TMDB refused the API key (HTTP 401\(reported.map { ": \($0)" } ?? "")); \(hint)"
        case .unacceptableStatus where error.statusCode == 404:
            return "TMDB has no such movie (HTTP 404\(reported.map { ": \($0)" } ?? ""))"
        default:
            return error.description
        }
    }

    /// The TMDB requests go to, as messages name it.
    var place: String { isLive ? "TMDB (api.themoviedb.org)" : "the offline TMDB server" }

    /// Whether a failed request never reached TMDB (no network, no answer), so trying again later
    /// may work.
    static func isUnreachable(_ error: any Error) -> Bool {
        guard let error = error as? FetchError else { return false }
        return [.transportFailed, .timedOut, .connectionLost].contains(error.code)
    }

    /// TMDB's own `status_code` and `status_message` from an error body, if it has them.
    private static func tmdbStatus(in body: String?) -> (code: Int?, message: String?) {
        guard let body, let data = body.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return (nil, nil) }
        return ((object["status_code"] as? NSNumber)?.intValue, object["status_message"] as? String)
    }
}

/// Counts what the HTTP cache did for finished requests.
final class CacheUseCounter: FetchObserver {
    private let count = Protected(0)

    var notModified: Int { count.withLock { $0 } }

    func requestDidFinish(_ request: RequestSummary, metrics: FetchMetrics) {
        if metrics.cacheUse == .notModified { count.withLock { $0 += 1 } }
    }
}
