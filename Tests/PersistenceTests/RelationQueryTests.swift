import Foundation
import Persistence
import TestSupport
import Testing

@Suite struct RelationQueryTests {
    func seeded() throws -> (StoreFixture, ObjectStore) {
        let fixture = try StoreFixture()
        let store = try fixture.open(relationEntities)
        try store.context.persistAndWait { tx in
            try tx.insert(RelAuthor(id: 1, name: "Ursula K. Le Guin"))
            try tx.insert(RelAuthor(id: 2, name: "Frank Herbert"))
            try tx.insert(RelAuthor(id: 3, name: "Octavia E. Butler"))
            try tx.insert(RelShelf(id: "s", label: "Science fiction"))
            // Inserted out of year order, so insertion order and the relation's order differ.
            try tx.insert(RelBook(id: 10, title: "The Dispossessed", authorID: 1, shelfID: "s", year: 1974))
            try tx.insert(RelBook(id: 11, title: "A Wizard of Earthsea", authorID: 1, year: 1968))
            try tx.insert(RelBook(id: 12, title: "The Left Hand of Darkness", authorID: 1, year: 1969))
            try tx.insert(RelBook(id: 20, title: "Dune", authorID: 2, shelfID: "s", year: 1965))
            try tx.insert(RelBook(id: 21, title: "Children of Dune", authorID: 2, year: 1976))
            try tx.insert(RelReview(id: 1, bookID: 10, stars: 5))
            try tx.insert(RelReview(id: 2, bookID: 20, stars: 3))
            try tx.insert(RelReview(id: 3, bookID: 20, stars: 4))
            try tx.insert(RelCredit(id: 1, bookID: 20, authorID: 2, role: "author"))
            try tx.insert(RelCredit(id: 2, bookID: 20, authorID: 1, role: "foreword"))
        }
        return (fixture, store)
    }

    // MARK: Prefetching

    @Test func aToOnePrefetchReturnsEachEntityWithTheRowItRefersTo() throws {
        let (fixture, store) = try seeded()
        defer { withExtendedLifetime(fixture) {} }
        let pairs = try store.context.readAndWait { tx in
            try tx.fetch(Query<RelBook>(sortedBy: [RelBook.year.ascending()]).including(RelBook.author))
        }
        #expect(pairs.map(\.0.id) == [20, 11, 12, 10, 21])
        #expect(
            pairs.map { $0.1?.name } == [
                "Frank Herbert", "Ursula K. Le Guin", "Ursula K. Le Guin", "Ursula K. Le Guin", "Frank Herbert",
            ])
        let shelves = try store.context.readAndWait { tx in
            try tx.fetch(Query<RelBook>(sortedBy: [RelBook.year.ascending()]).limit(2).including(RelBook.shelf))
        }
        #expect(shelves.map(\.0.id) == [20, 11])
        #expect(shelves.map { $0.1?.label } == ["Science fiction", nil])
    }

    @Test func aToManyPrefetchKeepsTheRelationsOrderOrInsertionOrderAndMatchesTheNPlusOneLoop() throws {
        let (fixture, store) = try seeded()
        defer { withExtendedLifetime(fixture) {} }
        let query = Query<RelAuthor>(sortedBy: [RelAuthor.name.ascending()])
        let ordered = try store.context.readAndWait { tx in try tx.fetch(query.including(RelAuthor.books)) }
        #expect(ordered.map(\.0.name) == ["Frank Herbert", "Octavia E. Butler", "Ursula K. Le Guin"])
        #expect(ordered.map { $0.1.map(\.id) } == [[20, 21], [], [11, 12, 10]])
        let inserted = try store.context.readAndWait { tx in try tx.fetch(query.including(RelAuthor.booksByInsertion))
        }
        #expect(inserted.map { $0.1.map(\.id) } == [[20, 21], [], [10, 11, 12]])
        // The same as one query per author.
        let loop = try store.context.readAndWait { tx in
            try tx.fetch(query).map { author in
                (
                    author,
                    try tx.fetch(
                        Query<RelBook>(where: RelBook.authorID == author.id, sortedBy: [RelBook.year.ascending()]))
                )
            }
        }
        #expect(loop.map(\.0) == ordered.map(\.0))
        #expect(loop.map(\.1) == ordered.map(\.1))
        // A window prefetches the related rows of the window only.
        let window = try store.context.readAndWait { tx in
            try tx.fetch(query.limit(1, offset: 2).including(RelAuthor.books))
        }
        #expect(window.map(\.0.id) == [1])
        #expect(window.first?.1.count == 3)
    }

    @Test func aManyToManyPrefetchThroughAJoinEntityKeepsInsertionOrder() throws {
        let (fixture, store) = try seeded()
        defer { withExtendedLifetime(fixture) {} }
        let credits = try store.context.readAndWait { tx in
            try tx.fetch(
                Query<RelBook>(where: RelBook.year < 1970, sortedBy: [RelBook.year.ascending()]).including(
                    RelBook.contributors))
        }
        #expect(credits.map(\.0.id) == [20, 11, 12])
        #expect(credits.map { $0.1.map(\.id) } == [[2, 1], [], []])
    }

    // MARK: Queries across relations

    @Test func filtersGoThroughToOneAndToManyRelationsAndSortByARelatedField() throws {
        let (fixture, store) = try seeded()
        defer { withExtendedLifetime(fixture) {} }
        try store.context.readAndWait { tx in
            let leGuin = try tx.fetch(
                Query<RelBook>(
                    where: RelBook.author.has(RelAuthor.name == "Ursula K. Le Guin"),
                    sortedBy: [RelBook.year.ascending()]))
            #expect(leGuin.map(\.id) == [11, 12, 10])
            let prolific = try tx.fetch(Query<RelAuthor>(where: RelAuthor.books.count >= 3))
            #expect(prolific.map(\.id) == [1])
            let none = try tx.fetch(Query<RelAuthor>(where: RelAuthor.books.isEmpty))
            #expect(none.map(\.id) == [3])
            let wellReviewed = try tx.fetch(Query<RelBook>(where: RelBook.reviews.any(RelReview.stars > 4)))
            #expect(wellReviewed.map(\.id) == [10])
            let twoReviews = try tx.fetch(
                Query<RelBook>(where: RelBook.reviews.count(where: RelReview.stars >= 3) == 2))
            #expect(twoReviews.map(\.id) == [20])
            // Two hops: authors with a book that has a review of 5 stars.
            let starred = try tx.fetch(
                Query<RelAuthor>(where: RelAuthor.books.any(RelBook.reviews.any(RelReview.stars == 5))))
            #expect(starred.map(\.id) == [1])
            let contributed = try tx.fetch(
                Query<RelBook>(where: RelBook.contributors.any(RelAuthor.name == "Ursula K. Le Guin")))
            #expect(contributed.map(\.id) == [20])
            let sorted = try tx.fetch(
                Query<RelBook>(
                    where: RelBook.year > 1966,
                    sortedBy: [RelBook.author.ascending(RelAuthor.name), RelBook.year.descending()]))
            #expect(sorted.map(\.id) == [21, 10, 12, 11])
            #expect(try tx.count(Query<RelBook>(where: RelBook.author.has(RelAuthor.name.hasPrefix("frank")))) == 2)
        }
    }

    @Test func theCommonShapesUseTheForeignKeyIndexes() throws {
        let (fixture, store) = try seeded()
        defer { withExtendedLifetime(fixture) {} }
        try store.context.readAndWait { tx in
            let toOne = try tx.queryPlan(for: Query(where: RelBook.author.has(RelAuthor.name == "Frank Herbert")))
            #expect(toOne.contains { $0.contains("USING INDEX fk_relation_RelBook_authorID") }, "\(toOne)")
            #expect(toOne.contains { $0.contains("fk_index_RelAuthor_name") }, "\(toOne)")
            let exists = try tx.queryPlan(for: Query(where: RelAuthor.books.any(RelBook.year > 1970)))
            #expect(exists.contains { $0.contains("fk_relation_RelBook_authorID") }, "\(exists)")
            let count = try tx.queryPlan(for: Query(where: RelAuthor.books.count >= 3))
            #expect(count.contains { $0.contains("fk_relation_RelBook_authorID") }, "\(count)")
            let sorted = try tx.queryPlan(for: Query<RelBook>(sortedBy: [RelBook.author.ascending(RelAuthor.name)]))
            #expect(
                sorted.contains { $0.contains("INTEGER PRIMARY KEY") || $0.contains("USING PRIMARY KEY") }, "\(sorted)")
        }
    }

    // MARK: Observation

    @Test func anObservedQueryThroughARelationRefreshesWhenOnlyTheRelatedTableChanges() throws {
        let (fixture, store) = try seeded()
        defer { withExtendedLifetime(fixture) {} }
        defer { store.close() }
        let changes = Collector<QueryChange<RelBook>>()
        let token = store.observe(
            .query(
                Query<RelBook>(
                    where: RelBook.author.has(RelAuthor.name.hasPrefix("Ursula")), sortedBy: [RelBook.year.ascending()])
            ),
            on: DispatchQueue(label: "RelationQueryTests.observe"),
            onError: { error in Issue.record("observation failed: \(error)") }
        ) { change in changes.append(change) }
        defer { token.cancel() }
        #expect(changes.wait { $0.last?.results.map(\.id) == [11, 12, 10] })
        // Only RelAuthor changes: Frank Herbert's books now match.
        try store.context.persistAndWait { tx in try tx.update(RelAuthor(id: 2, name: "Ursula Herbert")) }
        #expect(changes.wait { $0.last?.results.map(\.id) == [20, 11, 12, 10, 21] })
        // A cascade from the related table removes rows.
        try store.context.persistAndWait { tx in
            _ = try tx.delete(Query<RelReview>())
            _ = try tx.delete(RelAuthor.self, id: 1)
        }
        #expect(changes.wait { $0.last?.results.map(\.id) == [20, 21] })
        // Sorted by a related field: renaming the author reorders.
        let sorted = Collector<QueryChange<RelBook>>()
        let second = store.observe(
            .query(Query<RelBook>(sortedBy: [RelBook.author.descending(RelAuthor.name), RelBook.year.ascending()])),
            on: DispatchQueue(label: "RelationQueryTests.sorted"),
            onError: { error in Issue.record("observation failed: \(error)") }
        ) { change in sorted.append(change) }
        defer { second.cancel() }
        try store.context.persistAndWait { tx in
            try tx.insert(RelAuthor(id: 4, name: "Aardvark"))
            try tx.insert(RelBook(id: 30, title: "Zoo", authorID: 4, year: 1990))
        }
        #expect(sorted.wait { $0.last?.results.map(\.id) == [20, 21, 30] })
        try store.context.persistAndWait { tx in try tx.update(RelAuthor(id: 4, name: "Zebra")) }
        #expect(sorted.wait { $0.last?.results.map(\.id) == [30, 20, 21] })
    }
}
