import Decoding
import Foundation

// The flat types the examples use, declared with path keys, plus a hand-written BookData
// (nested containers) for comparison.

/// One Google Books volume, flattened: what the book lab stores.
struct Book: Codable, Equatable, Sendable {
    enum CodingKeys: String, CodingKey {
        case id
        case title = "volumeInfo.title"
        case authors = "volumeInfo.authors"
        case publisher = "volumeInfo.publisher"
        case publishedDate = "volumeInfo.publishedDate"
        case bookDescription = "volumeInfo.description"
        case isbn13 = "volumeInfo.industryIdentifiers[type=ISBN_13].identifier"
        case thumbnailURL = "volumeInfo.imageLinks.smallThumbnail"
    }

    var id: String
    var title: String
    @TransformedIfPresent<JoinedStrings> var authors: String?
    var publisher: String?
    var publishedDate: PartialDate?
    var bookDescription: String?
    var isbn13: String?
    var thumbnailURL: URL?
}

/// One page of a Google Books search; a search with no match has no `items` key.
struct BookPage: Codable, Equatable, Sendable {
    enum CodingKeys: String, CodingKey {
        case totalItems
        case books = "items"
    }

    var totalItems: Int
    @DefaultEmpty var books: [Book]
}

/// The benchmark's path-keyed book: the same fields and types as ``HandWrittenBookData``.
struct PathKeyedBookData: Decodable, Equatable {
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

/// A hand-written Google Books decoder, with RootKeys, BookKeys, ImageKeys and a loop over
/// `industryIdentifiers`.
final class HandWrittenBookData: Decodable {
    var isbn13: String?
    var title: String
    var authors: String?
    var publisher: String?
    var publicationDate: String?
    var bookDescription: String?
    var imageURL: String?

    private enum RootKeys: String, CodingKey {
        case volumeInfo
    }

    private enum BookKeys: String, CodingKey {
        case title
        case publisher
        case publicationDate = "publishedDate"
        case bookDescription = "description"
        case authors
        case industryIdentifiers
        case imageLinks
    }

    private enum ImageKeys: String, CodingKey {
        case smallThumbnail
    }

    private struct ISBNCode: Decodable {
        var type: String
        var identifier: String
    }

    required init(from decoder: any Decoder) throws {
        let rootContainer = try decoder.container(keyedBy: RootKeys.self)
        let bookContainer = try rootContainer.nestedContainer(keyedBy: BookKeys.self, forKey: .volumeInfo)
        let imageContainer = try? bookContainer.nestedContainer(keyedBy: ImageKeys.self, forKey: .imageLinks)
        title = try bookContainer.decode(String.self, forKey: .title)
        publisher = try? bookContainer.decode(String.self, forKey: .publisher)
        publicationDate = try? bookContainer.decode(String.self, forKey: .publicationDate)
        bookDescription = try? bookContainer.decode(String.self, forKey: .bookDescription)
        if let authorArray = try? bookContainer.decode([String].self, forKey: .authors) {
            authors = authorArray.joined(separator: ", ")
        }
        if let isbnCodes = try? bookContainer.decode([ISBNCode].self, forKey: .industryIdentifiers) {
            for code in isbnCodes where code.type == "ISBN_13" {
                isbn13 = code.identifier
            }
        }
        imageURL = try imageContainer?.decode(String.self, forKey: .smallThumbnail)
    }
}

/// The volume list ``HandWrittenBookData`` is decoded from.
struct HandWrittenVolumeData: Decodable {
    enum CodingKeys: String, CodingKey {
        case books = "items"
    }

    var books: [HandWrittenBookData]?
}

/// A page of path-keyed books.
struct PathKeyedVolumeData: Decodable {
    enum CodingKeys: String, CodingKey {
        case books = "items"
    }

    var books: [PathKeyedBookData]?
}

/// A TMDB movie: what MustC stores.
struct Movie: Codable, Equatable, Sendable {
    var id: Int64
    var title: String
    var popularity: Double
}

/// A Flickr photo: what the Flickr example stores. Ids and coordinates arrive as strings or numbers.
struct Photo: Codable, Equatable, Sendable {
    enum CodingKeys: String, CodingKey {
        case id
        case title
        case ownerName = "ownername"
        case latitude
        case longitude
        case photoDescription = "description._content"
    }

    @LosslessValue var id: String
    var title: String
    var ownerName: String?
    @LosslessValue var latitude: Double?
    @LosslessValue var longitude: Double?
    var photoDescription: String?
}

/// Reads JSON text in tests.
func json(_ text: String) -> Data {
    Data(text.utf8)
}

/// A summary of a Google Books page: nested types, optionals, arrays, integers and filters.
struct ShelfSummary: Decodable, Equatable {
    struct Volume: Decodable, Equatable {
        enum CodingKeys: String, CodingKey {
            case id, etag
            case title = "volumeInfo.title"
            case pages = "volumeInfo.pageCount"
            case categories = "volumeInfo.categories"
            case isbn10 = "volumeInfo.industryIdentifiers[type=ISBN_10].identifier"
            case firstIdentifier = "volumeInfo.industryIdentifiers.first"
            case rating = "volumeInfo.averageRating"
            case readingModes = "volumeInfo.readingModes"
            case epub = "accessInfo.epub.isAvailable"
            case price = "saleInfo.retailPrice"
            case language = "volumeInfo.language"
        }
        var id: String
        var etag: String?
        var title: String
        var pages: Int?
        var categories: [String]?
        var isbn10: String?
        var firstIdentifier: [String: String]?
        var rating: Double?
        var readingModes: [String: Bool]?
        var epub: Bool?
        var price: Price?
        var language: String
    }

    struct Price: Decodable, Equatable {
        var amount: Double?
        var currencyCode: String?
    }

    enum CodingKeys: String, CodingKey {
        case kind, totalItems
        case volumes = "items"
        case firstTitle = "items.first.volumeInfo.title"
    }
    var kind: String
    var totalItems: Int64
    var volumes: [Volume]?
    var firstTitle: String?
}

/// One TMDB movie with more of its fields.
struct MovieSummary: Decodable, Equatable {
    struct Genre: Decodable, Equatable {
        var id: Int
        var name: String
    }
    enum CodingKeys: String, CodingKey {
        case id, title, popularity, adult, budget, genres, revenue, runtime, video
        case voteAverage = "vote_average"
        case releaseDate = "release_date"
        case firstGenre = "genres.first.name"
        case homepage
    }
    var id: Int
    var title: String
    var popularity: Double
    var adult: Bool
    var budget: Int?
    var genres: [Genre]?
    var revenue: UInt64?
    var runtime: Int16?
    var video: Bool?
    var voteAverage: Float?
    var releaseDate: String?
    var firstGenre: String?
    var homepage: URL?
}

/// A page of TMDB search results.
struct MovieSearchPage: Decodable, Equatable {
    struct Result: Decodable, Equatable {
        enum CodingKeys: String, CodingKey {
            case id, title, popularity
            case genreIDs = "genre_ids"
            case voteCount = "vote_count"
            case original = "original_title"
            case poster = "poster_path"
        }
        var id: Int
        var title: String
        var popularity: Double
        var genreIDs: [Int]
        var voteCount: Int32
        var original: String?
        var poster: String?
    }
    var page: Int
    var results: [Result]
    var total_results: Int
}
