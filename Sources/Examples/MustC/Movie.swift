import Foundation
import Persistence

/// A favourite movie of one family member, as MustC stores it.
///
/// The entity keeps the seed's migration story. Its first version held only what a person
/// types (the title, who added it, when); the popularity step added `remoteID` and
/// `popularity`. Both are `Optional`, so a store written by the first version opens with
/// Persistence's lightweight migration: the new columns are added as nullable and every
/// stored movie keeps its data, reading `nil` until its popularity is fetched.
struct Movie: StoredEntity {
    /// The row's identity, made when the movie is added.
    var id: UUID
    /// The title as the person typed it.
    var title: String
    /// The title folded for matching: lower case, no accents, single spaces.
    var titleKey: String
    /// The family member who added it.
    var member: String
    /// When it was added.
    var addedAt: Date
    /// The TMDB id of the best search match; `nil` until found (added in version 2).
    var remoteID: Int64?
    /// TMDB's popularity; `nil` until fetched (added in version 2).
    var popularity: Double?

    static let title = Field<Movie, String>("title")
    static let titleKey = Field<Movie, String>("titleKey")
    static let member = Field<Movie, String>("member")
    static let remoteID = Field<Movie, Int64?>("remoteID")
    static let popularity = Field<Movie, Double?>("popularity")

    /// A member lists a title once: adding it again finds the stored movie.
    static let byTitleAndMember = UniqueKey(titleKey, member)
    static let uniqueKeys = [byTitleAndMember]

    /// The list order: most popular first, movies without popularity last, then by title.
    static let listOrder = [popularity.descending(), title.ascending(caseInsensitive: true)]

    /// Creates a movie without popularity, as `mustc add` stores it before the lookup.
    init(title: String, member: String, addedAt: Date = Date()) {
        id = UUID()
        self.title = title
        titleKey = Movie.key(for: title)
        self.member = member
        self.addedAt = addedAt
    }

    /// The matching form of a title: `"  Amélie "` and `"AMELIE"` are the same movie.
    static func key(for title: String) -> String {
        title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
