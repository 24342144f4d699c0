import Foundation
import Persistence
import TestSupport
import Testing

/// The grouping of a to-many prefetch by the identity of each entity, for identities of both
/// kinds the grouping distinguishes: integers and other values (text here).
@Suite struct PrefetchGroupingTests {
    static let shelfBooks = RelBook.shelf.inverse(orderedBy: [RelBook.year.ascending()])

    @Test func aToManyPrefetchGroupsRowsUnderTextIdentitiesInTheRelationsOrder() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open(relationEntities)
        defer { store.close() }
        try store.context.persistAndWait { tx in
            try tx.insert(RelAuthor(id: 1, name: "Ursula K. Le Guin"))
            try tx.insert(RelShelf(id: "b", label: "Fantasy"))
            try tx.insert(RelShelf(id: "a", label: "Science fiction"))
            try tx.insert(RelShelf(id: "c", label: "Empty"))
            try tx.insert(RelBook(id: 10, title: "The Dispossessed", authorID: 1, shelfID: "a", year: 1974))
            try tx.insert(RelBook(id: 11, title: "A Wizard of Earthsea", authorID: 1, shelfID: "b", year: 1968))
            try tx.insert(RelBook(id: 12, title: "The Left Hand of Darkness", authorID: 1, shelfID: "a", year: 1969))
            try tx.insert(RelBook(id: 13, title: "Unshelved", authorID: 1, year: 1970))
            try tx.insert(RelBook(id: 14, title: "The Tombs of Atuan", authorID: 1, shelfID: "b", year: 1971))
        }
        let shelves = try store.context.readAndWait { tx in
            try tx.fetch(Query<RelShelf>(sortedBy: [RelShelf.idField.ascending()]).including(Self.shelfBooks))
        }
        #expect(shelves.map(\.0.id) == ["a", "b", "c"])
        #expect(shelves.map { $0.1.map(\.id) } == [[12, 10], [11, 14], []])
        // The same as one query per shelf.
        let loop = try store.context.readAndWait { tx in
            try tx.fetch(Query<RelShelf>(sortedBy: [RelShelf.idField.ascending()])).map { shelf in
                try tx.fetch(Query<RelBook>(where: RelBook.shelfID == shelf.id, sortedBy: [RelBook.year.ascending()]))
            }
        }
        #expect(loop == shelves.map(\.1))
    }
}
