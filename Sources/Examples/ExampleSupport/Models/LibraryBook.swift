public import Foundation
public import Persistence
public import Sync

/// A book saved to the `booklab` example's library.
///
/// Its identity is the Google Books volume id. Adding a book is an upsert: by the ISBN-13 unique
/// key when the volume has one (Google lists some books under several volume ids; one ISBN is
/// one book), else by the volume id. So adding the same book twice keeps one. It lives in
/// `ExampleSupport` so the program and its end-to-end tests share one declaration.
public struct LibraryBook: StoredEntity {
    /// The Google Books volume id.
    public var id: String
    /// The title.
    public var title: String
    /// The authors, joined.
    public var authors: String?
    /// The publisher.
    public var publisher: String?
    /// The published date as Google sent it.
    public var publishedDate: String?
    /// The description.
    public var summary: String?
    /// The ISBN-13; unique among the books that have one.
    public var isbn: String?
    /// The small thumbnail's URL.
    public var thumbnailURL: URL?
    /// When the book was first added.
    public var addedAt: Date
    /// Your own rating, 1 to 5 stars, or `nil` while unrated.
    public var rating: Int?
    /// The sync server's `updated` timestamp of the record this row last matched, exactly as the
    /// server wrote it; `nil` for a book never synced (`booklab sync`).
    public var serverUpdated: String?
    /// The sync server's id of the book's record (PocketBase's own `id`), whoever created it;
    /// `nil` until the server has the book (`booklab sync`).
    public var recordID: String?
    /// The cover you gave the book (`booklab cover`), a file of the sync server's `cover` field;
    /// `nil` or empty for none.
    public var cover: SyncedFile?

    /// The Google Books volume id (the identity).
    public var volumeID: String { id }

    /// The title column.
    public static let title = Field<LibraryBook, String>("title")
    /// The table's name, fixed so that renaming the type keeps existing stores readable.
    public static let entityName = "LibraryBook"
    /// The ISBN column.
    public static let isbnField = Field<LibraryBook, String?>("isbn")
    /// The indexes that serve the library's order and look-ups by ISBN. The ISBN is not a unique
    /// key: a synced library holds what the server holds, and two devices can add two volumes
    /// of one ISBN (`booklab add` still keeps one book per ISBN on one device).
    public static let indexes = [EntityIndex(title, caseInsensitive: true), EntityIndex(isbnField)]
    /// The server's `updated` column (``serverUpdated``).
    public static let serverUpdatedField = Field<LibraryBook, String?>("serverUpdated")
    /// The server's record id column (``recordID``).
    public static let recordIDField = Field<LibraryBook, String?>("recordID")
    /// The publisher column: this device's own (the server's books have none).
    public static let publisherField = Field<LibraryBook, String?>("publisher")
    /// The published date column: this device's own.
    public static let publishedDateField = Field<LibraryBook, String?>("publishedDate")
    /// The description column: this device's own.
    public static let summaryField = Field<LibraryBook, String?>("summary")
    /// The thumbnail column: this device's own.
    public static let thumbnailURLField = Field<LibraryBook, URL?>("thumbnailURL")
    /// The rating column, for `booklab rate` and the library's average.
    public static let ratingField = Field<LibraryBook, Int?>("rating")
    /// When the book was first added, kept when it is added again.
    public static let addedAtField = Field<LibraryBook, Date>("addedAt")
    /// The authors column.
    public static let authorsField = Field<LibraryBook, String?>("authors")
    /// The words of titles and authors, for `booklab list --find`.
    public static let fullTextIndex: FullTextIndex<LibraryBook>? = FullTextIndex(title, authorsField)

    /// The library's order: by title, ignoring case, then in the order books were added.
    public static let byTitle = [title.ascending(caseInsensitive: true)]

    /// The book's authors, in the order the book lists them: a many-to-many relation the store
    /// keeps in a link table (removing a book removes its links, never its authors).
    public static let writtenBy = ManyToMany<LibraryBook, LibraryAuthor>("authors")
    /// The relations: ``writtenBy``.
    public static let relations: [any Relation<LibraryBook>] = [writtenBy]

    /// The author names of ``authors``, each once, in order.
    public var authorNames: [String] {
        var seen: Set<String> = []
        return (authors ?? "").components(separatedBy: ", ").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// Creates a book from its stored values; the optional ones default to `nil`.
    public init(
        id: String, title: String, authors: String? = nil, publisher: String? = nil, publishedDate: String? = nil,
        summary: String? = nil, isbn: String? = nil, thumbnailURL: URL? = nil, addedAt: Date, rating: Int? = nil,
        serverUpdated: String? = nil, recordID: String? = nil, cover: SyncedFile? = nil
    ) {
        self.cover = cover
        self.serverUpdated = serverUpdated
        self.recordID = recordID
        self.id = id
        self.title = title
        self.authors = authors
        self.publisher = publisher
        self.publishedDate = publishedDate
        self.summary = summary
        self.isbn = isbn
        self.thumbnailURL = thumbnailURL
        self.addedAt = addedAt
        self.rating = rating
    }

    /// Copies a search result into the library.
    public init(_ result: SearchResult, addedAt: Date) {
        self.init(
            id: result.volumeID, title: result.title, authors: result.authors, publisher: result.publisher,
            publishedDate: result.publishedDate, summary: result.summary, isbn: result.isbn,
            thumbnailURL: result.thumbnailURL, addedAt: addedAt)
    }
}
