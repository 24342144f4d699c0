import Foundation
import Persistence
import Testing

@Suite struct QueryTests {
    let fixture: StoreFixture
    let store: ObjectStore

    init() throws {
        fixture = try StoreFixture()
        store = try fixture.open()
        let books = [
            Book(id: "1", title: "dune", isbn: "a", rating: 4.5, pages: 412),
            Book(id: "2", title: "Anathem", isbn: "b", rating: 4.0, pages: 937),
            Book(id: "3", title: "Emma", isbn: nil, rating: nil, pages: 474),
            Book(id: "4", title: "Beloved", isbn: "d", rating: 3.5, pages: 324),
            Book(id: "5", title: "100% Perl_Tricks", isbn: "e", rating: 2.0, pages: 50),
            Book(id: "6", title: "cloud atlas", isbn: nil, rating: 4.0, pages: 509),
        ]
        try store.context.persistAndWait { tx in try tx.insert(contentsOf: books) }
    }

    func ids(_ filter: Filter<Book>?, _ sort: [Sort<Book>] = [Book.pages.ascending()]) throws -> [String] {
        try store.context.readAndWait { tx in try tx.fetch(Query<Book>(where: filter, sortedBy: sort)).map(\.id) }
    }

    @Test func comparisonsFilterInSQL() throws {
        #expect(try ids(Book.pages > 474) == ["6", "2"])
        #expect(try ids(Book.pages >= 474) == ["3", "6", "2"])
        #expect(try ids(Book.pages < 324) == ["5"])
        #expect(try ids(Book.pages <= 324) == ["5", "4"])
        #expect(try ids(Book.title == "Emma") == ["3"])
        #expect(try ids(Book.title != "Emma") == ["5", "4", "1", "6", "2"])
        #expect(try ids(Book.rating >= 4.0) == ["1", "6", "2"])
    }

    @Test func nilComparisonsBecomeIsNull() throws {
        #expect(try ids(Book.isbn == nil) == ["3", "6"])
        #expect(try ids(Book.isbn.isNil) == ["3", "6"])
        #expect(try ids(Book.rating.isNotNil && Book.isbn != nil) == ["5", "4", "1", "2"])
    }

    @Test func inListMatchesAnyValue() throws {
        #expect(try ids(Book.pages.isIn([50, 937, 1])) == ["5", "2"])
        #expect(try ids(Book.pages.isIn([])) == [])
        #expect(try ids(Book.isbn.isIn(["a", nil])) == ["1", "3", "6"])
    }

    @Test func textFiltersEscapeWildcards() throws {
        #expect(try ids(Book.title.contains("LOUD")) == ["6"])
        #expect(try ids(Book.title.contains("LOUD", caseSensitive: true)) == [])
        #expect(try ids(Book.title.contains("%")) == ["5"])
        #expect(try ids(Book.title.contains("_")) == ["5"])
        #expect(try ids(Book.title.hasPrefix("an")) == ["2"])
        #expect(try ids(Book.title.hasSuffix("ed")) == ["4"])
        #expect(try ids(Book.title.like("_mm_")) == ["3"])
    }

    @Test func andOrNotCompose() throws {
        let filter = (Book.pages > 400 && !(Book.title.hasPrefix("E"))) || Book.rating == 2.0
        #expect(try ids(filter) == ["5", "1", "6", "2"])
        #expect(try ids(.all) == ["5", "4", "1", "3", "6", "2"])
        #expect(try ids(.nothing) == [])
    }

    @Test func sortsByTitleCaseInsensitivelyAndByManyKeys() throws {
        #expect(try ids(nil, [Book.title.ascending(caseInsensitive: true)]) == ["5", "2", "4", "6", "1", "3"])
        #expect(try ids(nil, [Book.title.ascending()]) == ["5", "2", "4", "3", "6", "1"])
        #expect(try ids(nil, [Book.rating.descending(), Book.title.descending()]) == ["1", "6", "2", "4", "5", "3"])
    }

    @Test func limitOffsetCountAndExists() throws {
        let page = try store.context.readAndWait { tx in
            try tx.fetch(Query<Book>(sortedBy: [Book.pages.ascending()]).limit(2, offset: 1)).map(\.id)
        }
        #expect(page == ["4", "1"])
        #expect(try store.context.readAndWait { try $0.count(Query<Book>(where: Book.rating > 3)) } == 4)
        #expect(try store.context.readAndWait { try $0.exists(Query<Book>(where: Book.pages > 900)) })
        #expect(try !store.context.readAndWait { try $0.exists(Query<Book>(where: Book.pages > 9000)) })
        let first = try store.context.readAndWait { tx in
            try tx.first(Query<Book>(where: Book.rating != nil, sortedBy: [Book.rating.ascending()]))
        }
        #expect(first?.id == "5")
    }

    @Test func filtersAndSortsUseTheDeclaredIndexes() throws {
        let plan = try store.context.readAndWait { tx in
            (
                try tx.queryPlan(for: Query<Book>(where: Book.pages > 300)),
                try tx.queryPlan(for: Query<Book>(sortedBy: [Book.title.ascending(caseInsensitive: true)])),
                try tx.queryPlan(for: Query<Book>(where: Book.isbn == "a"))
            )
        }
        #expect(plan.0.joined().contains("USING INDEX fk_index_Book_pages"))
        #expect(plan.1.joined().contains("fk_index_Book_title_folded"))
        #expect(!plan.1.joined().contains("TEMP B-TREE"))
        #expect(plan.2.joined().contains("USING INDEX fk_unique_Book_isbn"))
    }

    @Test func aFieldNamingNoPropertyThrowsUnknownProperty() throws {
        let wrong = Field<Book, String>("titel")
        do {
            _ = try store.context.readAndWait { tx in try tx.fetch(Query<Book>(where: wrong == "x")) }
            Issue.record("expected an error")
        } catch let error as PersistenceError {
            #expect(error.code == .unknownProperty)
            #expect(error.property == "titel")
            #expect(error.message.contains("title"))
        }
    }

    @Test func aFieldDeclaredWithTheWrongTypeIsRefused() throws {
        let wrong = Field<Book, Int>("title")
        let unknownProperty = #expect(throws: PersistenceError.self) {
            try store.context.readAndWait { tx in try tx.fetch(Query<Book>(where: wrong > 3)) }
        }
        #expect(unknownProperty?.code == .unknownProperty)
        let unknownPropertyAgain = #expect(throws: PersistenceError.self) {
            try store.context.readAndWait { tx in
                try tx.fetch(Query<Book>(sortedBy: [Field<Book, Int>("nope").ascending()]))
            }
        }
        #expect(unknownPropertyAgain?.code == .unknownProperty)
    }
}
