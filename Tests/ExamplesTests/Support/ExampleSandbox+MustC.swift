import ExampleSupport
import Foundation
import Persistence
import TestSupport

/// The first version of mustc's `Movie`, before the popularity step added `remoteID` and
/// `popularity`: what an older MustC wrote.
struct MustCMovieV1: StoredEntity {
    static let entityName = "Movie"

    var id: UUID
    var title: String
    var titleKey: String
    var member: String
    var addedAt: Date

    static let titleKey = Field<MustCMovieV1, String>("titleKey")
    static let member = Field<MustCMovieV1, String>("member")
    static let uniqueKeys = [UniqueKey(titleKey, member)]
}

extension ExampleSandbox {
    /// A sandbox for mustc, whose runs use its offline server.
    static func mustC() throws -> ExampleSandbox {
        try ExampleSandbox(.mustC)
    }

    /// Runs mustc with offline popularity `popularity` (`drift` or `fixed`).
    func run(
        _ arguments: [String], popularity: String, environment extra: [String: String?] = [:]
    ) async throws -> ProgramRun {
        var variables = extra
        variables["MUSTC_OFFLINE_POPULARITY"] = popularity
        return try await run(arguments, environment: variables)
    }

    /// Every stored movie, read with Persistence, sorted by title.
    func movies() throws -> [Movie] {
        try read([Movie.self]) { tx in try tx.fetch(Query<Movie>(sortedBy: [Movie.title.ascending()])) }
    }

    /// Writes movies straight into the store, as an earlier run would have.
    func seed(_ movies: [Movie]) throws {
        try write([Movie.self]) { tx in try tx.insert(contentsOf: movies) }
    }
}

extension ExampleSandbox {
    /// The offline TMDB account's watchlist file beside the store.
    var offlineWatchlist: URL {
        store.deletingPathExtension().appendingPathExtension("offline-watchlist.json")
    }

    /// The TMDB ids on the offline account's watchlist, oldest first, as "TMDB" keeps them.
    func watchlistOnTMDB() throws -> [Int64] {
        struct Contents: Decodable { var movies: [Int64] }
        return try JSONDecoder().decode(Contents.self, from: Data(contentsOf: offlineWatchlist)).movies
    }

    /// Changes the offline account's watchlist as another client (TMDB's website) would.
    func changeWatchlistOnTMDB(_ change: (inout [Int64]) -> Void) throws {
        var ids = try watchlistOnTMDB()
        change(&ids)
        try JSONSerialization.data(withJSONObject: ["movies": ids]).write(to: offlineWatchlist)
    }
}
