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

/// One test's mustc: a temporary store and data directory, and runs of the built program
/// against its offline server.
struct MustCSandbox {
    let directory: TemporaryDirectory
    var store: URL { directory.file("movies.sqlite") }

    init() throws {
        directory = try TemporaryDirectory(prefix: "MustCTests")
    }

    /// Runs `mustc --store <tmp> <arguments>` with a temporary `XDG_DATA_HOME`, no live key,
    /// and offline popularity `popularity` (`drift` or `fixed`).
    func run(
        _ arguments: [String], popularity: String = "fixed", environment: [String: String?] = [:]
    ) async throws -> ProgramRun {
        var variables: [String: String?] = [
            "XDG_DATA_HOME": directory.file("xdg").path, "MUSTC_OFFLINE_POPULARITY": popularity,
            "MUSTC_OFFLINE_KEY": nil, "TMDB_API_KEY": nil,
        ]
        for (name, value) in environment { variables[name] = value }
        return try await ProgramRun.run(
            "mustc", ["--store", store.path] + arguments, environment: variables)
    }

    /// Every stored movie, read with Persistence, sorted by title.
    func movies() throws -> [Movie] {
        let opened = try ObjectStore(at: store, entities: [Movie.self])
        defer { opened.close() }
        return try opened.context.readAndWait { tx in
            try tx.fetch(Movie.self, sortedBy: [Movie.title.ascending()])
        }
    }

    /// Writes movies straight into the store, as an earlier run would have.
    func seed(_ movies: [Movie]) throws {
        let opened = try ObjectStore(at: store, entities: [Movie.self])
        defer { opened.close() }
        try opened.context.persistAndWait { tx in try tx.insert(contentsOf: movies) }
    }

    func remove() {
        directory.remove()
    }
}
