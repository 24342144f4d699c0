import FetchKit
import Foundation

/// The TMDB requests MustC makes, as a FetchKit endpoint: the key (and the user session) is
/// never part of a URL string, and FetchKit percent-encodes every query value (so
/// `Fast & Furious` stays one query value).
///
/// The base URL is part of the value so the same endpoints reach the real API or the
/// offline server.
struct TMDBEndpoint: Endpoint {
    /// What to ask TMDB.
    enum Route: Sendable {
        /// `GET /search/movie?query=<title>[&primary_release_year=<year>]`: movies matching a
        /// title (released that year, when a year is given), best first.
        case searchMovie(title: String, year: Int?)
        /// `GET /movie/{id}`: one movie by its TMDB id.
        case movie(id: Int64)
        /// `GET /account`: the account of the user session.
        case account
        /// `GET /account/{account}/watchlist/movies?page=<page>&sort_by=created_at.asc`: a page of
        /// the account's watchlist, oldest entry first.
        case watchlist(account: Int64, page: Int)
        /// `POST /account/{account}/watchlist` with `{"media_type": "movie", "media_id": <movie>,
        /// "watchlist": <on>}`: puts a movie on the watchlist, or takes it off.
        case setWatchlist(account: Int64, movie: Int64, on: Bool)
    }

    /// `https://api.themoviedb.org/3`, or the offline server's `/3`.
    let baseURL: URL
    /// The request.
    let route: Route

    var path: String {
        switch route {
        case .searchMovie: "/search/movie"
        case .movie(let id): "/movie/\(id)"
        case .account: "/account"
        case .watchlist(let account, _): "/account/\(account)/watchlist/movies"
        case .setWatchlist(let account, _, _): "/account/\(account)/watchlist"
        }
    }

    var method: HTTPMethod {
        if case .setWatchlist = route { return .post }
        return .get
    }

    var body: RequestBody? {
        guard case .setWatchlist(_, let movie, let on) = route else { return nil }
        return .json(WatchlistChange(mediaID: movie, watchlist: on))
    }

    var queryItems: [URLQueryItem] {
        switch route {
        case .searchMovie(let title, let year):
            [URLQueryItem(name: "query", value: title)]
                + (year.map { [URLQueryItem(name: "primary_release_year", value: String($0))] } ?? [])
        case .watchlist(_, let page):
            [URLQueryItem(name: "page", value: String(page)), URLQueryItem(name: "sort_by", value: "created_at.asc")]
        case .movie, .account, .setWatchlist: []
        }
    }

    /// The body of a watchlist change.
    private struct WatchlistChange: Encodable {
        enum CodingKeys: String, CodingKey {
            case mediaType = "media_type"
            case mediaID = "media_id"
            case watchlist
        }

        var mediaType = "movie"
        var mediaID: Int64
        var watchlist: Bool
    }
}

/// The first page of a TMDB search, as MustC reads it: the matches, best first, and how many
/// there are in all.
struct TMDBSearchPage: Decodable, Sendable {
    enum CodingKeys: String, CodingKey {
        case results
        case totalResults = "total_results"
    }

    /// The matches of the page, best first.
    var results: [TMDBMovie]
    /// How many matches the search has on all its pages.
    var totalResults: Int
}

/// The part of a TMDB movie MustC reads, from a search result or a movie detail.
struct TMDBMovie: Decodable, Sendable {
    enum CodingKeys: String, CodingKey {
        case id, title, popularity
        case releaseDate = "release_date"
    }

    /// The TMDB id.
    var id: Int64
    /// TMDB's title.
    var title: String
    /// TMDB's popularity score.
    var popularity: Double?
    /// `"2001-04-25"`, or empty when TMDB does not know it.
    var releaseDate: String?

    /// The release year, when TMDB knows the date.
    var year: String? {
        guard let date = releaseDate, date.count >= 4 else { return nil }
        return String(date.prefix(4))
    }
}
