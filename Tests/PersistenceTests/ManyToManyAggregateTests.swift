import Foundation
import TestSupport
import Testing

@testable import Persistence

// Books and tags, linked both ways: by a shorthand relation (the store's link table) from books
// to tags, and through a join entity of their own from tags to books.

struct M2MBook: StoredEntity, Equatable {
    var id: Int64
    var title: String
    var pages: Int
    var year: Int16
    var rating: Double?
    /// Stored as JSON text (a nested optional).
    var edition: Int?? = nil

    static let id = Field<M2MBook, Int64>("id")
    static let title = Field<M2MBook, String>("title")
    static let pages = Field<M2MBook, Int>("pages")
    static let year = Field<M2MBook, Int16>("year")
    static let rating = Field<M2MBook, Double?>("rating")
    static let edition = Field<M2MBook, Int??>("edition")
    static let tags = ManyToMany<M2MBook, M2MTag>("tags")
    static let relations: [any Relation<M2MBook>] = [tags]
    /// Not listed in `relations`, so the store keeps no link table for it.
    static let unlisted = ManyToMany<M2MBook, M2MTag>("unlisted")
    /// Through the taggings to an entity the tests' store is not opened with.
    static let owners = ManyToMany<M2MBook, AggOwner>(through: M2MTagging.book, M2MTagging.owner)
}

struct M2MTag: StoredEntity, Equatable {
    var id: String
    var name: String
    var weight: Int
    /// Named like a column of the link table.
    var source = "editor"
    /// Stored as JSON text (a nested optional).
    var rank: Int?? = nil

    static let id = Field<M2MTag, String>("id")
    static let name = Field<M2MTag, String>("name")
    static let weight = Field<M2MTag, Int>("weight")
    static let source = Field<M2MTag, String>("source")
    static let rank = Field<M2MTag, Int??>("rank")
    static let books = ManyToMany<M2MTag, M2MBook>(through: M2MTagging.tag, M2MTagging.book)
}

/// Who tagged which book: without a unique key over the pair, so two people can tag a book alike.
struct M2MTagging: StoredEntity, Equatable {
    var id: Int64
    var tagID: String
    var bookID: Int64
    var by: String

    static let tagID = Field<M2MTagging, String>("tagID")
    static let bookID = Field<M2MTagging, Int64>("bookID")
    static let tag = ToOne<M2MTagging, M2MTag>(tagID, onDelete: .cascade)
    static let book = ToOne<M2MTagging, M2MBook>(bookID, onDelete: .cascade)
    static let relations: [any Relation<M2MTagging>] = [tag, book]
    /// Not listed in `relations`, to an entity the tests' store is not opened with.
    static let owner = ToOne<M2MTagging, AggOwner>(Field("tagID"), onDelete: .none)
}

@Suite struct ManyToManyAggregateTests {
    let fixture: StoreFixture
    let store: ObjectStore

    static let books = [
        M2MBook(id: 1, title: "Dune", pages: 412, year: 1965, rating: 4.5),
        M2MBook(id: 2, title: "A Wizard of Earthsea", pages: 183, year: 1968, rating: 4),
        M2MBook(id: 3, title: "The Dispossessed", pages: 387, year: 1974, rating: 4.25),
        M2MBook(id: 4, title: "Kindred", pages: 264, year: 1979, rating: nil),
        M2MBook(id: 5, title: "Untagged", pages: 100, year: 2020, rating: 3),
    ]
    static let tags = [
        M2MTag(id: "sf", name: "Science fiction", weight: 3),
        M2MTag(id: "classic", name: "Classic", weight: 2),
        M2MTag(id: "fantasy", name: "Fantasy", weight: 5, source: "reader"),
        M2MTag(id: "unused", name: "Unused", weight: 1),
    ]
    /// The shorthand links, book to tags.
    static let links: [Int64: [String]] = [1: ["sf", "classic"], 2: ["fantasy", "classic"], 3: ["sf"], 4: ["sf"]]
    /// The join rows, tag to books: "sf" tags Dune twice.
    static let taggings = [
        M2MTagging(id: 1, tagID: "sf", bookID: 1, by: "ann"),
        M2MTagging(id: 2, tagID: "sf", bookID: 1, by: "bob"),
        M2MTagging(id: 3, tagID: "sf", bookID: 3, by: "ann"),
        M2MTagging(id: 4, tagID: "sf", bookID: 4, by: "ann"),
        M2MTagging(id: 5, tagID: "classic", bookID: 1, by: "ann"),
        M2MTagging(id: 6, tagID: "classic", bookID: 2, by: "bob"),
        M2MTagging(id: 7, tagID: "fantasy", bookID: 2, by: "bob"),
    ]
    static let bookCount = Aggregate.count(of: M2MBook.self)
    static let tagCount = Aggregate.count(of: M2MTag.self)

    init() throws {
        fixture = try StoreFixture()
        store = try fixture.open([M2MBook.self, M2MTag.self, M2MTagging.self])
        try store.context.persistAndWait { tx in
            try tx.insert(contentsOf: Self.books)
            try tx.insert(contentsOf: Self.tags)
            try tx.insert(contentsOf: Self.taggings)
            for (book, tags) in Self.links { try tx.setLinks(M2MBook.tags, of: book, to: tags) }
        }
    }

    func read<T>(_ body: (ObjectTransaction) throws -> T) throws -> T {
        try store.context.readAndWait { tx in try body(tx) }
    }

    /// Each tag's books as the store holds them, read as rows and collected in Swift: each book once.
    func booksPerTag(where keep: (M2MBook) -> Bool = { _ in true }) throws -> [String: [M2MBook]] {
        let (books, taggings) = try read { tx in (try tx.fetch(Query<M2MBook>()), try tx.fetch(Query<M2MTagging>())) }
        let byID = Dictionary(uniqueKeysWithValues: books.map { ($0.id, $0) })
        var result: [String: [M2MBook]] = [:]
        for tagging in taggings {
            guard let book = byID[tagging.bookID], keep(book) else { continue }
            if result[tagging.tagID, default: []].contains(book) { continue }
            result[tagging.tagID, default: []].append(book)
        }
        return result
    }

    // MARK: Through a join entity

    @Test func everyTagComesWithAggregatesOfItsBooksThoseWithoutToo() throws {
        let tags = try read { tx in
            try tx.fetch(
                Query<M2MTag>(sortedBy: [M2MTag.name.ascending()]).including(
                    M2MTag.books.aggregate(Self.bookCount), M2MTag.books.aggregate(M2MBook.rating.average()),
                    M2MTag.books.aggregate(M2MBook.pages.sum()), M2MTag.books.aggregate(M2MBook.title.min()),
                    M2MTag.books.aggregate(M2MBook.rating.count())))
        }
        let all = try read { tx in try tx.fetch(Query<M2MTag>()) }
        #expect(tags.map(\.0) == all.sorted { $0.name < $1.name })
        let expected = try booksPerTag()
        for (tag, count, rating, pages, first, rated) in tags {
            let books = expected[tag.id] ?? []
            let ratings = books.compactMap(\.rating)
            #expect(count == books.count, "\(tag.id)")
            #expect(rating == (ratings.isEmpty ? nil : ratings.reduce(0, +) / Double(ratings.count)), "\(tag.id)")
            #expect(pages == books.map(\.pages).reduce(0, +), "\(tag.id)")
            #expect(first == books.map(\.title).min(), "\(tag.id)")
            #expect(rated == ratings.count, "\(tag.id)")
        }
        // The values the fixture gives, spelled out: Dune counts once for "sf" though tagged twice;
        // the unused tag has no books.
        #expect(tags.map(\.0.id) == ["classic", "fantasy", "sf", "unused"])
        #expect(tags.map(\.1) == [2, 1, 3, 0])
        #expect(tags.map(\.2) == [4.25, 4, 4.375, nil])
        #expect(tags.map(\.3) == [595, 183, 1_063, 0])
    }

    @Test func aPairStoredTwiceCountsOnceAsTheCountFilterCountsIt() throws {
        let perTag = try read { tx in
            try tx.fetch(Query<M2MTag>(where: M2MTag.id == "sf").including(M2MTag.books.aggregate(Self.bookCount)))
        }
        #expect(perTag.map(\.1) == [3])
        let joinRows = try read { tx in try tx.count(Query<M2MTagging>(where: M2MTagging.tagID == "sf")) }
        #expect(joinRows == 4)
        let atLeastThree = try read { tx in try tx.fetch(Query<M2MTag>(where: M2MTag.books.count >= 3)) }
        let atLeastFour = try read { tx in try tx.fetch(Query<M2MTag>(where: M2MTag.books.count >= 4)) }
        #expect(atLeastThree.map(\.id) == ["sf"])
        #expect(atLeastFour.isEmpty)
        let early = try read { tx in
            try tx.fetch(Query<M2MTag>(where: M2MTag.books.count(where: M2MBook.year < 1970) == 1))
        }
        // "sf" tags one early book (Dune, twice); "classic" two.
        #expect(early.map(\.id).sorted() == ["fantasy", "sf"])
    }

    @Test func aRelatedCountTakesEveryTestOfTheExpressionFamily() throws {
        let (three, notThree, inList, none) = try read { tx in
            (
                try tx.fetch(Query<M2MTag>(where: M2MTag.books.count == 3)).map(\.id).sorted(),
                try tx.fetch(Query<M2MTag>(where: M2MTag.books.count != 3)).map(\.id).sorted(),
                try tx.fetch(Query<M2MTag>(where: M2MTag.books.count.isIn([3, 1_000]))).map(\.id).sorted(),
                try tx.fetch(Query<M2MTag>(where: M2MTag.books.count.isIn([]))).map(\.id)
            )
        }
        let all = try read { tx in try tx.fetch(Query<M2MTag>()).map(\.id).sorted() }
        #expect(three == ["sf"])
        #expect(inList == three)
        #expect(none.isEmpty)
        #expect((three + notThree).sorted() == all)
    }

    /// A prefetch through the join entity gives a book tagged twice once, where its first tagging
    /// puts it, as the count and the aggregates count it once.
    @Test func aPairStoredTwiceIsPrefetchedOnce() throws {
        let prefetched = try read { tx in
            try tx.fetch(Query<M2MTag>(sortedBy: [M2MTag.name.ascending()]).including(M2MTag.books))
        }
        let taggings = try read { tx in try tx.fetch(Query<M2MTagging>()) }
        let expected = try booksPerTag()
        for (tag, books) in prefetched {
            #expect(books.map(\.id) == (expected[tag.id] ?? []).map(\.id), "\(tag.id)")
            #expect(Set(books.map(\.id)).count == books.count, "\(tag.id)")
        }
        #expect(taggings.filter { $0.tagID == "sf" }.count == 4)
        #expect(prefetched.first { $0.0.id == "sf" }?.1.count == 3)
    }

    @Test func aFilterOnTheBooksAndTheTagQueryWindowApply() throws {
        let query = Query<M2MTag>(where: M2MTag.weight < 5, sortedBy: [M2MTag.name.descending()], limit: 2, offset: 1)
        let tags = try read { tx in
            try tx.fetch(
                query.including(
                    M2MTag.books.aggregate(Self.bookCount, where: M2MBook.year < 1970),
                    M2MTag.books.aggregate(M2MBook.pages.max(), where: M2MBook.year < 1970)))
        }
        let window = try read { tx in try tx.fetch(query) }
        #expect(tags.map(\.0) == window)
        #expect(tags.map(\.0.id) == ["sf", "classic"])
        let expected = try booksPerTag { $0.year < 1970 }
        #expect(tags.map(\.1) == tags.map { expected[$0.0.id]?.count ?? 0 })
        #expect(tags.map(\.2) == tags.map { expected[$0.0.id]?.map(\.pages).max() })
        #expect(tags.map(\.1) == [1, 2])
    }

    // MARK: Through the store's link table

    @Test func everyBookComesWithAggregatesOfItsTagsThoseWithoutToo() throws {
        let books = try read { tx in
            try tx.fetch(
                Query<M2MBook>(sortedBy: [M2MBook.title.ascending()]).including(
                    M2MBook.tags.aggregate(Self.tagCount), M2MBook.tags.aggregate(M2MTag.weight.sum()),
                    M2MBook.tags.aggregate(M2MTag.weight.average()), M2MBook.tags.aggregate(M2MTag.name.max())))
        }
        let linked = try read { tx in
            try tx.fetch(Query<M2MBook>(sortedBy: [M2MBook.title.ascending()]).including(M2MBook.tags))
        }
        #expect(books.map(\.0) == linked.map(\.0))
        #expect(books.map(\.1) == linked.map(\.1.count))
        #expect(books.map(\.2) == linked.map { $0.1.map(\.weight).reduce(0, +) })
        #expect(
            books.map(\.3)
                == linked.map { $0.1.isEmpty ? nil : Double($0.1.map(\.weight).reduce(0, +)) / Double($0.1.count) })
        #expect(books.map(\.4) == linked.map { $0.1.map(\.name).max() })
        #expect(books.map(\.0.title) == ["A Wizard of Earthsea", "Dune", "Kindred", "The Dispossessed", "Untagged"])
        #expect(books.map(\.1) == [2, 2, 1, 1, 0])
        #expect(books.map(\.2) == [7, 5, 3, 3, 0])
        #expect(books.last?.3 == nil)
        #expect(books.last?.4 == nil)
    }

    @Test func aFilterOnTheTagsAndTheBookQueryWindowApply() throws {
        let query = Query<M2MBook>(where: M2MBook.year < 2000, sortedBy: [M2MBook.pages.descending()], limit: 3)
        let books = try read { tx in
            try tx.fetch(
                query.including(
                    M2MBook.tags.aggregate(Self.tagCount, where: M2MTag.weight >= 3),
                    M2MBook.tags.aggregate(M2MTag.weight.min(), where: M2MTag.weight >= 3)))
        }
        let window = try read { tx in try tx.fetch(query.including(M2MBook.tags)) }
        #expect(books.map(\.0) == window.map(\.0))
        #expect(books.map(\.0.title) == ["Dune", "The Dispossessed", "Kindred"])
        let heavy = window.map { $0.1.filter { $0.weight >= 3 } }
        #expect(books.map(\.1) == heavy.map(\.count))
        #expect(books.map(\.2) == heavy.map { $0.map(\.weight).min() })
        #expect(books.map(\.1) == [1, 1, 1])
    }

    @Test func conditionsOnLinkedRowsNameTheirOwnPropertiesWhateverTheLinksColumnsAreCalled() throws {
        // The link table has a `source` column; the join entity an `id`.
        let byReader = try read { tx in
            try tx.fetch(Query<M2MBook>(where: M2MBook.tags.any(M2MTag.source == "reader")))
        }
        #expect(byReader.map(\.title) == ["A Wizard of Earthsea"])
        let edited = try read { tx in
            try tx.fetch(
                Query<M2MBook>(sortedBy: [M2MBook.id.ascending()]).including(
                    M2MBook.tags.aggregate(Self.tagCount, where: M2MTag.source == "editor")))
        }
        #expect(edited.map(\.1) == [2, 1, 1, 1, 0])
        let tagsOfEarthsea = try read { tx in
            try tx.fetch(Query<M2MTag>(where: M2MTag.books.any(M2MBook.id == 2), sortedBy: [M2MTag.id.ascending()]))
        }
        #expect(tagsOfEarthsea.map(\.id) == ["classic", "fantasy"])
        let tagsOfDune = try read { tx in
            try tx.fetch(
                Query<M2MTag>(where: M2MTag.books.count(where: M2MBook.id == 1) == 1, sortedBy: [M2MTag.id.ascending()])
            )
        }
        #expect(tagsOfDune.map(\.id) == ["classic", "sf"])
    }

    // MARK: Bad input

    @Test func anIntegerSumBeyondItsTypeIsOverflowForBothForms() throws {
        try store.context.persistAndWait { tx in
            try tx.insert(M2MTag(id: "huge", name: "Huge", weight: .max))
            try tx.insert(M2MTag(id: "more", name: "More", weight: 1))
            try tx.link(M2MBook.tags, 5, to: "huge")
            try tx.link(M2MBook.tags, 5, to: "more")
            try tx.insert(M2MBook(id: 6, title: "Long", pages: .max, year: 30_000, rating: nil))
            try tx.insert(M2MBook(id: 7, title: "Longer", pages: 1, year: 30_000, rating: nil))
            try tx.insert(M2MTagging(id: 8, tagID: "unused", bookID: 6, by: "ann"))
            try tx.insert(M2MTagging(id: 9, tagID: "unused", bookID: 7, by: "ann"))
        }
        // SQLite's 64-bit sum overflows.
        let linked = try #require(throws: PersistenceError.self) {
            try read { tx in try tx.fetch(Query<M2MBook>().including(M2MBook.tags.aggregate(M2MTag.weight.sum()))) }
        }
        #expect(linked.code == .overflow)
        #expect(linked.entity == "M2MTag")
        #expect(linked.property == "weight")
        let joined = try #require(throws: PersistenceError.self) {
            try read { tx in try tx.fetch(Query<M2MTag>().including(M2MTag.books.aggregate(M2MBook.pages.sum()))) }
        }
        #expect(joined.code == .overflow)
        #expect(joined.property == "pages")
        // Int16: the years sum past Int16.max.
        let narrow = try #require(throws: PersistenceError.self) {
            try read { tx in try tx.fetch(Query<M2MTag>().including(M2MTag.books.aggregate(M2MBook.year.sum()))) }
        }
        #expect(narrow.code == .overflow)
        #expect(narrow.property == "year")
        // The same sums over rows that fit.
        let fits = try read { tx in
            try tx.fetch(
                Query<M2MTag>(where: M2MTag.id == "unused").including(
                    M2MTag.books.aggregate(M2MBook.pages.sum(), where: M2MBook.id == 6)))
        }
        #expect(fits.map(\.1) == [.max])
    }

    @Test func anAggregateOfALinkedJSONPropertyIsATypedErrorNamingIt() throws {
        let linked = try #require(throws: PersistenceError.self) {
            try read { tx in try tx.fetch(Query<M2MBook>().including(M2MBook.tags.aggregate(M2MTag.rank.max()))) }
        }
        #expect(linked.code == .invalidQuery)
        #expect(linked.entity == "M2MTag")
        #expect(linked.property == "rank")
        let joined = try #require(throws: PersistenceError.self) {
            try read { tx in try tx.fetch(Query<M2MTag>().including(M2MTag.books.aggregate(M2MBook.edition.min()))) }
        }
        #expect(joined.code == .invalidQuery)
        #expect(joined.entity == "M2MBook")
        #expect(joined.property == "edition")
        #expect(joined.message.contains("JSON"), "\(joined.message)")
    }

    @Test func aRelationToOrThroughAnEntityNotOpenedIsATypedErrorNamingIt() throws {
        let target = try #require(throws: PersistenceError.self) {
            try read { tx in
                try tx.fetch(Query<M2MBook>().including(M2MBook.owners.aggregate(Aggregate.count(of: AggOwner.self))))
            }
        }
        #expect(target.code == .misuse)
        #expect(target.entity == "AggOwner")
        #expect(target.message.contains("AggOwner"), "\(target.message)")
        let unlisted = try #require(throws: PersistenceError.self) {
            try read { tx in try tx.fetch(Query<M2MBook>().including(M2MBook.unlisted.aggregate(Self.tagCount))) }
        }
        #expect(unlisted.code == .misuse)
        #expect(unlisted.property == "unlisted")
        // A store opened without the join entity.
        let other = try StoreFixture("without-taggings.sqlite")
        let narrow = try other.open([M2MBook.self, M2MTag.self])
        let join = try #require(throws: PersistenceError.self) {
            try narrow.context.readAndWait { tx in
                try tx.fetch(Query<M2MTag>().including(M2MTag.books.aggregate(Self.bookCount)))
            }
        }
        #expect(join.code == .misuse)
        #expect(join.message.contains("M2MTagging"), "\(join.message)")
    }

    // MARK: Query plans

    /// The plan of the aggregates of `relation`'s rows for every `E`, one line per step.
    func plan<E: StoredEntity, T: StoredEntity>(
        _ type: E.Type, _ relation: ManyToMany<E, T>, _ specs: [AggregateSpec], where filter: Filter<T>? = nil
    ) throws -> [String] {
        try read { tx in
            let schema = try tx.connection.codec(E.self).schema
            let (built, _) = try QuerySQL.relatedAggregates(
                Query<E>(), path: relation.path, of: T.self, specs, where: filter, schema: schema)
            let statement = try tx.connection.statement(for: built, explain: true)
            defer { statement.reset() }
            var lines: [String] = []
            while try statement.step() { lines.append(statement.text(3)) }
            return lines
        }
    }

    @Test func theSubqueriesLookTheLinksUpByTheLinkTablesIndexes() throws {
        // Two columns for the average (its value and its count), one for the count.
        let linked = try plan(
            M2MBook.self, M2MBook.tags, [Self.tagCount.spec, M2MTag.weight.average().spec], where: M2MTag.weight > 1)
        let byKey = linked.filter { $0.contains("sqlite_autoindex_fk_link_M2MBook_tags_1") }
        #expect(byKey.count == 3, "\(linked)")
        // The entities themselves are the only table read in full.
        #expect(linked.filter { $0.contains("SCAN") } == ["SCAN M2MBook"], "\(linked)")
        let joined = try plan(
            M2MTag.self, M2MTag.books, [Self.bookCount.spec, M2MBook.pages.sum().spec], where: M2MBook.year > 1)
        let bySource = joined.filter { $0.contains("fk_relation_M2MTagging_tagID") }
        #expect(bySource.count == 3, "\(joined)")
        #expect(joined.filter { $0.contains("fk_r1 USING INTEGER PRIMARY KEY") }.count == 3, "\(joined)")
        #expect(joined.filter { $0.contains("SCAN") } == ["SCAN M2MTag"], "\(joined)")
        // Without a unique key over the pair, the linked identities are a set.
        #expect(joined.contains { $0.contains("LIST SUBQUERY") }, "\(joined)")
    }

    @Test func aJoinEntityWithAUniqueKeyOverThePairIsReadByAJoin() throws {
        let other = try StoreFixture("credits.sqlite")
        let store = try other.open(relationEntities)
        try store.context.persistAndWait { tx in
            try tx.insert(contentsOf: [
                RelAuthor(id: 1, name: "Frank Herbert"), RelAuthor(id: 2, name: "Ursula K. Le Guin"),
                RelAuthor(id: 3, name: "Brian Herbert"),
            ])
            try tx.insert(contentsOf: [
                RelBook(id: 1, title: "Dune", authorID: 1), RelBook(id: 2, title: "Earthsea", authorID: 2),
                RelBook(id: 3, title: "House Atreides", authorID: 3), RelBook(id: 4, title: "Lonely", authorID: 2),
            ])
            try tx.insert(contentsOf: [
                RelCredit(id: 1, bookID: 3, authorID: 3, role: "writer"),
                RelCredit(id: 2, bookID: 3, authorID: 1, role: "creator"),
                RelCredit(id: 3, bookID: 1, authorID: 1, role: "writer"),
                RelCredit(id: 4, bookID: 2, authorID: 2, role: "writer"),
            ])
        }
        let query = Query<RelBook>(sortedBy: [RelBook.title.ascending()])
        // `id` names the author's identity, though the join entity has one too.
        let (books, credited) = try store.context.readAndWait { tx in
            (
                try tx.fetch(
                    query.including(
                        RelBook.contributors.aggregate(
                            Aggregate.count(of: RelAuthor.self), where: Field<RelAuthor, Int64>("id") != 2),
                        RelBook.contributors.aggregate(RelAuthor.name.min(), where: Field<RelAuthor, Int64>("id") != 2))
                ),
                try tx.fetch(query.including(RelBook.contributors))
            )
        }
        let others = credited.map { $0.1.filter { $0.id != 2 } }
        #expect(books.map(\.0) == credited.map(\.0))
        #expect(books.map(\.1) == others.map(\.count))
        #expect(books.map(\.2) == others.map { $0.map(\.name).min() })
        #expect(books.map(\.1) == [1, 0, 2, 0])
        let plan = try store.context.readAndWait { tx in
            let schema = try tx.connection.codec(RelBook.self).schema
            let (built, _) = try QuerySQL.relatedAggregates(
                Query<RelBook>(), path: RelBook.contributors.path, of: RelAuthor.self,
                [Aggregate.count(of: RelAuthor.self).spec], where: nil, schema: schema)
            let statement = try tx.connection.statement(for: built, explain: true)
            defer { statement.reset() }
            var lines: [String] = []
            while try statement.step() { lines.append(statement.text(3)) }
            return lines
        }
        #expect(!plan.contains { $0.contains("LIST SUBQUERY") }, "\(plan)")
        #expect(plan.filter { $0.contains("SCAN") } == ["SCAN RelBook"], "\(plan)")
        #expect(plan.contains { $0.contains("RelCredit") && $0.contains("bookID=?") }, "\(plan)")
    }
}
