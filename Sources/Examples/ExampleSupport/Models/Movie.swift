public import Foundation
public import Persistence

/// A favourite movie of one family member, as the `mustc` example stores it (shared with its
/// end-to-end tests through `ExampleSupport`).
///
/// The entity has three versions. Its first version holds only what a person
/// types (the title, who added it, when); the popularity step added `remoteID` and
/// `popularity`; the watchlist step added `onWatchlist`. Each is `Optional`, so a store
/// written by an earlier version opens with Persistence's lightweight migration: the new
/// columns are added as nullable and every stored movie keeps its data, reading `nil` until
/// its popularity is fetched or it is put on the watchlist.
public struct Movie: StoredEntity {
    /// The row's identity, made when the movie is added.
    public var id: UUID
    /// The title as the person typed it.
    public var title: String
    /// The title folded for matching: lower case, no accents, single spaces.
    public var titleKey: String
    /// The family member who added it.
    public var member: String
    /// When it was added.
    public var addedAt: Date
    /// The TMDB id of the best search match; `nil` until found (added in version 2).
    public var remoteID: Int64?
    /// TMDB's popularity; `nil` until fetched (added in version 2).
    public var popularity: Double?
    /// Whether the movie went on the TMDB account's watchlist: `true` once `mustc` queued it
    /// there (or pulled it from there); `nil` for a movie not matched yet or stored before the
    /// watchlist step (added in version 3). A movie with `true` whose watchlist entry is gone was
    /// taken off the watchlist elsewhere.
    public var onWatchlist: Bool?

    /// The title column.
    public static let title = Field<Movie, String>("title")
    /// The matching-title column.
    public static let titleKey = Field<Movie, String>("titleKey")
    /// The member column.
    public static let member = Field<Movie, String>("member")
    /// The TMDB id column.
    public static let remoteID = Field<Movie, Int64?>("remoteID")
    /// The popularity column.
    public static let popularity = Field<Movie, Double?>("popularity")
    /// The on-the-watchlist column.
    public static let onWatchlist = Field<Movie, Bool?>("onWatchlist")

    /// A member lists a title once: adding it again finds the stored movie.
    public static let byTitleAndMember = UniqueKey(titleKey, member)
    /// The unique keys: ``byTitleAndMember``.
    public static let uniqueKeys = [byTitleAndMember]

    /// The movie's popularity samples, oldest first: the inverse of ``PopularitySample/movie``.
    public static let samples = ToMany<Movie, PopularitySample>(
        inverse: PopularitySample.movie, orderedBy: [PopularitySample.takenAt.ascending()])

    /// The list order: most popular first, movies without popularity last, then by title.
    public static let listOrder = [popularity.descending(), title.ascending(caseInsensitive: true)]

    /// Creates a movie; `mustc add` stores it without popularity before the lookup.
    public init(
        title: String, member: String = "family", addedAt: Date = Date(), remoteID: Int64? = nil,
        popularity: Double? = nil, onWatchlist: Bool? = nil
    ) {
        id = UUID()
        self.title = title
        titleKey = Movie.key(for: title)
        self.member = member
        self.addedAt = addedAt
        self.remoteID = remoteID
        self.popularity = popularity
        self.onWatchlist = onWatchlist
    }

    /// The matching form of a title: `"  Amélie "` and `"AMELIE"` are the same movie.
    public static func key(for title: String) -> String {
        title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
