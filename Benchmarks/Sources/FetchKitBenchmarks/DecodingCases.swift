import Decoding
import Foundation

/// The seed's `BookData` fields, declared with path keys and decoded by the compiler's own
/// `init(from:)` through `PathDecoder`: the same types as ``SeedBookData``, so the two sides do
/// the same work and differ only in how the nesting is expressed.
struct PathKeyedBook: Decodable {
    enum CodingKeys: String, CodingKey {
        case title = "volumeInfo.title"
        case authors = "volumeInfo.authors"
        case publisher = "volumeInfo.publisher"
        case publicationDate = "volumeInfo.publishedDate"
        case bookDescription = "volumeInfo.description"
        case isbn13 = "volumeInfo.industryIdentifiers[type=ISBN_13].identifier"
        case imageURL = "volumeInfo.imageLinks.smallThumbnail"
    }

    var isbn13: String?
    var title: String
    @TransformedIfPresent<JoinedStrings> var authors: String?
    var publisher: String?
    var publicationDate: String?
    var bookDescription: String?
    var imageURL: String?
}

/// The page as the book lab decodes it: `items` (missing when there are no results).
struct PathKeyedPage: Decodable {
    enum CodingKeys: String, CodingKey {
        case books = "items"
    }

    var books: [PathKeyedBook]?
}

let decodingRepeats = 200

/// FetchKit's side: the 40-item page through `PathDecoder`, repeated.
func pathDecodingSide(page: Data) -> Side {
    Side(name: "Decoding path keys") {
        let decoder = PathDecoder()
        var count = 0
        let duration = try time {
            for _ in 0..<decodingRepeats {
                count += try decoder.decode(PathKeyedPage.self, from: page).books?.count ?? 0
            }
        }
        guard count == 40 * decodingRepeats else { throw RawSQLite.Failure(description: "decoded \(count) books") }
        return duration
    }
}

/// The reference: the seed's hand-written `nestedContainer` code with a plain `JSONDecoder`.
func seedDecodingSide(page: Data) -> Side {
    Side(name: "seed nestedContainer + JSONDecoder") {
        let decoder = JSONDecoder()
        var count = 0
        let duration = try time {
            for _ in 0..<decodingRepeats {
                count += try decoder.decode(SeedVolumeData.self, from: page).books?.count ?? 0
            }
        }
        guard count == 40 * decodingRepeats else { throw RawSQLite.Failure(description: "decoded \(count) books") }
        return duration
    }
}

/// The per-request case's body, decoded 20,000 times: the fixed cost of one decode, which a
/// small response pays once per request.
func smallBodyDecodingSides() -> (ours: Side, reference: Side) {
    let body = Data(smallMovieJSON.utf8)
    let repeats = 20_000
    let ours = Side(name: "PathDecoder, small body") {
        let decoder = PathDecoder()
        return try time {
            for _ in 0..<repeats { _ = try decoder.decode(SmallMovie.self, from: body) }
        }
    }
    let reference = Side(name: "JSONDecoder, small body") {
        try time {
            for _ in 0..<repeats { _ = try JSONDecoder().decode(SmallMovie.self, from: body) }
        }
    }
    return (ours, reference)
}
