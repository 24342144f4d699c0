import ExampleSupport
import Foundation
import Persistence

/// The family's movie list: the store file MustC reads and writes, opened with Persistence.
///
/// Every write goes through a `persist` block on the store's context, so each change commits
/// atomically on the context's own queue, whatever thread the network answered on.
struct MovieShelf: Sendable {
    /// The open store.
    let store: ObjectStore

    /// Opens (or creates) the list at `url`, migrating an older file in place.
    ///
    /// - Throws: ``ExampleFailure`` with Persistence's reason when the file cannot be opened.
    init(at url: URL) throws(ExampleFailure) {
        do {
            store = try ObjectStore(at: url, entities: [Movie.self])
        } catch {
            throw ExampleFailure("cannot open the movie list at \(url.path): \(error.message)")
        }
    }

    /// Every movie, most popular first.
    func all(member: String? = nil) async throws -> [Movie] {
        try await store.context.read { tx in
            try tx.fetch(Movie.self, where: member.map { Movie.member == $0 }, sortedBy: Movie.listOrder)
        }
    }

    /// Stores a new movie at once, or finds the one this member already listed under that title.
    ///
    /// - Returns: the stored movie and whether it was new.
    func add(title: String, member: String) async throws -> (movie: Movie, isNew: Bool) {
        try await store.context.persist { tx in
            let key = Movie.key(for: title)
            if let existing = try tx.first(Query<Movie>(where: Movie.titleKey == key && Movie.member == member)) {
                return (existing, false)
            }
            let movie = Movie(title: title, member: member)
            try tx.insert(movie)
            return (movie, true)
        }
    }

    /// Writes a TMDB match back to a stored movie.
    ///
    /// - Returns: the updated movie, or nil when it was removed meanwhile.
    func setMatch(_ match: TMDBMovie, of id: UUID) async throws -> Movie? {
        try await store.context.persist { tx in
            guard var movie = try tx.fetch(Movie.self, id: id) else { return nil }
            movie.remoteID = match.id
            movie.popularity = match.popularity
            try tx.update(movie)
            return movie
        }
    }

    /// Writes refreshed popularity values, all in one transaction.
    ///
    /// - Parameter changes: new popularity by movie id.
    /// - Returns: how many stored movies changed (a movie removed meanwhile is skipped).
    func setPopularity(_ changes: [UUID: Double]) async throws -> Int {
        guard !changes.isEmpty else { return 0 }
        return try await store.context.persist { tx in
            var written = 0
            for (id, popularity) in changes {
                guard var movie = try tx.fetch(Movie.self, id: id) else { continue }
                movie.popularity = popularity
                try tx.update(movie)
                written += 1
            }
            return written
        }
    }

    /// Removes every movie with this title (ignoring case and accents), for one member or all.
    ///
    /// - Returns: the removed movies.
    func remove(title: String, member: String?) async throws -> [Movie] {
        try await store.context.persist { tx in
            var filter = Movie.titleKey == Movie.key(for: title)
            if let member { filter = filter && Movie.member == member }
            let found = try tx.fetch(Movie.self, where: filter, sortedBy: [Movie.member.ascending()])
            _ = try tx.delete(Movie.self, where: filter)
            return found
        }
    }
}
