/// One real film of the offline TMDB catalogue: a row of the tables in `Films/`.
///
/// Titles, original titles, languages, release dates and genres are facts. Popularity and
/// vote figures are of the right order for the film's standing on TMDB, not a copy of TMDB's
/// values of any one day. Where the tables record TMDB's id, the film carries it; the others
/// get an id from 9,000,000 up, which TMDB has not used.
struct Film: Sendable {
    /// TMDB's genres, with their TMDB ids.
    enum Genre: Int, Sendable {
        case action = 28, adventure = 12, animation = 16, comedy = 35, crime = 80, documentary = 99, drama = 18
        case family = 10751, fantasy = 14, history = 36, horror = 27, music = 10402, mystery = 9648
        case romance = 10749, sciFi = 878, thriller = 53, war = 10752, western = 37
    }

    /// TMDB's id, or nil where the tables do not record it.
    let tmdbID: Int?
    /// The title TMDB shows in English.
    let title: String
    /// The title in the film's own language and script.
    let originalTitle: String
    /// The ISO 639-1 code of the original language (TMDB's `cn` for Cantonese).
    let language: String
    /// The first release, `yyyy-MM-dd`.
    let releaseDate: String
    /// TMDB-like popularity.
    let popularity: Double
    /// TMDB-like mean vote, 0 to 10 with one decimal.
    let voteAverage: Double
    /// TMDB-like number of votes.
    let voteCount: Int
    /// The genres.
    let genres: [Genre]
    /// Other titles TMDB's search finds the film by, such as `Star Wars: Episode V – The Empire Strikes Back`.
    let alternativeTitles: [String]

    /// A film whose original language is not English (or whose original title differs from its title).
    init(
        _ tmdbID: Int?, _ title: String, _ originalTitle: String, _ language: String, _ releaseDate: String,
        _ popularity: Double, _ voteAverage: Double, _ voteCount: Int, _ genres: [Genre], also: [String] = []
    ) {
        self.tmdbID = tmdbID
        self.title = title
        self.originalTitle = originalTitle
        self.language = language
        self.releaseDate = releaseDate
        self.popularity = popularity
        self.voteAverage = voteAverage
        self.voteCount = voteCount
        self.genres = genres
        alternativeTitles = also
    }

    /// An English-language film, whose original title is its title.
    static func en(
        _ tmdbID: Int?, _ title: String, _ releaseDate: String, _ popularity: Double, _ voteAverage: Double,
        _ voteCount: Int, _ genres: [Genre], also: [String] = []
    ) -> Film {
        Film(tmdbID, title, title, "en", releaseDate, popularity, voteAverage, voteCount, genres, also: also)
    }
}
