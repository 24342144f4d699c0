import Foundation
import Persistence
import TestSupport
import Testing

/// The samples of "Queries and sorting" ("Aggregates and groups through relations"), of "Observing
/// changes" (sections keyed through a relation, a live grouped value through one) and of the doc
/// comments of the transaction's and the store's methods that take them, as printed, run against a
/// real store.
enum RelatedAggregateSamples {
    struct Author: StoredEntity {
        var id: Int64
        var name: String

        static let name = Field<Author, String>("name")
        static let books = ToMany<Author, Book>(inverse: Book.author)
    }

    struct Book: StoredEntity {
        var id: Int64
        var title: String
        var pages: Int
        var rating: Double?
        var authorID: Int64?

        static let title = Field<Book, String>("title")
        static let pages = Field<Book, Int>("pages")
        static let rating = Field<Book, Double?>("rating")
        static let author = ToOne<Book, Author>(Field("authorID"), onDelete: .nullify)
        static let tags = ManyToMany<Book, Tag>("tags")
        static let relations: [any Relation<Book>] = [author, tags]
    }

    struct Tag: StoredEntity {
        var id: String
        var name: String

        static let name = Field<Tag, String>("name")
        static let books = ManyToMany<Tag, Book>(through: Tagging.tag, Tagging.book)
    }

    struct Tagging: StoredEntity {
        var id: Int64
        var tagID: String
        var bookID: Int64

        static let tag = ToOne<Tagging, Tag>(Field("tagID"), onDelete: .cascade)
        static let book = ToOne<Tagging, Book>(Field("bookID"), onDelete: .cascade)
        static let relations: [any Relation<Tagging>] = [tag, book]
    }

    /// "One way to compose a read", as printed.
    static func composedRead(tx: ObjectTransaction, print: (Any...) -> Void) throws {
        let shelves = try tx.fetch(
            Query<Book>(sortedBy: [Book.author.ascending(Author.name), Book.title.ascending()])
                .including(Book.tags, Book.tags.aggregate(Aggregate.count(of: Tag.self)))
                .sectioned(by: Book.author.name))
        for shelf in shelves {
            for (book, tags, count) in shelf.rows {
                print(shelf.key ?? "no author", book.title, tags.map(\.name), count)
            }
        }
    }

    static func queries(tx: ObjectTransaction, print: (String) -> Void) throws -> Int {
        let bookCount = Aggregate.count(of: Book.self)
        for (author, books, pages) in try tx.groups(
            Query<Book>(), by: Book.author, aggregating: bookCount, Book.pages.sum(),
            sortedBy: [bookCount.descending()], limit: 10)
        {
            print("\(author.name): \(books) books, \(pages) pages")
        }
        let perName = try tx.groups(
            Query<Book>(), by: Book.author.name, aggregating: bookCount, Book.rating.average(),
            having: bookCount >= 2, sortedBy: [.key(Book.author.ascending(Author.name))])
        let everyAuthor = try tx.fetch(
            Query<Author>(sortedBy: [Author.name.ascending()]).including(
                Author.books.aggregate(bookCount), Author.books.aggregate(Book.rating.average())))
        return perName.count * 10 + everyAuthor.count
    }

    static func manyToMany(tx: ObjectTransaction, print: (String) -> Void) throws -> [String] {
        let bookCount = Aggregate.count(of: Book.self)
        let perBook = try tx.fetch(
            Query<Book>(sortedBy: [Book.title.ascending()]).including(
                Book.tags.aggregate(Aggregate.count(of: Tag.self))))
        let perTag = try tx.fetch(
            Query<Tag>(sortedBy: [Tag.name.ascending()]).including(
                Tag.books.aggregate(bookCount, where: Book.pages > 100),
                Tag.books.aggregate(Book.rating.average(), where: Book.pages > 100)))
        for (tag, books, rating) in perTag {
            print("\(tag.name): \(books) books, rated \(rating ?? 0)")
        }
        return perBook.map { "\($0.0.title) \($0.1)" }
    }

    static func docComments(tx: ObjectTransaction, printed: Collector<String>) throws {
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        for (author, books, pages) in try tx.groups(
            Query<Book>(), by: Book.author, aggregating: Aggregate.count(of: Book.self), Book.pages.sum(),
            sortedBy: [Aggregate.count(of: Book.self).descending()], limit: 10)
        {
            print(author.name, books, pages)
        }
        let perName = try tx.groups(
            Query<Book>(), by: Book.author.name, aggregating: Aggregate.count(of: Book.self), Book.rating.average(),
            having: Aggregate.count(of: Book.self) >= 2, sortedBy: [.key(Book.author.ascending(Author.name))])
        for (name, books, rating) in perName { print(name, books, rating ?? 0) }
        for (author, books, pages) in try tx.fetch(
            Query<Author>(sortedBy: [Author.name.ascending()]).including(
                Author.books.aggregate(Aggregate.count(of: Book.self)), Author.books.aggregate(Book.pages.sum())))
        {
            print(author.name, books, pages)
        }
        let shelves = try tx.fetch(
            Query<Book>(sortedBy: [Book.author.ascending(Author.name), Book.title.ascending()]).sectioned(
                by: Book.author.name))
        for shelf in shelves { print(shelf.key ?? "no author", shelf.rows.map(\.title)) }
        for (book, tags, longest) in try tx.fetch(
            Query<Book>(sortedBy: [Book.title.ascending()]).including(
                Book.tags.aggregate(Aggregate.count(of: Tag.self)), Book.tags.aggregate(Tag.name.max())))
        {
            print(book.title, tags, longest ?? "-")
        }
    }

    static func observe(store: ObjectStore, print: @escaping @Sendable (String, Int) -> Void) -> ObservationToken {
        let query = Query<Book>(sortedBy: [Book.author.ascending(Author.name), Book.title.ascending()])
        let token = store.observe(.query(query, sectionedBy: Book.author.name)) { change in
            for section in change.sections { print(section.key ?? "no author", section.rows.count) }
        }
        return token
    }

    @MainActor final class AuthorsHeader {
        let perAuthor: LiveValue<[(String, Int)]>

        init(store: ObjectStore) {
            perAuthor = LiveValue(
                .value(tracking: Book.self, Author.self) { tx in
                    try tx.groups(Query<Book>(), by: Book.author.name, aggregating: Aggregate.count(of: Book.self))
                }, in: store)
        }
    }
}

@Suite struct RelatedAggregateSampleTests {
    typealias Author = RelatedAggregateSamples.Author
    typealias Book = RelatedAggregateSamples.Book

    @Test @MainActor func theSamplesRunAsPrinted() async throws {
        let directory = try TemporaryDirectory(prefix: "RelatedAggregateSamples")
        defer { directory.remove() }
        let store = try ObjectStore(
            at: directory.file("library.sqlite"),
            entities: [Author.self, Book.self, RelatedAggregateSamples.Tag.self, RelatedAggregateSamples.Tagging.self])
        defer { store.close() }
        try store.context.persistAndWait { tx in
            try tx.insert(Author(id: 1, name: "Ursula K. Le Guin"))
            try tx.insert(Author(id: 2, name: "Frank Herbert"))
            try tx.insert(Author(id: 3, name: "Octavia E. Butler"))
            try tx.insert(Book(id: 1, title: "The Dispossessed", pages: 387, rating: 4.5, authorID: 1))
            try tx.insert(Book(id: 2, title: "A Wizard of Earthsea", pages: 183, rating: 4, authorID: 1))
            try tx.insert(Book(id: 3, title: "Dune", pages: 412, rating: 4.5, authorID: 2))
            try tx.insert(Book(id: 4, title: "Anonymous", pages: 10, rating: nil, authorID: nil))
        }
        let printed = Collector<String>()
        let counted = try store.context.readAndWait { tx in
            try RelatedAggregateSamples.queries(tx: tx) { printed.append($0) }
        }
        #expect(printed.values == ["Ursula K. Le Guin: 2 books, 570 pages", "Frank Herbert: 1 books, 412 pages"])
        // One name with two books or more; every author, Octavia E. Butler without books too.
        #expect(counted == 13)
        try store.context.persistAndWait { tx in
            try tx.insert(RelatedAggregateSamples.Tag(id: "sf", name: "Science fiction"))
            try tx.insert(RelatedAggregateSamples.Tag(id: "fantasy", name: "Fantasy"))
            try tx.insert(RelatedAggregateSamples.Tag(id: "unused", name: "Unused"))
            try tx.setLinks(Book.tags, of: 1, to: ["sf"])
            try tx.setLinks(Book.tags, of: 2, to: ["fantasy", "sf"])
            try tx.insert(RelatedAggregateSamples.Tagging(id: 1, tagID: "sf", bookID: 1))
            try tx.insert(RelatedAggregateSamples.Tagging(id: 2, tagID: "sf", bookID: 3))
            try tx.insert(RelatedAggregateSamples.Tagging(id: 3, tagID: "sf", bookID: 4))
            try tx.insert(RelatedAggregateSamples.Tagging(id: 4, tagID: "fantasy", bookID: 2))
        }
        let perTag = Collector<String>()
        let perBook = try store.context.readAndWait { tx in
            try RelatedAggregateSamples.manyToMany(tx: tx) { perTag.append($0) }
        }
        #expect(perBook == ["A Wizard of Earthsea 2", "Anonymous 0", "Dune 0", "The Dispossessed 1"])
        // "Anonymous" (10 pages) is not counted among the science fiction.
        #expect(
            perTag.values == [
                "Fantasy: 1 books, rated 4.0", "Science fiction: 2 books, rated 4.5", "Unused: 0 books, rated 0.0",
            ])
        let composed = Collector<String>()
        try store.context.readAndWait { tx in
            try RelatedAggregateSamples.composedRead(tx: tx) { values in
                composed.append(values.map { "\($0)" }.joined(separator: " "))
            }
        }
        // Sections by author name (no author first), each book with its tags and their count.
        #expect(
            composed.values == [
                "no author Anonymous [] 0", "Frank Herbert Dune [] 0",
                "Ursula K. Le Guin A Wizard of Earthsea [\"Fantasy\", \"Science fiction\"] 2",
                "Ursula K. Le Guin The Dispossessed [\"Science fiction\"] 1",
            ])
        let lines = Collector<String>()
        try store.context.readAndWait { tx in
            try RelatedAggregateSamples.docComments(tx: tx, printed: lines)
        }
        #expect(lines.values.contains("Octavia E. Butler 0 0"))
        #expect(lines.values.contains("A Wizard of Earthsea 2 Science fiction"))
        #expect(lines.values.contains("Dune 0 -"))
        #expect(lines.values.contains("Ursula K. Le Guin [\"A Wizard of Earthsea\", \"The Dispossessed\"]"))
        let sections = Collector<String>()
        let token = RelatedAggregateSamples.observe(store: store) { key, count in sections.append("\(key) \(count)") }
        defer { token.cancel() }
        try await waitUntil("the first delivery") { sections.values.count == 3 }
        #expect(sections.values == ["no author 1", "Frank Herbert 1", "Ursula K. Le Guin 2"])
        let header = RelatedAggregateSamples.AuthorsHeader(store: store)
        try await waitUntil("the live value") { header.perAuthor.value != nil }
        let perAuthor = header.perAuthor.value?.map { "\($0.0) \($0.1)" }
        #expect(perAuthor == ["Frank Herbert 1", "Ursula K. Le Guin 2"])
    }
}
