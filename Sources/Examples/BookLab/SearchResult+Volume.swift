import ExampleSupport
import Foundation

extension SearchResult: BookFields {
    /// Numbers a decoded volume.
    init(number: Int, query: String, volume: Volume) {
        self.init(
            id: number, query: query, volumeID: volume.id, title: volume.title ?? "(untitled)",
            authors: volume.authors, publisher: volume.publisher, publishedDate: volume.publishedDate,
            summary: volume.summary, isbn: volume.isbn13, thumbnailURL: volume.thumbnailURL)
    }
}

extension LibraryBook: BookFields {}
