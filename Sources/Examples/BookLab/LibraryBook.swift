import Foundation
import Persistence

/// A book saved to the library.
///
/// Its identity is the Google Books volume id. Adding a book is an upsert: by the ISBN-13 unique
/// key when the volume has one (Google lists some books under several volume ids; one ISBN is
/// one book), else by the volume id. So adding the same book twice keeps one.
struct LibraryBook: StoredEntity, BookFields {
    /// The Google Books volume id.
    var id: String
    var title: String
    var authors: String?
    var publisher: String?
    var publishedDate: String?
    var summary: String?
    /// The ISBN-13; unique among the books that have one.
    var isbn: String?
    var thumbnailURL: URL?
    /// When the book was first added.
    var addedAt: Date

    var volumeID: String { id }

    static let title = Field<LibraryBook, String>("title")
    /// The table's name, fixed so that renaming the type keeps existing stores readable.
    static let entityName = "LibraryBook"
    static let isbnField = Field<LibraryBook, String?>("isbn")
    static let byISBN = UniqueKey(isbnField)
    static let uniqueKeys = [byISBN]
    static let indexes = [EntityIndex(title, caseInsensitive: true)]

    /// The library's order: by title, ignoring case, then in the order books were added.
    static let byTitle = [title.ascending(caseInsensitive: true)]

    /// Copies a search result into the library.
    init(_ result: SearchResult, addedAt: Date) {
        id = result.volumeID
        title = result.title
        authors = result.authors
        publisher = result.publisher
        publishedDate = result.publishedDate
        summary = result.summary
        isbn = result.isbn
        thumbnailURL = result.thumbnailURL
        self.addedAt = addedAt
    }
}
