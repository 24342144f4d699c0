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

    @MainActor final class LibraryScreen: EntityListener {
        var allBooks: [Book] = []
        func entitiesDidChange(_ books: [Book]) { allBooks = books }
    }

    static func landingPage(libraryURL: URL, book: Book, libraryScreen: LibraryScreen) async throws {
        let store = try ObjectStore(at: libraryURL, entities: [Book.self])
        try await store.context.persist { tx in
            try tx.upsert(book, matching: Book.byISBN)
        }
        store.addListener(libraryScreen, sortedBy: [Book.title.ascending(caseInsensitive: true)])
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
            return try tx.count(Movie.self)
        }
        _ = count
        try context.persistAndWait { tx in try tx.delete(Movie.self, id: 42) }
        let top = try await context.read { tx in
            try tx.fetch(Movie.self, where: Movie.popularity > 50, sortedBy: [Movie.popularity.descending()])
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

    static func asyncSequence(store: ObjectStore) async throws {
        for try await change in store.changes(Query<Book>(sortedBy: [Book.title.ascending()])) {
            _ = change.results
        }
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
        #expect(try store.context.readAndWait { try $0.count(Samples.Book.self) } == 1)
    }
}
