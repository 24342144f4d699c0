import Foundation
import Persistence
import TestSupport

struct Book: StoredEntity, Equatable {
    struct Identifier: Codable, Sendable, Hashable {
        var type: String
        var identifier: String
    }

    var id: String
    var title: String
    var authors: [String]
    var isbn: String?
    var rating: Double?
    var pages: Int
    var identifiers: [Identifier] = []
    var summary: String?

    static let title = Field<Book, String>("title")
    static let isbn = Field<Book, String?>("isbn")
    static let rating = Field<Book, Double?>("rating")
    static let pages = Field<Book, Int>("pages")
    static let summary = Field<Book, String?>("summary")
    static let isbnKey = UniqueKey(isbn)
    static let uniqueKeys = [isbnKey]
    static let indexes = [EntityIndex(title, caseInsensitive: true), EntityIndex(pages)]

    init(
        id: String, title: String, authors: [String] = [], isbn: String? = nil, rating: Double? = nil,
        pages: Int = 100, summary: String? = nil
    ) {
        self.id = id
        self.title = title
        self.authors = authors
        self.isbn = isbn
        self.rating = rating
        self.pages = pages
        self.summary = summary
    }
}

struct Counter: StoredEntity, Equatable {
    var id: Int64
    var value: Int
}

enum Shelf: String, Codable, QueryableValue, CaseIterable {
    case reading, done
}

struct Photo: StoredEntity, Equatable {
    var id: UUID
    var remoteID: String
    var title: String
    var latitude: Double
    var takenAt: Date
    var url: URL?
    var shelf: Shelf
    var thumbnail: Data?

    static let remoteID = Field<Photo, String>("remoteID")
    static let shelf = Field<Photo, Shelf>("shelf")
    static let takenAt = Field<Photo, Date>("takenAt")
    static let remoteKey = UniqueKey(remoteID)
    static let uniqueKeys = [remoteKey]
}
