import FetchKit
import Foundation

/// The Google Books endpoints the book lab uses, at a base URL: the real API's
/// `https://www.googleapis.com/books/v1`, or the offline server's `/books/v1`.
///
/// The query is a `URLQueryItem` that FetchKit encodes with every reserved character escaped,
/// so `C++ & Rust` arrives intact.
struct GoogleBooks: Endpoint {
    /// One request to the volumes collection.
    enum Route: Sendable {
        /// One page of a search: `q=<words>&startIndex=…&maxResults=…`.
        case search(words: String, page: PageRequest)
        /// The volumes with one ISBN: `q=isbn:<isbn>`.
        case isbn(String)
    }

    /// The real API (searching needs no key).
    static let liveBaseURL = URL(string: "https://www.googleapis.com/books/v1")

    let baseURL: URL
    let route: Route

    var path: String { "/volumes" }

    var queryItems: [URLQueryItem] {
        switch route {
        case .search(let words, let page):
            [URLQueryItem(name: "q", value: words)]
                + page.offsetQueryItems(offsetName: "startIndex", sizeName: "maxResults")
        case .isbn(let isbn):
            [URLQueryItem(name: "q", value: "isbn:\(isbn)"), URLQueryItem(name: "maxResults", value: "10")]
        }
    }
}
