import Foundation
public import Persistence

/// A movie on the TMDB account's watchlist, as `mustc`'s mirror of the watchlist keeps it
/// (shared with its end-to-end tests through `ExampleSupport`).
///
/// The rows are the mirror's: `mustc add` and `mustc remove` change them through the synced
/// collection, which queues the change for TMDB, and `mustc sync` stores what the watchlist
/// holds. The family's lists (``Movie``) refer to an entry by its TMDB id (``Movie/remoteID``);
/// a movie that two members list is on the watchlist once.
public struct WatchlistEntry: StoredEntity {
    /// The movie's TMDB id: the entry's identity here and on TMDB.
    public var id: Int64
    /// TMDB's title.
    public var title: String
    /// TMDB's popularity when the watchlist was last read, if TMDB gave one.
    public var popularity: Double?
    /// `"1995-12-15"`, or nil when TMDB does not know the date.
    public var releaseDate: String?

    /// Creates an entry.
    public init(id: Int64, title: String, popularity: Double? = nil, releaseDate: String? = nil) {
        self.id = id
        self.title = title
        self.popularity = popularity
        self.releaseDate = releaseDate
    }

    /// The release year, when TMDB knows the date.
    public var year: String? {
        guard let date = releaseDate, date.count >= 4 else { return nil }
        return String(date.prefix(4))
    }
}
