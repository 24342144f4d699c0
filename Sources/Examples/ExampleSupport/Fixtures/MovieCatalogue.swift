public import Foundation
import SeededRandom

/// The offline TMDB catalogue: real films, shaped like `GET /3/search/movie` results and
/// `GET /3/movie/{id}` objects (shapes from the real responses recorded in
/// `Tests/Support/TestSupport/Fixtures/tmdb/`: null `backdrop_path` and `poster_path` for some,
/// `vote_average` as an integer when it is whole).
///
/// The films are the ones a newcomer names first: the all-time box office, the most voted,
/// each decade from the 1920s, animation, world cinema under its original titles, and every
/// film of the big series. Titles, original titles and languages, release dates and genres
/// are facts (the tables in `Films/`); popularity and vote figures are of the right order for
/// each film's standing, not TMDB's values of any one day; the overviews are our own
/// sentences. Nothing in the catalogue is generated. Films whose TMDB id the tables record
/// carry it; the others have ids from 9,000,000 up, which TMDB has not used.
///
/// Popularity drifts: a catalogue made with a drift seed moves every popularity by a few
/// percent, so a refresh in a later run sees changed values; without one, values are fixed.
public struct MovieCatalogue: Sendable {
    /// One movie.
    public struct Movie: Sendable {
        /// The TMDB id.
        public var id: Int
        /// The title.
        public var title: String
        /// The original title, in the film's own language and script.
        public var originalTitle: String
        /// The ISO 639-1 code of the original language, such as `"en"` or `"ja"` (TMDB's
        /// `"cn"` for Cantonese).
        public var originalLanguage: String
        /// `"1999-10-15"`.
        public var releaseDate: String
        /// The popularity, after drift.
        public var popularity: Double
        /// The mean vote, 0 to 10 with one decimal (sent as an integer when it is whole).
        public var voteAverage: Double
        /// How many votes the mean is of.
        public var voteCount: Int
        /// TMDB genre ids, such as 18 (drama).
        public var genreIDs: [Int]
        /// Other titles the search finds the movie by, such as `Star Wars: Episode IV - A New Hope`.
        public var alternativeTitles: [String]
        /// The title, original title and other titles, for matching.
        let searchText: SearchText

        /// The release year, such as `1999`.
        public var year: Int? { Int(releaseDate.prefix(4)) }

        /// The JSON object of this movie as a search result or a movie detail.
        public var json: [String: Any] {
            [
                "adult": false, "backdrop_path": id % 3 == 0 ? NSNull() : "/b\(id).jpg" as Any,
                "genre_ids": genreIDs, "id": id, "original_language": originalLanguage,
                "original_title": originalTitle,
                "overview":
                    "A film of \(year.map(String.init) ?? "unknown date") in the offline catalogue of FetchKit's mustc example.",
                "popularity": popularity, "poster_path": id % 5 == 0 ? NSNull() : "/p\(id).jpg" as Any,
                "release_date": releaseDate, "title": title, "video": false,
                "vote_average": voteAverage.rounded() == voteAverage ? Int(voteAverage) as Any : voteAverage as Any,
                "vote_count": voteCount,
            ]
        }
    }

    /// The movies, by id.
    public let movies: [Int: Movie]
    /// Every movie, in catalogue order (the tables' order: sagas, franchises, … world cinema).
    public let allMovies: [Movie]

    /// The first id given to a film whose TMDB id the tables do not record.
    static let firstUnrecordedID = 9_000_000

    /// Builds the catalogue.
    ///
    /// - Parameter driftSeed: nil for fixed popularity values; any other value moves each
    ///   popularity by up to ±8 %, differently for each seed.
    public init(driftSeed: UInt64? = nil) {
        var base = Self.catalogue
        if let driftSeed {
            var drift = SeededGenerator(seed: driftSeed)
            base = base.map { movie in
                var moved = movie
                let factor = 1 + Double.random(in: -0.08...0.08, using: &drift)
                moved.popularity = (movie.popularity * factor * 1000).rounded() / 1000
                return moved
            }
        }
        allMovies = base
        movies = Dictionary(base.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The films of the tables, with their ids (built once).
    private static let catalogue: [Movie] = {
        var used = Set(Films.all.compactMap(\.tmdbID))
        return Films.all.map { film in
            let id = film.tmdbID ?? unrecordedID(for: film, avoiding: &used)
            return Movie(
                id: id, title: film.title, originalTitle: film.originalTitle, originalLanguage: film.language,
                releaseDate: film.releaseDate, popularity: film.popularity, voteAverage: film.voteAverage,
                voteCount: film.voteCount, genreIDs: film.genres.map(\.rawValue),
                alternativeTitles: film.alternativeTitles,
                searchText: SearchText([film.title, film.originalTitle] + film.alternativeTitles))
        }
    }()

    /// A stable id from 9,000,000 up for a film without a recorded TMDB id: a hash of its
    /// title and date, moved on past any id already used.
    private static func unrecordedID(for film: Film, avoiding used: inout Set<Int>) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in (film.title + film.releaseDate).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        var id = firstUnrecordedID + Int(hash % 900_000)
        while !used.insert(id).inserted { id += 1 }
        return id
    }

    /// The movies a search finds, best first, as TMDB ranks them: a title (or original or
    /// other title) equal to the whole query first, then the rest by popularity, most popular
    /// first. Every word of the query must start a word of a title, in any order, ignoring
    /// case and accents.
    ///
    /// - Parameters:
    ///   - query: the words searched for.
    ///   - year: only movies released that year (TMDB's `primary_release_year`), or any year.
    /// - Returns: the matches; none for a query without letters or digits.
    public func matches(_ query: String, year: Int? = nil) -> [Movie] {
        let query = SearchText.Query(query)
        let found = allMovies.filter { movie in
            (year == nil || movie.year == year) && movie.searchText.contains(query)
        }
        let exact = Set(found.filter { $0.searchText.isExactly(query) }.map(\.id))
        return found.sorted { first, second in
            let (firstExact, secondExact) = (exact.contains(first.id), exact.contains(second.id))
            if firstExact != secondExact { return firstExact }
            if first.popularity != second.popularity { return first.popularity > second.popularity }
            return first.id < second.id
        }
    }

    /// The JSON body of `GET /3/search/movie?query=…&page=…&primary_release_year=…`: the
    /// ``matches(_:year:)`` of the query, 20 a page. `Fast & Furious` finds the 2009 film, not
    /// its more popular sequel.
    ///
    /// - Parameters:
    ///   - query: the `query` parameter.
    ///   - page: the one-based page number.
    ///   - year: the `primary_release_year` (or `year`) parameter, if any.
    /// - Returns: the response body.
    public func searchResponse(query: String, page: Int, year: Int? = nil) -> Data {
        let found = matches(query, year: year)
        let pageSize = 20
        let pages = (found.count + pageSize - 1) / pageSize
        let page = min(max(1, page), 500)
        let start = (page - 1) * pageSize
        let results = start < found.count ? found[start..<min(found.count, start + pageSize)].map(\.json) : []
        return Self.encode([
            "page": page, "results": results, "total_pages": pages, "total_results": found.count,
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
