import Foundation
import Persistence
import Testing

@Suite struct StoreBasicsTests {
    @Test func insertedEntityIsFetchedByIdentityWithEveryPropertyIntact() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        var book = Book(id: "b1", title: "Dune", authors: ["Frank Herbert"], isbn: "9780441013593", rating: 4.5)
        book.identifiers = [.init(type: "ISBN_13", identifier: "9780441013593")]
        try store.context.persistAndWait { tx in try tx.insert(book) }
        let fetched = try store.context.readAndWait { tx in try tx.fetch(Book.self, id: "b1") }
        #expect(fetched == book)
        #expect(try store.context.readAndWait { tx in try tx.fetch(Book.self, id: "missing") } == nil)
    }

    @Test func specialTypesRoundTrip() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let photo = Photo(
            id: UUID(), remoteID: "53412", title: "Cat", latitude: -33.86, takenAt: Date(timeIntervalSince1970: 1.5e9),
            url: URL(string: "https://example.com/a b?x=1"), shelf: .done, thumbnail: Data([0, 1, 2, 255]))
        try store.context.persistAndWait { tx in try tx.insert(photo) }
        let fetched = try store.context.readAndWait { tx in try tx.fetch(Photo.self, id: photo.id) }
        #expect(fetched == photo)
        let done = try store.context.readAndWait { tx in try tx.fetch(Query<Photo>(where: Photo.shelf == .done)) }
        #expect(done.map(\.id) == [photo.id])
    }

    @Test func updateReplacesTheRowAndFailsForAMissingIdentity() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        var book = Book(id: "b1", title: "Dune")
        try store.context.persistAndWait { tx in try tx.insert(book) }
        book.rating = 3
        book.summary = nil
        try store.context.persistAndWait { tx in try tx.update(book) }
        #expect(try store.context.readAndWait { try $0.fetch(Book.self, id: "b1") }?.rating == 3)
        let notFound = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in try tx.update(Book(id: "nope", title: "x")) }
        }
        #expect(notFound?.code == .notFound)
    }

    @Test func optionalSetToNilIsStoredAsNil() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        var book = Book(id: "b1", title: "Dune", rating: 5, summary: "spice")
        try store.context.persistAndWait { tx in try tx.insert(book) }
        book.rating = nil
        book.summary = nil
        try store.context.persistAndWait { tx in try tx.upsert(book) }
        let fetched = try store.context.readAndWait { try $0.fetch(Book.self, id: "b1") }
        #expect(fetched?.rating == nil)
        #expect(fetched?.summary == nil)
    }

    @Test func upsertByIdentityStoresAPhotoFetchedTwiceOnce() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        var photo = Photo(
            id: UUID(), remoteID: "1", title: "first", latitude: 0, takenAt: Date(timeIntervalSince1970: 0), url: nil,
            shelf: .reading, thumbnail: nil)
        try store.context.persistAndWait { tx in try tx.upsert(photo) }
        photo.title = "second"
        try store.context.persistAndWait { tx in try tx.upsert(photo) }
        let all = try store.context.readAndWait { try $0.fetch(Query<Photo>()) }
        #expect(all.map(\.title) == ["second"])
    }

    @Test func upsertByRemoteIDStoresAFlickrPhotoFetchedTwiceOnce() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        func photo(_ title: String) -> Photo {
            Photo(
                id: UUID(), remoteID: "53412", title: title, latitude: 1, takenAt: Date(timeIntervalSince1970: 0),
                url: nil, shelf: .reading, thumbnail: nil)
        }
        let first = photo("first fetch")
        try store.context.persistAndWait { tx in try tx.upsert(first, matching: Photo.remoteKey) }
        try store.context.persistAndWait { tx in try tx.upsert(photo("second fetch"), matching: Photo.remoteKey) }
        let all = try store.context.readAndWait { try $0.fetch(Query<Photo>()) }
        #expect(all.map(\.title) == ["second fetch"])
        #expect(all.map(\.id) == [first.id])
        let misuse = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in
                try tx.upsert(photo("x"), matching: UniqueKey(Field<Photo, String>("title")))
            }
        }
        #expect(misuse?.code == .misuse)
    }

    @Test func upsertByUniqueKeyKeepsOneBookPerISBN() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        try store.context.persistAndWait { tx in
            try tx.upsert(Book(id: "google-1", title: "Dune", isbn: "978"), matching: Book.isbnKey)
            try tx.upsert(Book(id: "google-2", title: "Dune (new edition)", isbn: "978"), matching: Book.isbnKey)
        }
        let all = try store.context.readAndWait { try $0.fetch(Query<Book>()) }
        #expect(all.count == 1)
        #expect(all.first?.id == "google-1")
        #expect(all.first?.title == "Dune (new edition)")
    }

    @Test func insertingADuplicateUniqueKeyThrowsUniqueKeyViolationAndRollsBack() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        try store.context.persistAndWait { tx in try tx.insert(Book(id: "a", title: "A", isbn: "1")) }
        do {
            try store.context.persistAndWait { tx in
                try tx.insert(Book(id: "b", title: "B"))
                try tx.insert(Book(id: "c", title: "C", isbn: "1"))
            }
            Issue.record("expected a unique-key violation")
        } catch let error as PersistenceError {
            #expect(error.code == .uniqueKeyViolation)
            #expect(error.message.contains("unique"))
        }
        #expect(try store.context.readAndWait { try $0.count(Query<Book>()) } == 1)
    }

    @Test func deleteOneAndDeleteMatching() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        try store.context.persistAndWait { tx in
            for index in 0..<10 { try tx.insert(Book(id: "b\(index)", title: "T\(index)", pages: index * 10)) }
        }
        let results = try store.context.persistAndWait { tx in
            (
                try tx.delete(Book.self, id: "b0"), try tx.delete(Book.self, id: "b0"),
                try tx.delete(Query<Book>(where: Book.pages >= 50))
            )
        }
        #expect(results.0 == true)
        #expect(results.1 == false)
        #expect(results.2 == 5)
        #expect(try store.context.readAndWait { try $0.count(Query<Book>()) } == 4)
        #expect(try store.context.persistAndWait { try $0.delete(Query<Book>()) } == 4)
    }

    @Test func deleteBySortedWindowKeepsTheNewestInOneStatement() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        try store.context.persistAndWait { tx in
            for index in 0..<10 { try tx.insert(Book(id: "b\(index)", title: "T\(index)", pages: index * 10)) }
        }
        let pruned = try store.context.persistAndWait { tx in
            try tx.delete(Query<Book>(where: Book.pages >= 20, sortedBy: [Book.pages.descending()], offset: 3))
        }
        #expect(pruned == 5)
        let kept = try store.context.readAndWait { tx in try tx.fetch(Query<Book>(sortedBy: [Book.pages.ascending()])) }
        #expect(kept.map(\.id) == ["b0", "b1", "b7", "b8", "b9"])
        let limited = try store.context.persistAndWait { tx in
            try tx.delete(Query<Book>(sortedBy: [Book.pages.ascending()], limit: 1, offset: 1))
        }
        #expect(limited == 1)
        #expect(
            try store.context.readAndWait { try $0.fetch(Query<Book>(sortedBy: [Book.pages.ascending()])) }.map(\.id)
                == ["b0", "b7", "b8", "b9"])
    }

    @Test func deleteWithAWindowButNoSortIsRefusedAndDeletesNothing() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        try store.context.persistAndWait { tx in
            for index in 0..<4 { try tx.insert(Book(id: "b\(index)", title: "T\(index)", pages: index)) }
        }
        do {
            _ = try store.context.persistAndWait { tx in try tx.delete(Query<Book>(offset: 2)) }
            Issue.record("expected a refusal")
        } catch let error as PersistenceError {
            #expect(error.code == .invalidQuery)
            #expect(error.entity == "Book")
        }
        #expect(try store.context.readAndWait { try $0.count(Query<Book>()) } == 4)
    }

    @Test func rawSQLBindsItsArguments() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        try store.context.persistAndWait { tx in try tx.insert(Book(id: "b1", title: "Dune", pages: 10)) }
        let changed = try store.context.persistAndWait { tx in
            try tx.execute(#"UPDATE "Book" SET "pages" = ? WHERE "title" = ?"#, [.integer(412), .text("Dune")])
        }
        #expect(changed == 1)
        let rows = try store.context.readAndWait { tx in
            try tx.rows(#"SELECT "title", "pages" FROM "Book" WHERE "id" = ?"#, [.text("b1")])
        }
        #expect(rows.first?["title"] == .text("Dune"))
        #expect(rows.first?["pages"] == .integer(412))
        let books = try store.context.readAndWait { tx in
            try tx.fetch(Book.self, sql: #"SELECT * FROM "Book" WHERE "pages" > ?"#, [.integer(400)])
        }
        #expect(books.map(\.id) == ["b1"])
    }

    @Test func aWriteInAReadBlockIsRefused() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let misuse = #expect(throws: PersistenceError.self) {
            try store.context.readAndWait { tx in try tx.insert(Book(id: "x", title: "x")) }
        }
        #expect(misuse?.code == .misuse)
        let misuseAgain = #expect(throws: PersistenceError.self) {
            try store.context.readAndWait { tx in try tx.execute(#"DELETE FROM "Book""#) }
        }
        #expect(misuseAgain?.code == .misuse)
    }

    @Test func anEntityNotGivenToTheStoreIsAClearError() throws {
        struct Stranger: StoredEntity { var id: Int }
        let fixture = try StoreFixture()
        let store = try fixture.open([Book.self])
        do {
            try store.context.persistAndWait { tx in try tx.insert(Stranger(id: 1)) }
            Issue.record("expected an error")
        } catch let error as PersistenceError {
            #expect(error.code == .misuse)
            #expect(error.message.contains("Stranger"))
        }
    }

    @Test func inMemoryStoreWorksWithSeveralContexts() throws {
        let store = try ObjectStore.inMemory(entities: [Counter.self])
        let other = store.makeContext()
        try store.context.persistAndWait { tx in try tx.insert(Counter(id: 1, value: 1)) }
        #expect(try other.readAndWait { try $0.fetch(Counter.self, id: 1) }?.value == 1)
        store.close()
        let closed = #expect(throws: PersistenceError.self) { try other.readAndWait { try $0.count(Query<Counter>()) } }
        #expect(closed?.code == .closed)
    }
}
