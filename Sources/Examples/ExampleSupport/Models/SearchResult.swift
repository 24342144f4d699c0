public import Foundation
public import Persistence

/// One numbered result of the `booklab` example's last search, kept in the store so that a
/// later `booklab add <n>` (a new process) finds it. A new search replaces them all.
///
/// It lives in `ExampleSupport` so the program and its end-to-end tests share one
/// declaration of the store's shape.
public struct SearchResult: StoredEntity {
    /// The result's number, from 1, as the search printed it.
    public var id: Int
    /// The search's words.
    public var query: String
    /// The Google Books volume id.
    public var volumeID: String
    /// The title.
    public var title: String
    /// The authors, joined.
    public var authors: String?
    /// The publisher.
    public var publisher: String?
    /// The published date as Google sent it (`"1862"`, `"2016-10"` or `"2016-10-14"`).
    public var publishedDate: String?
    /// The description.
    public var summary: String?
    /// The ISBN-13.
    public var isbn: String?
    /// The small thumbnail's URL.
    public var thumbnailURL: URL?

    /// The table's name, fixed so that renaming the type keeps existing stores readable.
    public static let entityName = "SearchResult"
    /// The ISBN column.
    public static let isbnField = Field<SearchResult, String?>("isbn")

    /// Creates a result from all its stored values.
    public init(
        id: Int, query: String, volumeID: String, title: String, authors: String?, publisher: String?,
        publishedDate: String?, summary: String?, isbn: String?, thumbnailURL: URL?
    ) {
        self.id = id
        self.query = query
        self.volumeID = volumeID
        self.title = title
        self.authors = authors
        self.publisher = publisher
        self.publishedDate = publishedDate
        self.summary = summary
        self.isbn = isbn
        self.thumbnailURL = thumbnailURL
    }
}
