import Foundation
import Persistence
import TestSupport
import Testing

// The documentation's code samples, compiled (and the cheap ones run) so they stay honest.

private enum Samples {
    struct Book: StoredEntity {
        var id: String
        var title: String
        var authors: [String]
        var isbn: String?

        static let title = Field<Book, String>("title")
        static let isbn = Field<Book, String?>("isbn")
        static let byISBN = UniqueKey(isbn)
        static let uniqueKeys = [byISBN]
        static let indexes = [EntityIndex(title, caseInsensitive: true)]
    }

    struct Movie: StoredEntity {
        var id: Int64
        var title: String
        var popularity: Double?

        static let popularity = Field<Movie, Double?>("popularity")
    }

    @MainActor final class LibraryScreen {
        var allBooks: [Book] = []
        var token: ObservationToken?
        func show(_ store: ObjectStore) {
            token = store.observe(.query(Query<Book>(sortedBy: [Book.title.ascending(caseInsensitive: true)]))) {
                [weak self] change in
                guard let self else { return }
                self.allBooks = change.results
            }
        }
    }

    static func landingPage(libraryURL: URL, book: Book, libraryScreen: LibraryScreen) async throws {
        let store = try ObjectStore(at: libraryURL, entities: [Book.self])
        try await store.context.persist { tx in
            try tx.upsert(book, matching: Book.byISBN)
        }
        await libraryScreen.show(store)
    }

    static func contexts(url: URL, remoteID: Int64, rating: Double, movies: [Movie]) async throws {
        let store = try ObjectStore(at: url, entities: [Movie.self])
        let context = store.context
        context.persist({ tx in
            guard var movie = try tx.fetch(Movie.self, id: remoteID) else { return }
            movie.popularity = rating
            try tx.update(movie)
        }) { result in
            if case .failure(let error) = result { print(error) }
        }
        let count = try await context.persist { tx in
            try tx.insert(contentsOf: movies)
            return try tx.count(Query<Movie>())
        }
        _ = count
        try context.persistAndWait { tx in try tx.delete(Movie.self, id: 42) }
        let top = try await context.read { tx in
            try tx.fetch(Query<Movie>(where: Movie.popularity > 50, sortedBy: [Movie.popularity.descending()]))
        }
        _ = top
    }

    static func migrations(url: URL) throws {
        let store = try ObjectStore(at: url, entities: [Movie.self]) { config in
            config.synchronous = .full
            config.migrations = [
                Migration("2024-05-add-year") { tx in
                    try tx.execute(#"ALTER TABLE "Movie" ADD COLUMN "year" INTEGER NOT NULL DEFAULT 0"#)
                }
            ]
        }
        _ = store
    }

    /// "Explicit migrations" in MigratingEntities, as printed (compiled, not run).
    static func explicitMigrations(url: URL) throws {
        let store = try ObjectStore(at: url, entities: [Movie.self]) { config in
            config.migrations = [
                Migration("2024-05-add-year") { tx in
                    try tx.execute(#"ALTER TABLE "Movie" ADD COLUMN "year" INTEGER NOT NULL DEFAULT 0"#)
                },
                Migration("2024-06-drop-title-uniqueness") { tx in
                    try tx.dropUniqueKey(["title"], from: Movie.self)
                },
                Migration("2024-07-rename-rating") { tx in
                    try tx.renameProperty("rating", to: "score", in: Movie.self)
                },
                Migration("2024-08-drop-poster") { tx in
                    try tx.dropProperty("posterPath", from: Movie.self)
                },
            ]
        }
        _ = store
    }

    static func asyncSequence(store: ObjectStore) async throws {
        for try await change in store.values(.query(Query<Book>(sortedBy: [Book.title.ascending()]))) {
            _ = change.results
        }
    }
}

/// The samples of QueriesAndSorting's "Aggregates", "Groups", "Updating by filter" and "Upserts
/// that keep or combine", and of the doc comments of `Aggregate`, `GroupFilter`, `GroupSort`,
/// `Assignment`, `ConflictRule` and the transaction's aggregate, update and upsert methods.
private enum AggregateSamples {
    enum Shelf: String, Codable, QueryableValue { case reading, done, archived }

    struct Book: StoredEntity {
        var id: String
        var title: String
        var author: String
        var pages: Int
        var score: Int
        var rating: Double?
        var shelf: Shelf
        var updated: String?

        static let title = Field<Book, String>("title")
        static let author = Field<Book, String>("author")
        static let pages = Field<Book, Int>("pages")
        static let score = Field<Book, Int>("score")
        static let rating = Field<Book, Double?>("rating")
        static let shelf = Field<Book, Shelf>("shelf")
        static let updated = Field<Book, String?>("updated")
        static let indexes = [EntityIndex(author, caseInsensitive: true)]
    }

    static func aggregates(tx: ObjectTransaction) throws {
        let pages: Int = try tx.sum(Book.pages, where: Book.rating >= 4)
        let rating: Double? = try tx.average(Book.rating)
        let longest: Int? = try tx.max(Book.pages)
        let first: String? = try tx.min(Book.title, caseInsensitive: true)
        let rated: Int = try tx.aggregate(Book.rating.count())
        _ = (pages, rating, longest, first, rated)
    }

    static func groups(tx: ObjectTransaction) throws {
        let bookCount = Aggregate.count(of: Book.self)
        let perAuthor = try tx.groups(
            Query<Book>(where: Book.pages > 100), by: Book.author, aggregating: bookCount, Book.rating.average(),
            having: bookCount >= 2,
            sortedBy: [Book.rating.average().descending()], limit: 10)
        for (author, books, rating) in perAuthor {
            print("\(author): \(books) books, rated \(rating ?? 0)")
        }
    }

    static func update(tx: ObjectTransaction) throws -> Int {
        let changed = try tx.update(
            Query<Book>(where: Book.shelf == .reading && Book.pages > 1_000),
            set: [Book.score += 1, Book.rating.set(nil), Book.shelf.set(.archived)])
        return changed
    }

    static func upsert(tx: ObjectTransaction, book: Book) throws -> UpsertOutcome {
        let outcome = try tx.upsert(book, onConflict: [.keep(Book.rating), .assign(Book.score += 1)])
        if outcome == .inserted { print("new:", book.title) }
        return outcome
    }

    static func versionedUpsert(tx: ObjectTransaction, book: Book) throws {
        // QueriesAndSorting, "Upserts that keep or combine"; ConflictRule's and upsert's doc comments.
        if try tx.upsert(book, onConflict: [.onlyIfNewer(Book.updated)]) == .kept { print("already as new") }
        try tx.upsert(book, onConflict: [.onlyIfNewer(Book.updated)])  // never moves a row to an older version
    }

    static func docComments(tx: ObjectTransaction) throws {
        let longest = try tx.aggregate(Book.pages.max(), where: Book.author == "Le Guin")
        _ = longest
        let perAuthor = try tx.groups(
            Query<Book>(), by: Book.author, aggregating: Aggregate.count(of: Book.self), Book.rating.average())
        for (author, books, rating) in perAuthor { print(author, books, rating ?? 0) }
        let prolific = try tx.groups(
            Query<Book>(), by: Book.author, aggregating: Aggregate.count(of: Book.self),
            having: Aggregate.count(of: Book.self) >= 3 && Book.rating.average() > 4)
        _ = prolific
        let sorted = try tx.groups(
            Query<Book>(), by: Book.author, aggregating: Book.pages.sum(),
            sortedBy: [Book.pages.sum().descending(), .key(Book.author.ascending())])
        _ = sorted
        let pages: Int = try tx.sum(Book.pages, where: Book.rating >= 4)
        _ = pages
        try tx.update(Query<Book>(where: Book.pages > 500), set: [Book.pages += 1, Book.rating.set(nil)])
        let changed = try tx.update(
            Query<Book>(where: Book.rating == nil), set: [Book.pages += 1, Book.shelf.set(.archived)])
        _ = changed
    }
}

@Suite struct CodeSamplesTests {
    @Test func landingPageSampleRunsOnAFreshStore() async throws {
        let fixture = try StoreFixture()
        let screen = Samples.LibraryScreen()
        let book = Samples.Book(id: "v1", title: "Dune", authors: ["Frank Herbert"], isbn: "978")
        try await Samples.landingPage(libraryURL: fixture.url, book: book, libraryScreen: screen)
        let store = try ObjectStore(at: fixture.url, entities: [Samples.Book.self])
        // The sample's `try await persist` returns after the commit: the book is there at once.
        #expect(try store.context.readAndWait { try $0.count(Query<Samples.Book>()) } == 1)
    }

    @Test func aggregateAndUpdateSamplesRunOnAFreshStore() throws {
        let fixture = try StoreFixture()
        let store = try ObjectStore(at: fixture.url, entities: [AggregateSamples.Book.self])
        let books = (0..<4).map { index in
            AggregateSamples.Book(
                id: "\(index)", title: "T\(index)", author: index < 2 ? "Le Guin" : "le guin", pages: 600 * index,
                score: 0, rating: 4.5, shelf: .reading)
        }
        let changed = try store.context.persistAndWait { tx in
            try tx.insert(contentsOf: books)
            try AggregateSamples.aggregates(tx: tx)
            try AggregateSamples.groups(tx: tx)
            return try AggregateSamples.update(tx: tx)
        }
        #expect(changed == 2)
        try store.context.persistAndWait { tx in try AggregateSamples.docComments(tx: tx) }
    }
}
