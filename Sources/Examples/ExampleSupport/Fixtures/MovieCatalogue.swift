public import Foundation

/// The offline TMDB catalogue: movies shaped like `GET /3/search/movie` results and
/// `GET /3/movie/{id}` objects (shapes from the real responses recorded in
/// `Sources/TestSupport/Fixtures/tmdb/`: null `backdrop_path`, empty `release_date`,
/// `vote_average` as an integer or a float).
///
/// Well-known titles keep their real TMDB ids; the rest is generated deterministically.
/// Popularity drifts: a catalogue made with a drift seed moves every popularity by a few
/// percent, so a refresh in a later run sees changed values; without one, values are fixed.
public struct MovieCatalogue: Sendable {
    /// One movie.
    public struct Movie: Sendable {
        /// The TMDB id.
        public var id: Int
        /// The title.
        public var title: String
        /// The original title.
        public var originalTitle: String
        /// `"1999-10-15"`, or `""` as TMDB sends for unknown dates.
        public var releaseDate: String
        /// The popularity, after drift.
        public var popularity: Double
        /// The mean vote, 0 to 10 (sent as an integer when it is whole; 0 without votes).
        public var voteAverage: Double
        /// How many votes the mean is of.
        public var voteCount: Int

        /// The JSON object of this movie as a search result or a movie detail.
        public var json: [String: Any] {
            [
                "adult": false, "backdrop_path": id % 3 == 0 ? NSNull() : "/b\(id).jpg" as Any,
                "genre_ids": id % 4 == 0 ? [] : [18, 53], "id": id, "original_language": "en",
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
    private let ordered: [Movie]

    /// Real films with their TMDB ids, release dates, and popularity and votes of the
    /// order TMDB shows (a new release's popularity runs into the thousands for a while).
    private static let wellKnown: [(Int, String, String, String, Double, Double, Int)] = [
        (550, "Fight Club", "Fight Club", "1999-10-15", 73.433, 8.4, 30_112),
        (13804, "Fast & Furious", "Fast & Furious", "2009-04-02", 38.2, 6.7, 6_245),
        (82992, "Fast & Furious 6", "Fast & Furious 6", "2013-05-21", 41.5, 6.8, 8_930),
        (194, "Amélie", "Le Fabuleux Destin d'Amélie Poulain", "2001-04-25", 32.7, 7.9, 11_380),
        (129, "Spirited Away", "千と千尋の神隠し", "2001-07-20", 88.1, 8.5, 16_910),
        (18148, "Tokyo Story", "東京物語", "1953-11-03", 12.9, 8.1, 1_054),
        (1011985, "Kung Fu Panda 4", "Kung Fu Panda 4", "2024-03-02", 1610.2, 7.1, 2_211),
        (603, "The Matrix", "The Matrix", "1999-03-30", 65.8, 8.2, 26_014),
        (101, "Léon: The Professional", "Léon", "1994-09-14", 44.0, 8.3, 14_786),
        (787, "Mr. & Mrs. Smith", "Mr. & Mrs. Smith", "2005-06-07", 39.9, 6.6, 9_104),
        (807, "Se7en", "Se7en", "1995-09-22", 58.3, 8.4, 21_452),
        (150540, "Inside Out", "Inside Out", "2015-06-09", 97.4, 7.9, 22_310),
        (199951, "The Invisible Woman", "The Invisible Woman", "", 3.5, 0, 0),
        // A title with `+`, and a more popular one with the same words: only a query that
        // arrives with its `+` intact (sent as %2B) finds the 1996 film first.
        (454, "Romeo + Juliet", "Romeo + Juliet", "1996-11-01", 24.6, 6.7, 4_002),
        (6003, "Romeo and Juliet", "Romeo and Juliet", "1968-10-08", 36.4, 7.3, 1_008),
    ]
    private static let adjectives = ["Silent", "Last", "Broken", "Golden", "Hidden", "Red", "Endless", "Little"]
    private static let nouns = ["River", "Summer", "Kingdom", "Machine", "Garden", "Letter", "Storm", "Harbour"]

    /// Builds the catalogue.
    ///
    /// - Parameter driftSeed: nil for fixed popularity values; any other value moves each
    ///   popularity by up to ±8 %, differently for each seed.
    public init(driftSeed: UInt64? = nil) {
        var base: [Movie] = Self.wellKnown.map { id, title, original, date, popularity, vote, votes in
            Movie(
                id: id, title: title, originalTitle: original, releaseDate: date, popularity: popularity,
                voteAverage: vote, voteCount: votes)
        }
        var generator = SeededGenerator(seed: 0x00C1_4E3A)
        for index in 0..<240 {
            let title = "The \(generator.pick(Self.adjectives)) \(generator.pick(Self.nouns))"
            let year = Int.random(in: 1950...2024, using: &generator)
            let month = Int.random(in: 1...12, using: &generator)
            let day = Int.random(in: 1...28, using: &generator)
            // Most films have a few hundred votes; an unreleased one (no date) has none.
            let votes = index % 17 == 0 ? 0 : Int.random(in: 3...2_400, using: &generator)
            let vote = (Double.random(in: 4.5...8.6, using: &generator) * 10).rounded() / 10
            base.append(
                Movie(
                    id: 400_000 + index * 7, title: index % 4 == 0 ? "\(title) \(index / 4 + 2)" : title,
                    originalTitle: title,
                    releaseDate: index % 17 == 0 ? "" : String(format: "%04d-%02d-%02d", year, month, day),
                    popularity: (Double.random(in: 1.5...95, using: &generator) * 1000).rounded() / 1000,
                    voteAverage: votes == 0 ? 0 : vote, voteCount: votes))
        }
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
