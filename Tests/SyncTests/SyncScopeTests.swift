import FetchKit
import Foundation
import Persistence
import Sync
import TestSupport
import Testing

/// Collections pulled by scopes: each scope's own cursor, what a change of scopes pulls and
/// prunes, the writes and parents it keeps, the parents a scoped row needs, and the errors.
@Suite struct SyncScopeTests {
    /// A library of three authors and five books on two shelves, on the server.
    private func library() throws -> LibraryFixture {
        let fixture = try LibraryFixture()
        fixture.backend.put("authors", "a1", ["name": "Ursula K. Le Guin"])
        fixture.backend.put("authors", "a2", ["name": "Octavia E. Butler"])
        fixture.backend.put("shelves", "s1", ["label": "Favourites"])
        fixture.backend.put("shelves", "s2", ["label": "To read"])
        fixture.backend.put("books", "b1", ["title": "The Dispossessed", "authorID": "a1", "shelfID": "s1"])
        fixture.backend.put("books", "b2", ["title": "Kindred", "authorID": "a2", "shelfID": "s2"])
        fixture.backend.put("books", "b3", ["title": "The Lathe of Heaven", "authorID": "a1", "shelfID": "s1"])
        return fixture
    }

    /// The library's authors, shelves and books, synced as one group.
    private func grouped() throws -> (LibraryFixture, SyncedCollection<Author>, SyncedCollection<Book>, SyncGroup) {
        let fixture = try library()
        let authors = try fixture.authors()
        let books = try fixture.books()
        return (fixture, authors, books, try SyncGroup(authors, try fixture.shelves(), books))
    }

    private static let favourites = SyncScope("shelf", parameters: ["shelfID": "s1"])
    private static let toRead = SyncScope("shelf", parameters: ["shelfID": "s2"])

    @Test func aScopedCollectionPullsOnlyItsScopeAndGoesOnFromItsOwnCursor() async throws {
        let (fixture, _, books, group) = try grouped()
        try await books.scope(to: [Self.favourites])
        #expect(try await books.scopes == [Self.favourites])
        try await group.sync()
        #expect(try fixture.local(Book.self).keys.sorted() == ["b1", "b3"])

        // Another client adds a book to each shelf: only the scope's comes, from the scope's cursor.
        fixture.backend.put("books", "b4", ["title": "Always Coming Home", "authorID": "a1", "shelfID": "s1"])
        fixture.backend.put("books", "b5", ["title": "Dawn", "authorID": "a2", "shelfID": "s2"])
        fixture.backend.server.resetRecording()
        try await group.sync()
        #expect(try fixture.local(Book.self).keys.sorted() == ["b1", "b3", "b4"])
        let lists = fixture.backend.server.requests(to: "/books")
        #expect(lists.count == 1)
        let query = Dictionary(uniqueKeysWithValues: (lists.first?.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(query["shelfID"] == "s1")
        #expect(query["afterID"] == "b3")
    }

    @Test func changingTheScopePullsWhatEnteredAndPrunesWhatLeftButKeepsUnsentWrites() async throws {
        let (fixture, _, books, group) = try grouped()
        try await books.scope(to: [Self.favourites])
        try await group.sync()

        // b1 is renamed while its sends fail: the write waits.
        fixture.backend.refuse("books", "b1", with: 503)
        try await fixture.store.context.persist { tx in
            try books.save(Book(id: "b1", title: "The Dispossessed (annotated)", authorID: "a1", shelfID: "s1"), in: tx)
        }
        try await books.scope(to: [Self.toRead])
        await #expect(throws: SyncError.self) { try await group.sync() }
        let rows = try fixture.local(Book.self)
        // b2 entered; b3 left; b1 left too, but its unsent rename keeps it, as it is here.
        #expect(rows.keys.sorted() == ["b1", "b2"])
        #expect(rows["b1"]?.title == "The Dispossessed (annotated)")
        #expect(try fixture.outbox() == ["books/b1 update pending"])

        // The rename goes once the server takes it; nothing was lost.
        fixture.backend.refuse("books", "b1", with: nil)
        try await group.sync()
        #expect(fixture.backend.records("books")["b1"]?["title"] == "The Dispossessed (annotated)")
        #expect(try fixture.outbox().isEmpty)
    }

    @Test func aRunThatFailsPrunesNothing() async throws {
        let (fixture, _, books, group) = try grouped()
        try await group.sync()
        #expect(try fixture.local(Book.self).count == 3)

        // Scoped, but the scope's listing fails on the way: the rows stay until it is pulled.
        try await books.scope(to: [Self.toRead])
        fixture.backend.refuseLists("books", with: 503)
        await #expect(throws: SyncError.self) { try await group.sync() }
        #expect(try fixture.local(Book.self).keys.sorted() == ["b1", "b2", "b3"])
        fixture.backend.refuseLists("books", with: nil)
        try await group.sync()
        #expect(try fixture.local(Book.self).keys.sorted() == ["b2"])
    }

    @Test func aRowEitherOfTwoScopesListsStaysWhenOneOfThemGoes() async throws {
        let (fixture, _, books, group) = try grouped()
        let byLeGuin = SyncScope("author", parameters: ["authorID": "a1"])
        try await books.scope(to: [Self.toRead, byLeGuin])
        try await group.sync()
        #expect(try fixture.local(Book.self).keys.sorted() == ["b1", "b2", "b3"])

        fixture.backend.put("books", "b4", ["title": "Lilith's Brood", "authorID": "a2", "shelfID": "s1"])
        try await books.scope(to: [Self.favourites, byLeGuin])
        try await group.sync()
        // b2 left with its scope; b1 and b3 stay (both scopes list them); b4 entered.
        #expect(try fixture.local(Book.self).keys.sorted() == ["b1", "b3", "b4"])

        // The scopes are in the store: a new launch pulls by them.
        let relaunched = try SyncedCollection(
            fixture.remote("books", Book.self, version: \.updated), store: fixture.store, client: fixture.client)
        #expect(try await relaunched.scopes == [Self.favourites, byLeGuin])
    }

    @Test func theParentsAScopedRowNeedsComeWithItAndLeaveWhenItDoes() async throws {
        let (fixture, authors, books, group) = try grouped()
        // Only Le Guin's authors' record is in the authors' scope; Kindred (on s2) needs Butler's.
        try await authors.scope(to: [SyncScope("named", parameters: ["name": "Ursula K. Le Guin"])])
        try await books.scope(to: [Self.toRead])
        try await group.sync()
        #expect(try fixture.local(Book.self).keys.sorted() == ["b2"])
        #expect(try fixture.local(Author.self).keys.sorted() == ["a1", "a2"])
        let lookups = fixture.backend.server.requests(to: "/lookup/authors")
        #expect(lookups.count == 1)

        // Kindred leaves the scope: Butler's record, which only it needed, goes after it.
        try await books.scope(to: [Self.favourites])
        try await group.sync()
        #expect(try fixture.local(Book.self).keys.sorted() == ["b1", "b3"])
        #expect(try fixture.local(Author.self).keys.sorted() == ["a1"])
        #expect(fixture.backend.records("authors").count == 2)
    }

    @Test func aParentKeptOnlyForItsChildrenKeepsAnEditMadeMeanwhileWhenTheyLetGo() async throws {
        let (fixture, authors, books, group) = try grouped()
        try await authors.scope(to: [SyncScope("named", parameters: ["name": "Ursula K. Le Guin"])])
        try await books.scope(to: [Self.favourites])
        try await group.sync()
        // Le Guin leaves the authors' scope; her books here still refer to her, so she stays.
        try await authors.scope(to: [SyncScope("named", parameters: ["name": "Octavia E. Butler"])])
        try await group.sync()
        #expect(try fixture.local(Author.self).keys.sorted() == ["a1", "a2"])

        // The user edits her while the server is unreachable for it, and her books leave too.
        fixture.backend.refuse("authors", "a1", with: 503)
        try await fixture.store.context.persist { tx in
            try authors.save(Author(id: "a1", name: "Ursula Kroeber Le Guin"), in: tx)
        }
        try await books.scope(to: [Self.toRead])
        await #expect(throws: SyncError.self) { try await group.sync() }
        // The server still has her: the edit and its row stay, never taken for a delete.
        #expect(try fixture.local(Author.self)["a1"]?.name == "Ursula Kroeber Le Guin")
        #expect(try fixture.outbox() == ["authors/a1 update pending"])
        fixture.backend.refuse("authors", "a1", with: nil)
        try await group.sync()
        #expect(fixture.backend.records("authors")["a1"]?["name"] == "Ursula Kroeber Le Guin")
    }

    @Test func aRowKeptForItsUnsentWriteLeavesOnceTheWriteIsSent() async throws {
        let (fixture, _, books, group) = try grouped()
        try await books.scope(to: [Self.favourites])
        try await group.sync()
        fixture.backend.refuse("books", "b1", with: 503)
        try await fixture.store.context.persist { tx in
            try books.save(Book(id: "b1", title: "The Dispossessed (annotated)", authorID: "a1", shelfID: "s1"), in: tx)
        }
        try await books.scope(to: [Self.toRead])
        await #expect(throws: SyncError.self) { try await group.sync() }
        #expect(try fixture.local(Book.self).keys.sorted() == ["b1", "b2"])

        // Sent: no scope lists it, so it goes at the end of the run that sent it.
        fixture.backend.refuse("books", "b1", with: nil)
        try await group.sync()
        #expect(fixture.backend.records("books")["b1"]?["title"] == "The Dispossessed (annotated)")
        #expect(try fixture.local(Book.self).keys.sorted() == ["b2"])
    }

    @Test func aRowCreatedInAScopeThatMovedBeforeItWasSentLeavesOnceSent() async throws {
        let (fixture, _, books, group) = try grouped()
        try await books.scope(to: [Self.favourites])
        try await group.sync()
        // A book created on the favourites shelf while the server refuses it for now.
        fixture.backend.refuse("books", "b9", with: 503)
        try await fixture.store.context.persist { tx in
            try books.save(Book(id: "b9", title: "The Word for World Is Forest", authorID: "a1", shelfID: "s1"), in: tx)
        }
        await #expect(throws: SyncError.self) { try await group.sync() }
        try await books.scope(to: [Self.toRead])
        await #expect(throws: SyncError.self) { try await group.sync() }
        #expect(try fixture.local(Book.self).keys.sorted() == ["b2", "b9"])

        // Sent: no scope of this device lists it, so it goes at the end of that run.
        fixture.backend.refuse("books", "b9", with: nil)
        try await group.sync()
        #expect(fixture.backend.records("books")["b9"]?["title"] == "The Word for World Is Forest")
        #expect(try fixture.local(Book.self).keys.sorted() == ["b2"])
        #expect(try fixture.outbox().isEmpty)
    }

    @Test func aRowCreatedInTheScopeStaysAndOneCreatedOutsideEveryScopeGoesOnceSent() async throws {
        let (fixture, _, books, group) = try grouped()
        try await books.scope(to: [Self.favourites])
        try await group.sync()
        try await fixture.store.context.persist { tx in
            try books.save(Book(id: "b8", title: "Always Coming Home", authorID: "a1", shelfID: "s1"), in: tx)
            try books.save(Book(id: "b9", title: "Dawn", authorID: "a2", shelfID: "s2"), in: tx)
        }
        try await group.sync()
        #expect(Set(fixture.backend.records("books").keys).isSuperset(of: ["b8", "b9"]))
        #expect(try fixture.local(Book.self).keys.sorted() == ["b1", "b3", "b8"])
    }

    @Test func aLookedUpParentBringsItsOwnMissingParentToo() async throws {
        let fixture = try library()
        fixture.backend.put("chapters", "c1", ["title": "Chapter 1", "bookID": "b2"])
        let authors = try fixture.authors()
        let shelves = try fixture.shelves()
        let books = try fixture.books()
        let chapters = try fixture.chapters()
        let group = try SyncGroup(authors, shelves, books, chapters)
        // Kindred (b2, by Butler, a2) is in neither its collection's scope nor its author's.
        try await authors.scope(to: [SyncScope("named", parameters: ["name": "Ursula K. Le Guin"])])
        try await books.scope(to: [Self.favourites])
        try await group.sync()
        #expect(try fixture.local(Chapter.self).keys.sorted() == ["c1"])
        #expect(try fixture.local(Book.self).keys.sorted() == ["b1", "b2", "b3"])
        #expect(try fixture.local(Author.self).keys.sorted() == ["a1", "a2"])
    }

    @Test func aParentTheServerDoesNotHaveFailsThePageWithTheRecordNamed() async throws {
        let fixture = try library()
        fixture.backend.put("books", "b9", ["title": "Orphan", "authorID": "a9", "shelfID": "s2"])
        let authors = try fixture.authors()
        let shelves = try fixture.shelves()
        let books = try fixture.books()
        let group = try SyncGroup(authors, shelves, books)
        try await books.scope(to: [Self.toRead])
        let error = await #expect(throws: SyncError.self) { try await group.sync() }
        #expect(error?.code == .missingParent)
        #expect(error?.record == "b9")
        #expect(error?.property == "authorID")
        // Nothing of the page was applied.
        #expect(try fixture.local(Book.self).isEmpty)
    }

    @Test func aScopeTheServerRefusesIsATypedErrorThatNamesIt() async throws {
        let (fixture, _, books, group) = try grouped()
        try await group.sync()
        let bogus = SyncScope("mine", parameters: ["owner": "u1"])
        try await books.scope(to: [bogus])
        let error = await #expect(throws: SyncError.self) { try await group.sync() }
        #expect(error?.code == .scopeRefused)
        #expect(error?.collection == "books")
        #expect(error?.page == "scope mine(owner=u1)")
        #expect(error?.fetchError?.statusCode == 400)
        // The rows are as they were.
        #expect(try fixture.local(Book.self).count == 3)
    }

    @Test func wholeAgainReadsEverythingAndPrunesWhatTheServerNoLongerHas() async throws {
        let (fixture, _, books, group) = try grouped()
        try await books.scope(to: [Self.favourites])
        try await group.sync()
        fixture.backend.purge("books", "b3")
        try await books.scope(to: [])
        #expect(try await books.scopes.isEmpty)
        try await group.sync()
        #expect(try fixture.local(Book.self).keys.sorted() == ["b1", "b2"])
    }

    @Test func aScopedIdentityListingFindsARecordThatLeftTheScopeOnTheServer() async throws {
        let fixture = try library()
        let authors = try fixture.authors()
        let shelves = try fixture.shelves()
        let books = try SyncedCollection(
            fixture.remote("books", Book.self, version: \.updated, reconciling: true), store: fixture.store,
            client: fixture.client)
        let group = try SyncGroup(authors, shelves, books)
        try await books.scope(to: [Self.favourites])
        try await group.sync()
        #expect(try fixture.local(Book.self).keys.sorted() == ["b1", "b3"])
        // Another client moves b3 to the other shelf: the scope's changes no longer list it, and
        // its identities show it left.
        fixture.backend.put("books", "b3", ["title": "The Lathe of Heaven", "authorID": "a1", "shelfID": "s2"])
        try await group.sync()
        #expect(try fixture.local(Book.self).keys.sorted() == ["b1"])
    }
}
