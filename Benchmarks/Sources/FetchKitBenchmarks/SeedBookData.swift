import Foundation

/// The seed's hand-written `BookData` decoding (seed 003), as a struct: three sets of coding
/// keys, two `nestedContainer` calls and a loop over `industryIdentifiers`. This is the
/// reference the path-keyed `Book` is measured against.
struct SeedBookData: Decodable {
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

    init(from decoder: any Decoder) throws {
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

/// The seed's `VolumeData`: the page's `items` as an optional array of books.
struct SeedVolumeData: Decodable {
    var books: [SeedBookData]?

    private enum CodingKeys: String, CodingKey {
        case books = "items"
    }
}

/// A 40-item Google Books page built from the real recorded items in the fixtures
/// (the two "Dawn" pages: 30 + the first 10 of the second), as one JSON document.
func googleBooksPage40() throws -> Data {
    var items: [Any] = []
    for name in ["volumes_dawn_page1_30_items", "volumes_dawn_page2_30_items"] {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures") else {
            throw RawSQLite.Failure(description: "missing fixture \(name).json")
        }
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        items += ((object as? [String: Any])?["items"] as? [Any]) ?? []
    }
    let page: [String: Any] = ["kind": "books#volumes", "totalItems": 811, "items": Array(items.prefix(40))]
    return try JSONSerialization.data(withJSONObject: page)
}
