import FetchKitTesting
import Foundation

extension OfflineServers {
    /// The TMDB user session the offline server accepts (`session_id`), as a live run's
    /// `TMDB_SESSION_ID` would be.
    public static let offlineSession = "offline-fixture-session"
    /// The offline TMDB account: what `GET /3/account` answers for ``offlineSession``.
    public static let offlineAccount = (id: Int64(21_000_001), username: "mustc-family")
    /// The movies on the offline account's watchlist when its file does not exist yet, oldest
    /// first, as if put there on TMDB's website: "Spirited Away" (129) and "Parasite" (496243).
    public static let offlineWatchlistSeed: [Int64] = [129, 496_243]

    /// Adds TMDB's account routes to `server`, for the account's watchlist kept in `file`:
    ///
    /// - `GET /3/account`: the account of the `session_id`;
    /// - `GET /3/account/{id}/watchlist/movies?page=…&sort_by=created_at.asc|desc`: the
    ///   watchlist's movies, 20 a page, as TMDB lists them;
    /// - `POST /3/account/{id}/watchlist` with `{"media_type": "movie", "media_id": …,
    ///   "watchlist": true|false}`: puts a movie on the watchlist or takes it off.
    ///
    /// The file is the account's state on "TMDB's side", kept between runs: a JSON object
    /// `{"movies": [129, 496243]}`, the TMDB ids oldest first. It is created with
    /// ``offlineWatchlistSeed`` on first use; editing it between runs plays another client (the
    /// TMDB website) changing the watchlist. A request without the accepted key is answered as
    /// TMDB answers one (`401`, status code 7), one without the accepted session with status
    /// code 3, and an unreadable file with `500` naming it.
    static func addAccountRoutes(
        to server: StubServer, catalogue: MovieCatalogue, acceptedKey: String, file: URL, latency: Duration
    ) {
        let watchlist = OfflineWatchlist(file: file)
        let account = offlineAccount
        @Sendable func refusal(_ request: RecordedRequest) -> StubResponse? {
            guard request.queryValue("api_key") == acceptedKey else {
                let refused = MovieCatalogue.invalidKeyResponse
                return json(refused.body, status: refused.status)
            }
            guard request.queryValue("session_id") == offlineSession else {
                return tmdbStatus(
                    401, code: 3, message: "Authentication failed: You do not have permissions to access the service.")
            }
            return nil
        }
        let notFound = tmdbStatus(404, code: 34, message: "The resource you requested could not be found.")
        server.route("GET", "/3/account") { request in
            if let refused = refusal(request) { return refused.delayed(by: latency) }
            return json(["id": account.id, "username": account.username, "name": "", "include_adult": false])
                .delayed(by: latency)
        }
        server.route("GET", "/3/account/*") { request in
            if let refused = refusal(request) { return refused.delayed(by: latency) }
            let parts = request.path.split(separator: "/").map(String.init)
            guard parts.count == 5, parts[2] == String(account.id), parts[3] == "watchlist", parts[4] == "movies" else {
                return notFound.delayed(by: latency)
            }
            let ids: [Int64]
            do { ids = try watchlist.ids() } catch { return unreadable(error, file).delayed(by: latency) }
            let ordered = request.queryValue("sort_by") == "created_at.desc" ? ids.reversed() : ids
            let pageSize = 20
            let page = max(1, request.queryValue("page").flatMap(Int.init) ?? 1)
            let start = (page - 1) * pageSize
            let results = ordered.dropFirst(start).prefix(pageSize).compactMap { catalogue.movies[Int($0)]?.json }
            return json([
                "page": page, "results": results, "total_pages": max(1, (ids.count + pageSize - 1) / pageSize),
                "total_results": ids.count,
            ]).delayed(by: latency)
        }
        server.route("POST", "/3/account/*") { request in
            if let refused = refusal(request) { return refused.delayed(by: latency) }
            let parts = request.path.split(separator: "/").map(String.init)
            guard parts.count == 4, parts[2] == String(account.id), parts[3] == "watchlist" else {
                return notFound.delayed(by: latency)
            }
            struct Change: Decodable {
                var media_type: String
                var media_id: Int64
                var watchlist: Bool
            }
            guard let change = try? JSONDecoder().decode(Change.self, from: request.body),
                ["movie", "tv"].contains(change.media_type)
            else {
                return tmdbStatus(422, code: 5, message: "Invalid parameters: Your request parameters are incorrect.")
                    .delayed(by: latency)
            }
            guard change.media_type == "movie", catalogue.movies[Int(change.media_id)] != nil else {
                return notFound.delayed(by: latency)
            }
            do {
                let (status, code, message) = try watchlist.set(change.media_id, on: change.watchlist)
                return tmdbStatus(status, code: code, message: message, success: true).delayed(by: latency)
            } catch {
                return unreadable(error, file).delayed(by: latency)
            }
        }
    }

    /// TMDB's status body: `{"success": …, "status_code": …, "status_message": …}`.
    private static func tmdbStatus(_ status: Int, code: Int, message: String, success: Bool = false) -> StubResponse {
        json(["success": success, "status_code": code, "status_message": message], status: status)
    }

    private static func unreadable(_ error: any Error, _ file: URL) -> StubResponse {
        tmdbStatus(
            500, code: 11, message: "Internal error: the offline account's watchlist file \(file.path) is unreadable: \(error)"
        )
    }

    private static func json(_ object: [String: Any], status: Int = 200) -> StubResponse {
        json(MovieCatalogue.encode(object), status: status)
    }

    private static func json(_ body: Data, status: Int) -> StubResponse {
        StubResponse.data(body, status: status, contentType: "application/json; charset=UTF-8")
    }
}

/// The offline account's watchlist, in its file: read at each request (an edit between runs,
/// or during one, is what the next request sees), written whole and atomically at each change.
/// Requests run on several threads: a lock keeps each read-change-write whole.
private final class OfflineWatchlist: Sendable {
    private struct Contents: Codable {
        var movies: [Int64]
    }

    let file: URL
    /// Held around each read-change-write of the file (the only state: the file itself).
    private let lock = Protected(())

    init(file: URL) {
        self.file = file
    }

    /// The TMDB ids on the watchlist, oldest first.
    func ids() throws -> [Int64] {
        try lock.withLock { _ in try read() }
    }

    /// Puts a movie on the watchlist or takes it off, as TMDB answers: `201` with status code 1
    /// for a new entry, 12 for one already there; `200` with 13 for a removal.
    func set(_ id: Int64, on: Bool) throws -> (status: Int, code: Int, message: String) {
        try lock.withLock { _ in
            var ids = try read()
            let present = ids.contains(id)
            if on {
                if present { return (201, 12, "The item/record was updated successfully.") }
                ids.append(id)
                try write(ids)
                return (201, 1, "Success.")
            }
            if present {
                ids.removeAll { $0 == id }
                try write(ids)
            }
            return (200, 13, "The item/record was deleted successfully.")
        }
    }

    private func read() throws -> [Int64] {
        guard FileManager.default.fileExists(atPath: file.path) else {
            try write(OfflineServers.offlineWatchlistSeed)
            return OfflineServers.offlineWatchlistSeed
        }
        return try JSONDecoder().decode(Contents.self, from: Data(contentsOf: file)).movies
    }

    private func write(_ ids: [Int64]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var data = try encoder.encode(Contents(movies: ids))
        data.append(UInt8(ascii: "\n"))
        try data.write(to: file, options: .atomic)
    }
}
