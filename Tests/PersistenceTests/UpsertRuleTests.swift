import Foundation
import Persistence
import TestSupport
import Testing

/// Upserts with conflict rules: one `INSERT … ON CONFLICT DO UPDATE`, what it keeps, what it
/// combines, what it reports, and what it refuses before writing.
@Suite struct UpsertRuleTests {
    static let value = Field<Counter, Int>("value")

    @Test func aKeptPropertyKeepsItsStoredValueAndTheOthersTakeTheNewOnes() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let outcomes = try store.context.persistAndWait { tx in
            [
                try tx.upsert(Book(id: "1", title: "Dune", rating: 4.5, pages: 412)),
                try tx.upsert(
                    Book(id: "1", title: "Dune Messiah", rating: nil, pages: 256), onConflict: [.keep(Book.rating)]),
            ]
        }
        #expect(outcomes == [.inserted, .updated])
        let stored = try store.context.readAndWait { tx in try tx.fetch(Book.self, id: "1") }
        #expect(stored?.title == "Dune Messiah")
        #expect(stored?.pages == 256)
        #expect(stored?.rating == 4.5)
    }

    @Test func aKeptTextKeepsItsFoldedFormSoCaseInsensitiveMatchingStillFindsIt() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        try store.context.persistAndWait { tx in
            try tx.upsert(Book(id: "1", title: "Éclair", pages: 10))
            try tx.upsert(Book(id: "1", title: "Zebra", pages: 20), onConflict: [.keep(Book.title)])
        }
        let (byFold, byNew) = try store.context.readAndWait { tx in
            (
                try tx.fetch(Query<Book>(where: Book.title.equals("eclair"))).map(\.pages),
                try tx.fetch(Query<Book>(where: Book.title.equals("zebra"))).count
            )
        }
        #expect(byFold == [20])
        #expect(byNew == 0)
    }

    @Test func anAssignmentCombinesWithTheStoredValue() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let outcomes = try store.context.persistAndWait { tx in
            try (0..<3).map { _ in
                try tx.upsert(Counter(id: 7, value: 1), onConflict: [.assign(Self.value += 10)])
            }
        }
        #expect(outcomes == [.inserted, .updated, .updated])
        // Inserted with 1, then 1 + 10 + 10: the new entity's value is not used once a row is stored.
        #expect(try store.context.readAndWait { tx in try tx.fetch(Counter.self, id: 7)?.value } == 21)
    }

    @Test func aSetAssignmentStoresItsValueOnlyOnConflict() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        try store.context.persistAndWait { tx in
            try tx.upsert(
                Book(id: "1", title: "Dune", summary: "first"), onConflict: [.assign(Book.summary.set("again"))])
            #expect(try tx.fetch(Book.self, id: "1")?.summary == "first")
            try tx.upsert(
                Book(id: "1", title: "Dune", summary: "second"), onConflict: [.assign(Book.summary.set("again"))])
            #expect(try tx.fetch(Book.self, id: "1")?.summary == "again")
        }
    }

    @Test func matchingByAUniqueKeyKeepsTheStoredIdentityAndReportsAnUpdate() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let outcome = try store.context.persistAndWait { tx in
            try tx.upsert(Book(id: "a", title: "Dune", isbn: "978", rating: 5, pages: 1))
            return try tx.upsert(
                Book(id: "b", title: "Dune (2nd)", isbn: "978", pages: 2), matching: Book.isbnKey,
                onConflict: [.keep(Book.rating)])
        }
        #expect(outcome == .updated)
        let books = try store.context.readAndWait { tx in try tx.fetch(Query<Book>()) }
        #expect(books.count == 1)
        #expect(books.first?.id == "a")
        #expect(books.first?.title == "Dune (2nd)")
        #expect(books.first?.rating == 5)
    }

    @Test func anAdditionPastTheTypeRefusesTheUpsertAndWritesNothing() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        try store.context.persistAndWait { tx in try tx.insert(Counter(id: 1, value: .max - 1)) }
        let error = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in
                try tx.upsert(Counter(id: 1, value: 0), onConflict: [.assign(Self.value += 5)])
            }
        }
        #expect(error?.code == .unsupportedValue)
        #expect(error?.entity == Counter.entityName)
        #expect(error?.property == "value")
        #expect(try store.context.readAndWait { tx in try tx.fetch(Counter.self, id: 1)?.value } == .max - 1)
    }

    @Test func aRuleForAPropertyTheEntityDoesNotStoreIsATypedErrorNamingIt() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let unknown = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in
                try tx.upsert(Book(id: "1", title: "Dune"), onConflict: [.keep(Field<Book, Int>("nonexistent"))])
            }
        }
        #expect(unknown?.code == .unknownProperty)
        #expect(unknown?.entity == "Book")
        #expect(unknown?.property == "nonexistent")

        let identity = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in
                try tx.upsert(Book(id: "1", title: "Dune"), onConflict: [.keep(Field<Book, String>("id"))])
            }
        }
        #expect(identity?.code == .misuse)
        #expect(identity?.property == "id")

        let twice = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in
                try tx.upsert(Book(id: "1", title: "Dune"), onConflict: [.keep(Book.pages), .assign(Book.pages += 1)])
            }
        }
        #expect(twice?.code == .misuse)
        #expect(twice?.property == "pages")

        let text = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in
                try tx.upsert(
                    Book(id: "1", title: "Dune"),
                    onConflict: [.assign(Book.title.set("x")), .assign(Book.rating += .nan)])
            }
        }
        #expect(text?.code == .unsupportedValue)
        #expect(try store.context.readAndWait { tx in try tx.count(Query<Book>()) } == 0, "nothing was written")
    }

    @Test func anObserverSeesTheUpsertedRowWithItsKeptValue() async throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        try await store.context.persist { tx in try tx.insert(Book(id: "1", title: "Dune", rating: 3)) }
        let seen = Collector<[Double?]>()
        let token = store.observe(.query(Query<Book>())) { change in seen.append(change.results.map(\.rating)) }
        defer { token.cancel() }
        try await waitUntil("the first delivery") { seen.count == 1 }
        try await store.context.persist { tx in
            try tx.upsert(Book(id: "1", title: "Dune, revised", rating: nil), onConflict: [.keep(Book.rating)])
        }
        try await waitUntil("the upsert's delivery") { seen.count == 2 }
        #expect(seen.values.last == [3])
    }
}
