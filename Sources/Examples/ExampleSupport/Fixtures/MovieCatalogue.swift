public import Foundation
import SeededRandom

/// The offline TMDB catalogue: movies shaped like `GET /3/search/movie` results and
/// `GET /3/movie/{id}` objects (shapes from the real responses recorded in
/// `Sources/TestSupport/Fixtures/tmdb/`: null `backdrop_path`, empty `release_date`,
/// `vote_average` as an integer or a float).
///
/// Well-known titles keep their real TMDB ids and approximately their real values; the rest
/// is generated deterministically and plausibly: valid release dates from 1950 to 2025 (a
/// sequel comes out a few years after the film before it), popularity mostly between 1 and
/// 100 with a long tail, `vote_average` from 0 to 10 with one decimal, and no votes meaning an
/// average of 0. Popularity drifts: a catalogue made with a drift seed moves every popularity
/// by a few percent, so a refresh in a later run sees changed values; without one, values are
/// fixed.
public struct MovieCatalogue: Sendable {
    /// One movie.
    public struct Movie: Sendable {
        /// The TMDB id.
        public var id: Int
        /// The title.
        public var title: String
        /// The original title.
        public var originalTitle: String
        /// The ISO 639-1 code of the original language, such as `"en"` or `"ja"`.
        public var originalLanguage: String
        /// `"1999-10-15"`, or `""` as TMDB sends for unknown dates.
        public var releaseDate: String
        /// The popularity, after drift.
        public var popularity: Double
        /// The mean vote, 0 to 10 with one decimal (sent as an integer when it is whole).
        public var voteAverage: Double
        /// How many votes the mean is of; 0 goes with a mean of 0.
        public var voteCount: Int
        /// TMDB genre ids, such as 18 (drama); empty for some movies, as on TMDB.
        public var genreIDs: [Int]

        /// The JSON object of this movie as a search result or a movie detail.
        public var json: [String: Any] {
            [
                "adult": false, "backdrop_path": id % 3 == 0 ? NSNull() : "/b\(id).jpg" as Any,
                "genre_ids": genreIDs, "id": id, "original_language": originalLanguage,
                "original_title": originalTitle,
                "overview": "\(title): an offline fixture of FetchKit's mustc example.",
                "popularity": popularity, "poster_path": id % 5 == 0 ? NSNull() : "/p\(id).jpg" as Any,
                "release_date": releaseDate, "title": title, "video": false,
                "vote_average": voteAverage.rounded() == voteAverage ? Int(voteAverage) as Any : voteAverage as Any,
                "vote_count": voteCount,
            ]
        }
    }

    /// The movies, by id.
    public let movies: [Int: Movie]
    /// The movies in catalogue order: the well-known ones, then the generated ones.
    private let ordered: [Movie]

    /// A row of ``wellKnownRows``: a movie's values, with `nil` for an original title that is the title.
    private typealias KnownMovie = (
        id: Int, title: String, originalTitle: String?, language: String, releaseDate: String, popularity: Double,
        voteAverage: Double, voteCount: Int, genreIDs: [Int]
    )

    /// Real movies with their TMDB ids and approximately their real values, one a row: id,
    /// title, original title (`nil` when it is the title), original language, release date,
    /// popularity, vote average, vote count and genre ids.
    private static let wellKnownRows: [KnownMovie] = [
        (550, "Fight Club", nil, "en", "1999-10-15", 73.433, 8.4, 30_312, [18]),
        (13804, "Fast & Furious", nil, "en", "2009-04-02", 38.2, 6.7, 7_104, [28, 80, 53]),
        (82992, "Fast & Furious 6", nil, "en", "2013-05-21", 41.5, 6.8, 10_433, [28, 53, 80]),
        (194, "Amélie", "Le Fabuleux Destin d'Amélie Poulain", "fr", "2001-04-25", 32.7, 7.9, 11_402, [35, 10749]),
        (129, "Spirited Away", "千と千尋の神隠し", "ja", "2001-07-20", 88.1, 8.5, 16_921, [16, 10751, 14]),
        (18148, "Tokyo Story", "東京物語", "ja", "1953-11-03", 12.9, 8.2, 1_034, [18]),
        (1_011_985, "Kung Fu Panda 4", nil, "en", "2024-03-02", 1610.2, 7.1, 2_612, [16, 28, 10751, 35, 14]),
        (603, "The Matrix", nil, "en", "1999-03-30", 65.8, 8.2, 25_736, [28, 878]),
        (101, "Léon: The Professional", "Léon", "fr", "1994-09-14", 44.0, 8.3, 14_815, [80, 18, 28]),
        (787, "Mr. & Mrs. Smith", nil, "en", "2005-06-07", 39.9, 6.7, 9_130, [28, 35, 18, 53]),
        (807, "Se7en", nil, "en", "1995-09-22", 58.3, 8.4, 20_912, [80, 9648, 53]),
        (150540, "Inside Out", nil, "en", "2015-06-09", 97.4, 7.9, 21_975, [16, 10751, 12, 18, 35]),
        // A title TMDB lists without a release date: no votes yet, so an average of 0.
        (199951, "The Invisible Woman", nil, "en", "", 3.5, 0, 0, []),
        // A title with `+`, and a more popular one with the same words: only a query that
        // arrives with its `+` intact (sent as %2B) finds the 1996 film first.
        (454, "Romeo + Juliet", nil, "en", "1996-11-01", 24.6, 6.7, 4_021, [18, 10749]),
        (6003, "Romeo and Juliet", nil, "en", "1968-10-08", 36.4, 7.3, 812, [18, 10749]),
    ]
    /// The ``wellKnownRows`` as movies.
    private static let wellKnown = wellKnownRows.map { row in
        Movie(
            id: row.id, title: row.title, originalTitle: row.originalTitle ?? row.title,
            originalLanguage: row.language, releaseDate: row.releaseDate, popularity: row.popularity,
            voteAverage: row.voteAverage, voteCount: row.voteCount, genreIDs: row.genreIDs)
    }
    /// The first words of generated titles.
    private static let adjectives = [
        "Silent", "Last", "Broken", "Golden", "Hidden", "Red", "Endless", "Little", "Crimson", "Distant", "Frozen",
        "Quiet", "Wild", "Bitter",
    ]
    /// The last words of generated titles.
    private static let nouns = [
        "River", "Summer", "Kingdom", "Machine", "Garden", "Letter", "Storm", "Harbour", "Winter", "Station",
        "Lantern", "Orchard", "Frontier", "Promise",
    ]
    /// TMDB's movie genre ids.
    private static let genres = [
        28, 12, 16, 35, 80, 99, 18, 10751, 14, 36, 27, 10402, 9648, 10749, 878, 53, 10752, 37,
    ]
    /// How many movies are generated.
    private static let generatedCount = 240

    /// Builds the catalogue.
    ///
    /// - Parameter driftSeed: nil for fixed popularity values; any other value moves each
    ///   popularity by up to ±8 %, differently for each seed.
    public init(driftSeed: UInt64? = nil) {
        var base = Self.wellKnown + Self.generated()
        if let driftSeed {
            var drift = SeededGenerator(seed: driftSeed)
            base = base.map { movie in
                var moved = movie
                let factor = 1 + Double.random(in: -0.08...0.08, using: &drift)
                moved.popularity = (movie.popularity * factor * 1000).rounded() / 1000
                return moved
            }
        }
        ordered = base
        movies = Dictionary(base.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The generated movies ("The Silent River", "The Silent River 2", …), ids 400000 + 7n.
    ///
    /// Each title is a film from 1950 to 2025; some have sequels a few years apart, a few a
    /// remake decades later, and a few are announced films without a date or votes yet.
    private static func generated() -> [Movie] {
        var g = SeededGenerator(seed: 0x00C1_4E3A)
        var titles = adjectives.flatMap { adjective in nouns.map { "The \(adjective) \($0)" } }
        titles.shuffle(using: &g)
        var movies: [Movie] = []
        func add(_ title: String, year: Int?) {
            guard movies.count < generatedCount else { return }
            movies.append(makeMovie(id: 400_000 + movies.count * 7, title: title, year: year, &g))
        }
        for title in titles where movies.count < generatedCount {
            if g.chance(0.05) {  // announced, not yet dated
                add(title, year: nil)
                continue
            }
            let sequels = g.chance(0.22) ? Int.random(in: 1...3, using: &g) : 0
            let first = 2025 - Int(pow(Double.random(in: 0..<1, using: &g), 1.4) * 76)
            var year = min(first, 2025 - 4 * sequels)
            add(title, year: year)
            for part in stride(from: 2, through: sequels + 1, by: 1) {
                year += Int.random(in: 2...4, using: &g)
                add("\(title) \(part)", year: year)
            }
            if year <= 1990, g.chance(0.1) {  // a remake
                add(title, year: year + Int.random(in: 20...35, using: &g))
            }
        }
        return movies
    }

    /// One generated movie released in `year` (nil: announced, without date, votes or much popularity).
    private static func makeMovie(id: Int, title: String, year: Int?, _ g: inout SeededGenerator) -> Movie {
        var genreIDs = (0..<Int.random(in: 1...3, using: &g)).map { _ in g.pick(genres) }
        genreIDs = genreIDs.enumerated().filter { !genreIDs.prefix($0.offset).contains($0.element) }.map(\.element)
        guard let year else {
            return Movie(
                id: id, title: title, originalTitle: title, originalLanguage: "en", releaseDate: "",
                popularity: (Double.random(in: 0.7...4, using: &g) * 1000).rounded() / 1000, voteAverage: 0,
                voteCount: 0, genreIDs: g.chance(0.5) ? [] : genreIDs)
        }
        let month = Int.random(in: 1...12, using: &g)
        let day = Int.random(in: 1...daysIn(month: month, year: year), using: &g)
        // Most films between 1 and 50; recent ones more; a few far more (TMDB's long tail).
        var popularity = exp(Double.random(in: log(0.8)...log(45), using: &g))
        if year >= 2020 { popularity *= Double.random(in: 1.5...3, using: &g) }
        if g.chance(0.04) { popularity *= Double.random(in: 4...15, using: &g) }
        let voteCount =
            popularity < 2 && g.chance(0.3) ? 0 : Int(popularity * Double.random(in: 3...30, using: &g))
        let voteAverage: Double =
            switch voteCount {
            case 0: 0
            case 1..<10: Double(Int.random(in: 30...100, using: &g)) / 10  // a few votes swing widely
            default: (Double.random(in: 4.8...7.9, using: &g) * 10).rounded() / 10
            }
        return Movie(
            id: id, title: title, originalTitle: title, originalLanguage: "en",
            releaseDate: String(format: "%04d-%02d-%02d", year, month, day),
            popularity: (popularity * 1000).rounded() / 1000, voteAverage: voteAverage, voteCount: voteCount,
            genreIDs: genreIDs)
    }

    /// The JSON body of `GET /3/search/movie?query=…&page=…`: matches of every query word in
    /// the title or original title, 20 a page. As on TMDB, a title equal to the whole query
    /// (ignoring case and accents) ranks first; the rest follow most popular first, so
    /// `Fast & Furious` finds the 2009 film, not its more popular sequel.
    ///
    /// - Parameters:
    ///   - query: the `query` parameter.
    ///   - page: the one-based page number.
    /// - Returns: the response body.
    public func searchResponse(query: String, page: Int) -> Data {
        let words = queryWords(query)
        let whole = folded(query.trimmingCharacters(in: .whitespaces))
        func isExact(_ movie: Movie) -> Bool {
            folded(movie.title) == whole || folded(movie.originalTitle) == whole
        }
        let found =
            words.isEmpty
            ? []
            : ordered.filter { movie in
                let text = folded(movie.title + " " + movie.originalTitle)
                return words.allSatisfy { text.contains($0) }
            }
            .sorted { first, second in
                let (firstExact, secondExact) = (isExact(first), isExact(second))
                if firstExact != secondExact { return firstExact }
                return first.popularity > second.popularity
            }
        let pageSize = 20
        let pages = (found.count + pageSize - 1) / pageSize
        let start = (max(1, page) - 1) * pageSize
        let results = start < found.count ? found[start..<min(found.count, start + pageSize)].map(\.json) : []
        return Self.encode([
            "page": max(1, page), "results": results, "total_pages": pages, "total_results": found.count,
        ])
    }

    /// The JSON body and status of `GET /3/movie/{id}`: the movie, or TMDB's 404 error.
    ///
    /// - Parameter id: the movie id.
    /// - Returns: the HTTP status and the response body.
    public func movieResponse(id: Int) -> (status: Int, body: Data) {
        guard let movie = movies[id] else {
            return (
                404,
                Self.encode([
                    "status_code": 34, "status_message": "The resource you requested could not be found.",
                    "success": false,
                ])
            )
        }
        return (200, Self.encode(movie.json))
    }

    /// TMDB's answer to a request without a valid key: HTTP 401 with status code 7.
    public static let invalidKeyResponse = (
        status: 401,
        body: encode([
            "status_code": 7, "status_message": "Invalid API key: You must be granted a valid key.", "success": false,
        ])
    )

    static func encode(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }
}
