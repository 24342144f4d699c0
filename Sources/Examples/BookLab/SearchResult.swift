import Foundation
import Persistence

/// One numbered result of the last search, kept in the store so that a later
/// `booklab add <n>` (a new process) finds it. A new search replaces them all.
struct SearchResult: StoredEntity, BookFields {
    /// The result's number, from 1, as the search printed it.
    var id: Int
    var query: String
    var volumeID: String
    var title: String
    var authors: String?
    var publisher: String?
    var publishedDate: String?
    var summary: String?
    var isbn: String?
    var thumbnailURL: URL?

    /// The table's name, fixed so that renaming the type keeps existing stores readable.
    static let entityName = "SearchResult"
    static let isbnField = Field<SearchResult, String?>("isbn")

    /// Numbers a decoded volume.
    init(number: Int, query: String, volume: Volume) {
        id = number
        self.query = query
        volumeID = volume.id
        title = volume.title ?? "(untitled)"
        authors = volume.authors
        publisher = volume.publisher
        publishedDate = volume.publishedDate
        summary = volume.summary
        isbn = volume.isbn13
        thumbnailURL = volume.thumbnailURL
    }
}
