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
            // A list written before samples referred to their movie as a relation opens as it is:
            // the store gives the reference its foreign key (mustc always removed a movie's
            // samples with it, so no sample refers to a missing movie).
            store = try ObjectStore(at: url, entities: [Movie.self, PopularitySample.self, RefreshRecord.self])
        } catch {
            throw ExampleFailure.store("cannot open the movie list at \(url.path)", error)
        }
    }

    /// Every movie, most popular first.
    func all(member: String? = nil) async throws -> [Movie] {
        try await store.context.read { tx in
            try tx.fetch(Query<Movie>(where: member.map { Movie.member == $0 }, sortedBy: Movie.listOrder))
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

    /// Writes a TMDB match back to a stored movie, with the first sample of its history.
    ///
    /// - Returns: the updated movie, or nil when it was removed meanwhile.
    func setMatch(_ match: TMDBMovie, of id: UUID, at date: Date = Date()) async throws -> Movie? {
        try await store.context.persist { tx in
            guard var movie = try tx.fetch(Movie.self, id: id) else { return nil }
            let previous = movie.popularity
            movie.remoteID = match.id
            movie.popularity = match.popularity
            try tx.update(movie)
            if let popularity = match.popularity {
                try Self.addSample(
                    PopularitySample(movieID: id, takenAt: date, popularity: popularity, previous: previous), in: tx)
            }
            return movie
        }
    }

    /// Writes a refresh's popularity values and their history samples, and records the
    /// refresh, all in one transaction.
    ///
    /// - Parameters:
    ///   - changes: new popularity by movie id.
    ///   - date: when the refresh saved (every sample of the refresh has this time).
    /// - Returns: how many stored movies changed (a movie removed meanwhile is skipped).
    func saveRefresh(_ changes: [UUID: Double], at date: Date = Date()) async throws -> Int {
        try await store.context.persist { tx in
            var written = 0
            for (id, popularity) in changes {
                guard var movie = try tx.fetch(Movie.self, id: id) else { continue }
                let previous = movie.popularity
                movie.popularity = popularity
                try tx.update(movie)
                try Self.addSample(
                    PopularitySample(movieID: id, takenAt: date, popularity: popularity, previous: previous), in: tx)
                written += 1
            }
            try tx.insert(RefreshRecord(finishedAt: date, changed: written))
            try tx.delete(
                Query<RefreshRecord>(
                    sortedBy: [RefreshRecord.finishedAt.descending()], offset: RefreshRecord.maximumKept))
            return written
        }
    }

    /// Inserts a sample and prunes the movie's history to its bound, oldest first.
    private static func addSample(_ sample: PopularitySample, in tx: ObjectTransaction) throws {
        try tx.insert(sample)
        try tx.delete(
            Query<PopularitySample>(
                where: PopularitySample.movieID == sample.movieID, sortedBy: [PopularitySample.takenAt.descending()],
                offset: PopularitySample.maximumPerMovie))
    }

    /// Every movie's popularity samples, oldest first, and when the latest refresh saved.
    ///
    /// - Parameter member: only this member's movies, or everyone's.
    /// - Returns: the movies (most popular first) with their samples, and the latest refresh's time.
    func history(
        member: String? = nil
    ) async throws -> (
        movies: [(movie: Movie, samples: [PopularitySample])], lastRefresh: Date?
    ) {
        try await store.context.read { tx in
            // The movies and every sample of theirs: two queries, samples oldest first.
            let movies = try tx.fetch(
                Query<Movie>(where: member.map { Movie.member == $0 }, sortedBy: Movie.listOrder).including(
                    Movie.samples))
            let last = try tx.first(Query<RefreshRecord>(sortedBy: [RefreshRecord.finishedAt.descending()]))
            return (movies.map { (movie: $0.0, samples: $0.1) }, last?.finishedAt)
        }
    }

    /// Every member's movies in sections, members in alphabetical order (ignoring case), each
    /// section most popular first, with the movies' samples and the latest refresh's time.
    func historyByMember() async throws -> (
        sections: [(member: String, movies: [(movie: Movie, samples: [PopularitySample])])], lastRefresh: Date?
    ) {
        try await store.context.read { tx in
            // The movies in sections, each with its samples (oldest first): two queries.
            let sections = try tx.fetch(
                Query<Movie>(sortedBy: [Movie.member.ascending(caseInsensitive: true)] + Movie.listOrder)
                    .including(Movie.samples)
                    .sectioned(by: \.member))
            let last = try tx.first(Query<RefreshRecord>(sortedBy: [RefreshRecord.finishedAt.descending()]))
            let result = sections.map { section in
                (member: section.key, movies: section.rows.map { (movie: $0.0, samples: $0.1) })
            }
            return (result, last?.finishedAt)
        }
    }

    /// Removes every movie with this title (ignoring case and accents), for one member or all.
    ///
    /// - Returns: the removed movies.
    func remove(title: String, member: String?) async throws -> [Movie] {
        try await store.context.persist { tx in
            var filter = Movie.titleKey == Movie.key(for: title)
            if let member { filter = filter && Movie.member == member }
            let found = try tx.fetch(Query<Movie>(where: filter, sortedBy: [Movie.member.ascending()]))
            // The store's cascade rule deletes the movies' samples with them.
            _ = try tx.delete(Query<Movie>(where: filter))
            return found
        }
    }
}
