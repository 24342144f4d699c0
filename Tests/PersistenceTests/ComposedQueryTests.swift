import Foundation
import Persistence
import TestSupport
import Testing

/// One composable query: what rows include, sections, groups, and the writes and counts that take
/// a query, checked against the same answers computed row by row.
@Suite struct ComposedQueryTests {
    /// Two authors with books on shelves, tags and reviews; a third author with no book.
    static func library() throws -> (StoreFixture, ObjectStore) {
        let fixture = try StoreFixture()
        let store = try fixture.open(relationEntities)
        try store.context.persistAndWait { tx in
            try tx.insert(RelAuthor(id: 1, name: "Ursula K. Le Guin"))
            try tx.insert(RelAuthor(id: 2, name: "Octavia E. Butler"))
            try tx.insert(RelAuthor(id: 3, name: "Nobody Yet"))
            try tx.insert(RelShelf(id: "sf", label: "Science fiction"))
            try tx.insert(RelBook(id: 10, title: "The Dispossessed", authorID: 1, shelfID: "sf", year: 1974))
            try tx.insert(RelBook(id: 11, title: "A Wizard of Earthsea", authorID: 1, year: 1968))
            try tx.insert(RelBook(id: 12, title: "Kindred", authorID: 2, shelfID: "sf", year: 1979))
            try tx.insert(RelBook(id: 13, title: "Parable of the Sower", authorID: 2, year: 1993))
            try tx.insert(RelBook(id: 14, title: "Dawn", authorID: 2, shelfID: "sf", year: 1987))
            try tx.insert(RelTag(id: "award", name: "Award"))
            try tx.insert(RelTag(id: "classic", name: "Classic"))
            try tx.link(RelBook.tags, 10, to: "award")
            try tx.link(RelBook.tags, 10, to: "classic")
            try tx.link(RelBook.tags, 12, to: "classic")
        }
        return (fixture, store)
    }

    @Test func aQueryIncludesRelatedRowsAndAggregatesTogetherInItsWindow() throws {
        let (_, store) = try Self.library()
        defer { store.close() }
        let query = Query<RelAuthor>(sortedBy: [RelAuthor.name.descending()]).limit(2, offset: 1)
        let rows = try store.context.readAndWait { tx in
            try tx.fetch(
                query.including(
                    RelAuthor.books, RelAuthor.books.aggregate(Aggregate.count(of: RelBook.self)),
                    RelAuthor.books.aggregate(RelBook.year.max(), where: RelBook.year < 1990)))
        }
        // Butler and Nobody Yet: the window of the sorted authors, Le Guin skipped.
        #expect(rows.map(\.0.id) == [2, 3])
        #expect(rows.map { $0.1.map(\.id) } == [[12, 14, 13], []])
        #expect(rows.map(\.2) == [3, 0])
        #expect(rows.map(\.3) == [1987, nil])
        // The same answers, one query per author.
        let loop = try store.context.readAndWait { tx in
            try tx.fetch(query).map { author in
                let books = try tx.fetch(
                    Query<RelBook>(where: RelBook.authorID == author.id, sortedBy: [RelBook.year.ascending()]))
                return (books.map(\.id), books.count, books.filter { $0.year < 1990 }.map(\.year).max())
            }
        }
        #expect(loop.map(\.0) == rows.map { $0.1.map(\.id) })
        #expect(loop.map(\.1) == rows.map(\.2))
        #expect(loop.map(\.2) == rows.map(\.3))
    }

    @Test func aQueryIncludesToOneAndManyToManyRowsInOneRow() throws {
        let (_, store) = try Self.library()
        defer { store.close() }
        let rows = try store.context.readAndWait { tx in
            try tx.fetch(
                Query<RelBook>(where: RelBook.year > 1970, sortedBy: [RelBook.year.ascending()])
                    .including(RelBook.shelf, RelBook.author, RelBook.tags, RelBook.tags.aggregate(RelTag.name.min())))
        }
        #expect(rows.map(\.0.id) == [10, 12, 14, 13])
        #expect(rows.map { $0.1?.id } == ["sf", "sf", "sf", nil])
        #expect(rows.map { $0.2?.id } == [1, 2, 2, 2])
        #expect(rows.map { $0.3.map(\.id) } == [["award", "classic"], ["classic"], [], []])
        #expect(rows.map(\.4) == ["Award", "Classic", nil, nil])
    }

    @Test func sectionsOfRowsWithWhatTheyIncludeComeFromTheStore() throws {
        let (_, store) = try Self.library()
        defer { store.close() }
        let sections = try store.context.readAndWait { tx in
            try tx.fetch(
                Query<RelBook>(sortedBy: [RelBook.author.ascending(RelAuthor.name), RelBook.year.ascending()])
                    .including(RelBook.tags)
                    .sectioned(by: RelBook.author.name))
        }
        #expect(sections.map(\.key) == ["Octavia E. Butler", "Ursula K. Le Guin"])
        #expect(sections.map { $0.rows.map(\.0.id) } == [[12, 14, 13], [11, 10]])
        #expect(sections.map { $0.rows.map(\.1.count) } == [[1, 0, 0], [0, 2]])
        let byShelf = try store.context.readAndWait { tx in
            try tx.fetch(Query<RelBook>(sortedBy: [RelBook.shelfID.ascending()]).sectioned(by: \.shelfID))
        }
        #expect(byShelf.map(\.key) == [nil, "sf"])
        #expect(byShelf.map { $0.rows.map(\.id) } == [[11, 13], [10, 12, 14]])
    }

    @Test func groupsTakeTheirRowsFromAQueryAndItsWindow() throws {
        let (_, store) = try Self.library()
        defer { store.close() }
        let count = Aggregate.count(of: RelBook.self)
        // The three newest books, grouped by author: Butler has all three.
        let newest = try store.context.readAndWait { tx in
            try tx.groups(
                Query<RelBook>(sortedBy: [RelBook.year.descending()], limit: 3), by: RelBook.author,
                aggregating: count)
        }
        #expect(newest.map(\.0.id) == [2])
        #expect(newest.map(\.1) == [3])
        // Two keys, one through the relation, with a filter.
        let perAuthorAndShelf = try store.context.readAndWait { tx in
            try tx.groups(
                Query<RelBook>(where: RelBook.year > 1970), by: RelBook.author.name, RelBook.shelfID,
                aggregating: count, RelBook.year.min(), sortedBy: [count.descending()])
        }
        #expect(perAuthorAndShelf.map(\.0) == ["Octavia E. Butler", "Octavia E. Butler", "Ursula K. Le Guin"])
        #expect(perAuthorAndShelf.map(\.1) == ["sf", nil, "sf"])
        #expect(perAuthorAndShelf.map(\.2) == [2, 1, 1])
        #expect(perAuthorAndShelf.map(\.3) == [1979, 1993, 1974])
    }

    @Test func aRelationOfAnotherEntityIsATypedErrorNotACrash() throws {
        let (_, store) = try Self.library()
        defer { store.close() }
        let including = #expect(throws: PersistenceError.self) {
            try store.context.readAndWait { tx in
                try tx.fetch(Query<RelAuthor>().including(RelBook.author))
            }
        }
        #expect(including?.code == .misuse)
        #expect(including?.entity == "RelAuthor")
        let grouping = #expect(throws: PersistenceError.self) {
            try store.context.readAndWait { tx in
                try tx.groups(Query<RelAuthor>(), by: RelBook.year, aggregating: Aggregate.count(of: RelAuthor.self))
            }
        }
        #expect(grouping?.code == .misuse)
        #expect(grouping?.entity == "RelAuthor")
    }

    @Test func updatesDeletesAndCountsTakeASortedWindow() throws {
        let (_, store) = try Self.library()
        defer { store.close() }
        let oldestTwo = Query<RelBook>(sortedBy: [RelBook.year.ascending()], limit: 2)
        let (counted, exists) = try store.context.readAndWait { tx in
            (try tx.count(oldestTwo), try tx.exists(Query<RelBook>(where: RelBook.year > 2000)))
        }
        #expect(counted == 2)
        #expect(!exists)
        let updated = try store.context.persistAndWait { tx in
            try tx.update(oldestTwo, set: [RelBook.year += 100])
        }
        #expect(updated == 2)
        let years = try store.context.readAndWait { tx in
            try tx.fetch(Query<RelBook>(sortedBy: [RelBook.idField.ascending()])).map(\.year)
        }
        #expect(years == [2074, 2068, 1979, 1993, 1987])
        // A window without a sort would change arbitrary rows: refused, nothing written.
        let unsorted = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in
                try tx.update(Query<RelBook>(limit: 1), set: [RelBook.year.set(1)])
            }
        }
        #expect(unsorted?.code == .invalidQuery)
        #expect(unsorted?.entity == "RelBook")
        // Keep the newest two books of each author's sorted list: one delete per author.
        let deleted = try store.context.persistAndWait { tx in
            try tx.delete(
                Query<RelBook>(where: RelBook.authorID == 2, sortedBy: [RelBook.year.descending()], offset: 2))
        }
        #expect(deleted == 1)
        let left = try store.context.readAndWait { tx in
            try tx.fetch(Query<RelBook>(where: RelBook.authorID == 2, sortedBy: [RelBook.idField.ascending()]))
                .map(\.id)
        }
        #expect(left == [13, 14])
    }
}
