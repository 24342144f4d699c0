import ExampleSupport
import Foundation
import Persistence
import Sync

/// The family's movie list: the store file MustC reads and writes, opened with Persistence.
///
/// Every write goes through a `persist` block on the store's context, so each change commits
/// atomically on the context's own queue, whatever thread the network answered on.
///
/// The must-see list mirrors the TMDB account's watchlist (``Watchlist``): a movie matched to a
/// TMDB id is queued for the watchlist in the block that stores the match, and a removal
/// queues taking it off in the block that removes it, so no change is lost between a write and
/// the next `mustc sync`, which sends them.
struct MovieShelf: Sendable {
    /// The open store.
    let store: ObjectStore
    /// The watchlist mirror the shelf's writes queue changes through (it never sends: `mustc
    /// sync` runs its own, connected one).
    let watchlist: SyncedCollection<WatchlistEntry>

    /// Opens (or creates) the list at `url`, migrating an older file in place.
    ///
    /// - Throws: ``ExampleFailure`` with Persistence's reason when the file cannot be opened.
    init(at url: URL) throws(ExampleFailure) {
        do {
            // A list written before samples referred to their movie as a relation opens as it is:
            // the store gives the reference its foreign key (mustc always removed a movie's
            // samples with it, so no sample refers to a missing movie).
            store = try ObjectStore(
                at: url,
                entities: [Movie.self, PopularitySample.self, RefreshRecord.self, WatchlistEntry.self]
                    + SyncSchema.entities)
            watchlist = try Watchlist.mirror(of: store)
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

    /// Writes a TMDB match back to a stored movie, with the first sample of its history, and
    /// queues the movie for the watchlist (unless it is there already), all in one transaction.
    ///
    /// - Returns: the updated movie, or nil when it was removed meanwhile.
    func setMatch(_ match: TMDBMovie, of id: UUID, at date: Date = Date()) async throws -> Movie? {
        let watchlist = self.watchlist
        return try await store.context.persist { tx in
            guard var movie = try tx.fetch(Movie.self, id: id) else { return nil }
            let previous = movie.popularity
            if let earlier = movie.remoteID, earlier != match.id, movie.onWatchlist == true {
                try Self.takeOff(earlier, watchlist: watchlist, in: tx, besides: movie.id)
            }
            movie.remoteID = match.id
            movie.popularity = match.popularity
            try Self.putOn(match.entry, watchlist: watchlist, in: tx)
            movie.onWatchlist = true
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

    // MARK: The watchlist

    /// Queues `entry` for the watchlist, unless the mirror holds it (put there, or pulled).
    private static func putOn(
        _ entry: WatchlistEntry, watchlist: SyncedCollection<WatchlistEntry>, in tx: ObjectTransaction
    ) throws {
        guard try tx.fetch(WatchlistEntry.self, id: entry.id) == nil else { return }
        try watchlist.save(entry, as: .create, in: tx)
    }

    /// Queues taking the movie `id` off the watchlist, unless another movie than `besides` on a
    /// list still has it (two members list it: it stays until both removed it).
    ///
    /// - Returns: whether it goes off.
    @discardableResult
    private static func takeOff(
        _ id: Int64, watchlist: SyncedCollection<WatchlistEntry>, in tx: ObjectTransaction, besides movie: UUID? = nil
    ) throws -> Bool {
        let others = try tx.fetch(Query<Movie>(where: Movie.remoteID == id)).filter { $0.id != movie }
        guard others.isEmpty else { return false }
        try watchlist.delete(id, in: tx)
        return true
    }

    /// The movies stored without a TMDB match, oldest first: `mustc sync` looks them up first.
    func unmatched() async throws -> [Movie] {
        try await store.context.read { tx in
            try tx.fetch(Query<Movie>(where: Movie.remoteID.isNil)).sorted { $0.addedAt < $1.addedAt }
        }
    }

    /// Brings the lists and the watchlist mirror together, in one transaction:
    ///
    /// - a movie matched before the list mirrored the watchlist (``Movie/onWatchlist`` not set) is
    ///   queued for it;
    /// - a movie the watchlist held (``Movie/onWatchlist``) whose entry is gone was taken off
    ///   the watchlist elsewhere: it is removed from every list;
    /// - an entry no list has was put on the watchlist elsewhere: it joins `member`'s list.
    ///
    /// - Returns: the movies added to `member`'s list and those removed.
    func reconcile(member: String) async throws -> (added: [Movie], removed: [Movie]) {
        let watchlist = self.watchlist
        return try await store.context.persist { tx in
            let entries = try tx.fetch(Query<WatchlistEntry>())
            let onList = Set(entries.map(\.id))
            var removed: [Movie] = []
            var listed = Set<Int64>()
            for var movie in try tx.fetch(Query<Movie>(where: Movie.remoteID.isNotNil)) {
                guard let id = movie.remoteID else { continue }
                if movie.onWatchlist == true {
                    if onList.contains(id) {
                        listed.insert(id)
                    } else {
                        removed.append(movie)
                        _ = try tx.delete(Movie.self, id: movie.id)
                    }
                } else {
                    let entry = WatchlistEntry(id: id, title: movie.title, popularity: movie.popularity)
                    try Self.putOn(entry, watchlist: watchlist, in: tx)
                    movie.onWatchlist = true
                    try tx.update(movie)
                    listed.insert(id)
                }
            }
            var added: [Movie] = []
            for entry in entries where !listed.contains(entry.id) {
                // A member lists a title once: a same-titled movie of theirs without a match takes
                // the id; one matched to another film leaves the title to it, and the entry comes
                // in under its year ("Dune (1984)"), or its id.
                var slot: Movie?
                var title = entry.title
                for candidate in [entry.title, entry.year.map { "\(entry.title) (\($0))" }, "\(entry.title) (TMDB \(entry.id))"] {
                    guard let candidate else { continue }
                    title = candidate
                    let key = Movie.key(for: candidate)
                    slot = try tx.first(Query<Movie>(where: Movie.titleKey == key && Movie.member == member))
                    if slot == nil || slot?.remoteID == nil || slot?.remoteID == entry.id { break }
                }
                if var same = slot, same.remoteID == nil || same.remoteID == entry.id {
                    same.remoteID = entry.id
                    same.popularity = same.popularity ?? entry.popularity
                    same.onWatchlist = true
                    try tx.update(same)
                } else if slot == nil {
                    let movie = Movie(
                        title: title, member: member, remoteID: entry.id, popularity: entry.popularity,
                        onWatchlist: true)
                    try tx.insert(movie)
                    added.append(movie)
                }
            }
            return (added.sorted { $0.title < $1.title }, removed.sorted { $0.title < $1.title })
        }
    }

    /// How many changes to the watchlist wait for `mustc sync`.
    func waitingChanges() async throws -> Int {
        let watchlist = self.watchlist
        return try await store.context.read { tx in try tx.count(watchlist.pendingWrites) }
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

    /// Removes every movie with this title (ignoring case and accents), for one member or all,
    /// and queues taking each off the watchlist when no list has it any more.
    ///
    /// - Returns: the removed movies, and how many of them go off the watchlist at the next sync.
    func remove(title: String, member: String?) async throws -> (removed: [Movie], offWatchlist: Int) {
        let watchlist = self.watchlist
        return try await store.context.persist { tx in
            var filter = Movie.titleKey == Movie.key(for: title)
            if let member { filter = filter && Movie.member == member }
            let found = try tx.fetch(Query<Movie>(where: filter, sortedBy: [Movie.member.ascending()]))
            // The store's cascade rule deletes the movies' samples with them.
            _ = try tx.delete(Query<Movie>(where: filter))
            var offWatchlist = Set<Int64>()
            for movie in found where movie.onWatchlist == true {
                guard let id = movie.remoteID, try tx.fetch(WatchlistEntry.self, id: id) != nil else { continue }
                if try Self.takeOff(id, watchlist: watchlist, in: tx) { offWatchlist.insert(id) }
            }
            return (found, offWatchlist.count)
        }
    }
}
