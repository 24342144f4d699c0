import Foundation
import Persistence

// Entities related to each other, for the relation tests.

struct RelAuthor: StoredEntity, Equatable {
    var id: Int64
    var name: String

    static let name = Field<RelAuthor, String>("name")
    static let indexes = [EntityIndex(name)]
    static let books = ToMany<RelAuthor, RelBook>(inverse: RelBook.author, orderedBy: [RelBook.year.ascending()])
    static let booksByInsertion = RelBook.author.inverse()
}

struct RelShelf: StoredEntity, Equatable {
    var id: String
    var label: String
}

struct RelBook: StoredEntity, Equatable {
    var id: Int64
    var title: String
    var authorID: Int64
    var shelfID: String?
    var year: Int

    static let title = Field<RelBook, String>("title")
    static let year = Field<RelBook, Int>("year")
    static let authorID = Field<RelBook, Int64>("authorID")
    static let shelfID = Field<RelBook, String?>("shelfID")
    static let author = ToOne<RelBook, RelAuthor>(authorID, onDelete: .cascade)
    static let shelf = ToOne<RelBook, RelShelf>(shelfID, onDelete: .nullify)
    static let tags = ManyToMany<RelBook, RelTag>("tags")
    static let contributors = ManyToMany<RelBook, RelAuthor>(through: RelCredit.book, RelCredit.author)
    static let reviews = ToMany<RelBook, RelReview>(inverse: RelReview.book)
    static let relations: [any Relation<RelBook>] = [author, shelf, tags, contributors]

    init(id: Int64, title: String, authorID: Int64, shelfID: String? = nil, year: Int = 2000) {
        self.id = id
        self.title = title
        self.authorID = authorID
        self.shelfID = shelfID
        self.year = year
    }
}

struct RelReview: StoredEntity, Equatable {
    var id: Int64
    var bookID: Int64
    var stars: Int

    static let stars = Field<RelReview, Int>("stars")
    static let book = ToOne<RelReview, RelBook>(Field("bookID"), onDelete: .deny)
    static let relations: [any Relation<RelReview>] = [book]
}

struct RelTag: StoredEntity, Equatable {
    var id: String
    var name: String

    static let name = Field<RelTag, String>("name")
}

/// A join entity of its own: who contributed to a book, in which role.
struct RelCredit: StoredEntity, Equatable {
    var id: Int64
    var bookID: Int64
    var authorID: Int64
    var role: String

    static let bookID = Field<RelCredit, Int64>("bookID")
    static let authorID = Field<RelCredit, Int64>("authorID")
    static let book = ToOne<RelCredit, RelBook>(bookID, onDelete: .cascade)
    static let author = ToOne<RelCredit, RelAuthor>(authorID, onDelete: .cascade)
    static let relations: [any Relation<RelCredit>] = [book, author]
    static let uniqueKeys = [UniqueKey(bookID, authorID)]
}

let relationEntities: [any StoredEntity.Type] = [
    RelAuthor.self, RelShelf.self, RelBook.self, RelReview.self, RelTag.self, RelCredit.self,
]
