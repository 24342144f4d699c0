import Foundation
import Persistence
import TestSupport
import Testing

/// The samples of the Persistence catalog's "Relationships" article, as printed, run against a
/// real store.
enum RelationshipSamples {
    struct Author: StoredEntity {
        var id: Int64
        var name: String

        static let name = Field<Author, String>("name")
        static let books = ToMany<Author, Book>(inverse: Book.author, orderedBy: [Book.year.ascending()])
    }

    struct Book: StoredEntity {
        var id: Int64
        var title: String
        var year: Int
        var authorID: Int64

        static let title = Field<Book, String>("title")
        static let year = Field<Book, Int>("year")
        static let author = ToOne<Book, Author>(Field("authorID"), onDelete: .cascade)
        static let tags = ManyToMany<Book, Tag>("tags")
        static let relations: [any Relation<Book>] = [author, tags]
    }

    struct Tag: StoredEntity {
        var id: String
    }

    static func samples(url: URL) throws -> [String] {
        let store = try ObjectStore(at: url, entities: [Author.self, Book.self, Tag.self])

        let printed = Collector<String>()
        @Sendable func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        do {
            try store.context.persistAndWait { tx in try tx.insert(Book(id: 1, title: "Dune", year: 1965, authorID: 42))
            }
        } catch PersistenceError.Code.missingReference {
            print("Add the author first")
        }

        try store.context.persistAndWait { tx in
            try tx.insert(Author(id: 42, name: "Frank Herbert"))
            try tx.insert(Book(id: 1, title: "Dune", year: 1965, authorID: 42))
        }

        try store.context.persistAndWait { tx in
            try tx.insert(Tag(id: "sf"))
            try tx.insert(Tag(id: "classic"))
            try tx.setLinks(Book.tags, of: 1, to: ["sf", "classic"])
        }

        let shelves = try store.context.readAndWait { tx in
            try tx.fetch(Query<Author>(sortedBy: [Author.name.ascending()]).including(Author.books))
        }
        for (author, books) in shelves {
            print(author.name, books.map(\.title))
        }

        let (leGuin, early, byAuthor) = try store.context.readAndWait { tx in
            (
                try tx.fetch(Query<Book>(where: Book.author.name == "Ursula K. Le Guin")),
                try tx.fetch(Query<Book>(where: Book.author.name.hasPrefix("frank") && Book.year < 1970)),
                try tx.fetch(Query<Book>(sortedBy: [Book.author.name.ascending(), Book.year.ascending()]))
            )
        }
        print(leGuin.count, early.map(\.title), byAuthor.map(\.title))

        let (prolific, classics) = try store.context.readAndWait { tx in
            (
                try tx.fetch(Query<Author>(where: Author.books.count >= 3)),
                try tx.fetch(Query<Author>(where: Author.books.any(Book.year < 1970) && Author.name.hasPrefix("U")))
            )
        }
        print(prolific.count, classics.count)

        let token = store.observe(.query(Query<Book>(where: Book.author.name == "Ursula K. Le Guin"))) { change in
            print(change.results.map(\.title))
        }
        token.cancel()
        store.close()
        return printed.values
    }
}

@Suite struct RelationshipSampleTests {
    @Test func theRelationshipsArticleSamplesRunAsPrinted() throws {
        let directory = try TemporaryDirectory(prefix: "RelationshipSamples")
        defer { directory.remove() }
        let printed = try RelationshipSamples.samples(url: directory.file("library.sqlite"))
        #expect(
            printed.prefix(4) == [
                "Add the author first", "Frank Herbert [\"Dune\"]", "0 [\"Dune\"] [\"Dune\"]", "0 0",
            ])
    }
}
