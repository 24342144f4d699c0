import Foundation
import Testing

@testable import Persistence

struct Novel: StoredEntity, Equatable {
    var id: Int
    var title: String
    var author: String
    var year: Int16
    var pages: Int
    var rating: Double?
    var isbn: String?
    /// Stored as JSON text (a nested optional).
    var edition: Int?? = nil
    var shelf: Shelf = .reading

    static let title = Field<Novel, String>("title")
    static let author = Field<Novel, String>("author")
    static let year = Field<Novel, Int16>("year")
    static let pages = Field<Novel, Int>("pages")
    static let rating = Field<Novel, Double?>("rating")
    static let isbn = Field<Novel, String?>("isbn")
    static let id = Field<Novel, Int>("id")
    static let edition = Field<Novel, Int??>("edition")
    static let shelf = Field<Novel, Shelf>("shelf")
    static let uniqueKeys = [UniqueKey(isbn)]
    static let indexes = [EntityIndex(author, caseInsensitive: true)]
}

extension Shelf: AggregatableValue {}

@Suite struct AggregateTests {
    let fixture: StoreFixture
    let store: ObjectStore

    static let novels = [
        Novel(id: 1, title: "Dune", author: "Frank Herbert", year: 1965, pages: 412, rating: 4.5, isbn: "a"),
        Novel(id: 2, title: "Dune Messiah", author: "frank herbert", year: 1969, pages: 256, rating: nil, isbn: "b"),
        Novel(id: 3, title: "The Dispossessed", author: "Ursula Le Guin", year: 1974, pages: 387, rating: 4.25),
        Novel(id: 4, title: "A Wizard of Earthsea", author: "Ursula le Guin", year: 1968, pages: 183, rating: 4.0),
        Novel(id: 5, title: "Éclair", author: "Émile Zola", year: 1883, pages: 300, rating: 3.0, isbn: "e"),
        Novel(id: 6, title: "eclair", author: "Emile Zola", year: 1885, pages: 320, rating: nil),
    ]

    init() throws {
        fixture = try StoreFixture()
        store = try fixture.open([Novel.self, Item.self])
        try store.context.persistAndWait { tx in try tx.insert(contentsOf: Self.novels) }
    }

    func read<T>(_ body: (ObjectTransaction) throws -> T) throws -> T {
        try store.context.readAndWait { tx in try body(tx) }
    }

    // MARK: Aggregates

    @Test func sumIsTypedByTheFieldAndSkipsNil() throws {
        let pages: Int = try read { try $0.sum(Novel.pages) }
        #expect(pages == 1_858)
        let rating: Double = try read { try $0.sum(Novel.rating) }
        #expect(rating == 15.75)
        let years: Int16 = try read { try $0.sum(Novel.year, where: Novel.pages < 200) }
        #expect(years == 1968)
        #expect(try read { try $0.sum(Novel.pages, where: .nothing) } == 0)
        #expect(try read { try $0.sum(Novel.rating, where: Novel.rating == nil) } == 0)
    }

    @Test func averageOfAnEmptySetIsNil() throws {
        #expect(try read { try $0.average(Novel.rating) } == 15.75 / 4)
        #expect(try read { try $0.average(Novel.pages, where: Novel.id <= 2) } == 334)
        #expect(try read { try $0.average(Novel.rating, where: Novel.rating == nil) } == nil)
        #expect(try read { try $0.average(Novel.pages, where: .nothing) } == nil)
    }

    @Test func countOfAFieldSkipsNil() throws {
        #expect(try read { try $0.aggregate(Novel.rating.count()) } == 4)
        #expect(try read { try $0.aggregate(Novel.isbn.count(), where: Novel.pages > 300) } == 1)
        #expect(try read { try $0.aggregate(Aggregate.count(of: Novel.self), where: Novel.year < 1900) } == 2)
    }

    @Test func integerSumThatOverflowsThrowsOverflowNamingTheProperty() throws {
        try store.context.persistAndWait { tx in
            try tx.insert(Novel(id: 7, title: "Big", author: "X", year: 30_000, pages: .max, rating: nil))
        }
        // Int16: the years sum past Int16.max.
        let narrow = #expect(throws: PersistenceError.self) { try read { try $0.sum(Novel.year) } }
        #expect(narrow?.code == .overflow)
        #expect(narrow?.property == "year")
        #expect(narrow?.message.contains("Novel.year") == true)
        // Int: SQLite's 64-bit sum overflows.
        let wide = #expect(throws: PersistenceError.self) { try read { try $0.sum(Novel.pages) } }
        #expect(wide?.code == .overflow)
        #expect(wide?.property == "pages")
        #expect(try read { try $0.sum(Novel.pages, where: Novel.id == 7) } == .max)
    }

    @Test func doubleSumIsExactlyWhatSQLiteComputesAndInfinitiesMakeNaN() throws {
        try store.context.persistAndWait { tx in
            try tx.insert(Novel(id: 7, title: "Tiny", author: "X", year: 1, pages: 1, rating: 0.1))
            try tx.insert(Novel(id: 8, title: "Tinier", author: "X", year: 1, pages: 1, rating: 1e-17))
        }
        let sqlite = try read { try $0.rows("SELECT SUM(rating) FROM Novel")[0].values[0] }
        #expect(try read { try $0.sum(Novel.rating) } == sqlite.doubleValue)
        try store.context.persistAndWait { tx in
            try tx.insert(Novel(id: 9, title: "Up", author: "X", year: 1, pages: 1, rating: .infinity))
            try tx.insert(Novel(id: 10, title: "Down", author: "X", year: 1, pages: 1, rating: -.infinity))
        }
        #expect(try read { try $0.sum(Novel.rating) }.isNaN)
        #expect(try read { try $0.average(Novel.rating) }?.isNaN == true)
        #expect(try read { try $0.sum(Novel.rating, where: Novel.id == 9) } == .infinity)
    }

    @Test func minAndMaxOrderAsSortsDo() throws {
        #expect(try read { try $0.min(Novel.pages) } == 183)
        #expect(try read { try $0.max(Novel.rating) } == 4.5)
        #expect(try read { try $0.min(Novel.rating, where: Novel.rating == nil) } == nil)
        #expect(try read { try $0.max(Novel.shelf) } == .reading)
        // Code-point order: "Dune" < "The Dispossessed" < "eclair" < "Éclair".
        #expect(try read { try $0.min(Novel.title) } == "A Wizard of Earthsea")
        #expect(try read { try $0.max(Novel.title) } == "Éclair")
        // Folded order: eclair and Éclair fold alike; ties go by code point.
        #expect(try read { try $0.max(Novel.title, caseInsensitive: true) } == "The Dispossessed")
        #expect(try read { try $0.max(Novel.title, caseInsensitive: true, where: Novel.id >= 5) } == "Éclair")
        #expect(try read { try $0.min(Novel.title, caseInsensitive: true, where: Novel.id >= 5) } == "eclair")
        #expect(try read { try $0.min(Novel.author, caseInsensitive: true) } == "Emile Zola")
    }

    @Test func aggregateOverAJSONPropertyThrowsInvalidQueryNamingIt() throws {
        for attempt in [
            { (tx: ObjectTransaction) throws in _ = try tx.sum(Novel.edition) },
            { tx in _ = try tx.average(Novel.edition) },
            { tx in _ = try tx.max(Novel.edition) },
            { tx in _ = try tx.groups(Query<Novel>(), by: Novel.edition, aggregating: Novel.pages.sum()) },
        ] {
            let error = #expect(throws: PersistenceError.self) { try read { try attempt($0) } }
            #expect(error?.code == .invalidQuery)
            #expect(error?.property == "edition")
            #expect(error?.message.contains("Novel.") == true)
        }
        // Counting values works for any property.
        _ = try read { try $0.aggregate(Novel.edition.count()) }
    }

    // MARK: Groups

    @Test func groupsAreTypedTuplesAndTextKeysFoldCase() throws {
        let groups = try read { tx in
            try tx.groups(
                Query<Novel>(), by: Novel.author, aggregating: Aggregate.count(of: Novel.self), Novel.pages.sum(),
                Novel.rating.average(), Novel.title.min())
        }
        #expect(groups.count == 3)
        let (author, count, pages, rating, first) = groups[0]
        // Folded keys sort "emile zola" < "frank herbert" < "ursula le guin"; each group reports the
        // smallest of its spellings by code point.
        #expect(author == "Emile Zola")
        #expect(count == 2)
        #expect(pages == 620)
        #expect(rating == 3.0)
        #expect(first == "eclair")
        #expect(groups.map(\.0) == ["Emile Zola", "Frank Herbert", "Ursula Le Guin"])
        #expect(groups.map(\.1) == [2, 2, 2])
        #expect(groups.map(\.3) == [3.0, 4.5, 4.125])
    }

    @Test func havingSortAndLimitWorkOnAggregates() throws {
        let pageCount = Novel.pages.sum()
        let groups = try read { tx in
            try tx.groups(
                Query<Novel>(where: Novel.year > 1900), by: Novel.author, aggregating: pageCount,
                having: pageCount > 500,
                sortedBy: [pageCount.descending()], limit: 1)
        }
        #expect(groups.count == 1)
        #expect(groups[0].0 == "Frank Herbert")
        #expect(groups[0].1 == 668)
        let rated = try read { tx in
            try tx.groups(
                Query<Novel>(), by: Novel.author, aggregating: Novel.rating.average(),
                having: Novel.rating.average() != nil && !(Novel.rating.max() >= 4.5),
                sortedBy: [.key(Novel.author.descending())])
        }
        #expect(rated.map(\.0) == ["Ursula Le Guin", "Emile Zola"])
    }

    @Test func anAggregateTakesIsInAndTheNullChecksOfTheExpressionFamily() throws {
        let pageCount = Novel.pages.sum()
        let sums = try read { tx in try tx.groups(Query<Novel>(), by: Novel.author, aggregating: pageCount) }
        #expect(sums.count == 3)
        let picked = [sums[0].1, sums[2].1]
        let (inList, empty, rated, unrated) = try read { tx in
            (
                try tx.groups(Query<Novel>(), by: Novel.author, aggregating: pageCount, having: pageCount.isIn(picked))
                    .map(\.0),
                try tx.groups(Query<Novel>(), by: Novel.author, aggregating: pageCount, having: pageCount.isIn([])).map(
                    \.0),
                try tx.groups(
                    Query<Novel>(), by: Novel.rating, aggregating: Novel.rating.average(),
                    having: Novel.rating.average().isNotNil
                ).map(\.0),
                try tx.groups(
                    Query<Novel>(), by: Novel.rating, aggregating: Novel.rating.average(),
                    having: Novel.rating.average().isNil
                ).map(\.0)
            )
        }
        #expect(inList == [sums[0].0, sums[2].0])
        #expect(empty.isEmpty)
        #expect(rated == [3.0, 4.0, 4.25, 4.5])
        #expect(unrated == [nil])
    }

    @Test func groupsByTwoKeysAndByAnOptionalKey() throws {
        let pairs = try read { tx in
            try tx.groups(Query<Novel>(), by: Novel.author, Novel.shelf, aggregating: Aggregate.count(of: Novel.self))
        }
        #expect(pairs.count == 3)
        #expect(pairs[1].0 == "Frank Herbert" && pairs[1].1 == .reading && pairs[1].2 == 2)
        let byRating = try read { tx in
            try tx.groups(Query<Novel>(), by: Novel.rating, aggregating: Novel.title.max(caseInsensitive: true))
        }
        #expect(byRating.map(\.0) == [nil, 3.0, 4.0, 4.25, 4.5])
        #expect(byRating[0].1 == "eclair")
        let keysOnly = try read { tx in
            try tx.groups(Query<Novel>(where: Novel.id < 3), by: Novel.year, Novel.pages, Novel.shelf)
        }
        #expect(keysOnly.map(\.0) == [1965, 1969])
    }

    @Test func sortingGroupsByAPropertyThatIsNotAKeyIsMisuse() throws {
        let error = #expect(throws: PersistenceError.self) {
            try read { tx in
                try tx.groups(
                    Query<Novel>(), by: Novel.author, aggregating: Novel.pages.sum(),
                    sortedBy: [.key(Novel.year.ascending())])
            }
        }
        #expect(error?.code == .misuse)
        #expect(error?.property == "year")
    }

    @Test func sortingGroupsByRelevanceIsMisuse() throws {
        let error = #expect(throws: PersistenceError.self) {
            try read { tx in
                try tx.groups(
                    Query<Novel>(), by: Novel.title, aggregating: Novel.pages.sum(),
                    sortedBy: [.key(Novel.title.relevance)])
            }
        }
        #expect(error?.code == .misuse)
        #expect(error?.property == "title")
    }
}
