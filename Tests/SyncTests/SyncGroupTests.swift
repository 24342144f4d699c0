import FetchKit
import Foundation
import Persistence
import Sync
import TestSupport
import Testing

/// Collections synced as one group: push order, failed parents, local delete rules, pulls that
/// bring a page's parents, held deletes, status, and the groups that cannot be.
@Suite struct SyncGroupTests {
    @Test func aChildCreatedWithItsParentReachesTheServerAfterItWhateverTheOrderGiven() async throws {
        let fixture = try LibraryFixture()
        let authors = try fixture.authors()
        let books = try fixture.books()
        // Children first on purpose: the group orders them by their relations.
        let library = try SyncGroup(books, authors)
        #expect(library.collections == ["authors", "books"])
        try await fixture.store.context.persist { tx in
            try authors.save(Author(id: "a1", name: "Ursula K. Le Guin"), in: tx)
            try books.save(Book(id: "b1", title: "The Dispossessed", authorID: "a1"), in: tx)
        }
        let report = try await library.sync()
        #expect(report.writesSent == 2)
        #expect(fixture.backend.applied == ["create authors/a1", "create books/b1"])
        #expect(try fixture.outbox().isEmpty)
    }

    @Test func aChildWaitsWhileItsParentsCreateIsRefusedAndGoesOnceTheParentIsFixed() async throws {
        let fixture = try LibraryFixture()
        let authors = try fixture.authors()
        let books = try fixture.books()
        let library = try SyncGroup(authors, books)
        fixture.backend.refuse("authors", "a1", with: 422)
        try await fixture.store.context.persist { tx in
            try authors.save(Author(id: "a1", name: ""), in: tx)
            try books.save(Book(id: "b1", title: "Kindred", authorID: "a1"), in: tx)
            try books.save(Book(id: "b2", title: "Dawn", authorID: "a1"), in: tx)
        }
        try await library.sync()
        // The parent is refused; its children never went out, and stay queued with their rows.
        #expect(fixture.backend.applied.isEmpty)
        #expect(
            try fixture.outbox() == [
                "authors/a1 create rejected", "books/b1 create pending", "books/b2 create pending",
            ])
        #expect(try fixture.local(Book.self).keys.sorted() == ["b1", "b2"])
        let status = await library.status
        #expect(status.pendingCount == 2)
        #expect(status.rejectedCount == 1)

        // The app fixes the parent: everything goes, parent first.
        fixture.backend.refuse("authors", "a1", with: nil)
        try await fixture.store.context.persist { tx in
            try authors.save(Author(id: "a1", name: "Octavia E. Butler"), in: tx)
        }
        try await library.sync()
        #expect(fixture.backend.applied.first == "create authors/a1")
        #expect(Set(fixture.backend.applied.dropFirst()) == ["create books/b1", "create books/b2"])
        #expect(try fixture.outbox().isEmpty)
        #expect(await library.status.pendingCount == 0)
    }

    @Test func aChildWaitsWhileItsParentsCreateFailsOnTheWay() async throws {
        let fixture = try LibraryFixture()
        let authors = try fixture.authors()
        let books = try fixture.books()
        let library = try SyncGroup(authors, books)
        fixture.backend.refuse("authors", "a1", with: 503)
        try await fixture.store.context.persist { tx in
            try authors.save(Author(id: "a1", name: "N. K. Jemisin"), in: tx)
            try books.save(Book(id: "b1", title: "The Fifth Season", authorID: "a1"), in: tx)
        }
        await #expect(throws: SyncError.self) { try await library.sync() }
        #expect(fixture.backend.applied.isEmpty)
        #expect(try fixture.outbox() == ["authors/a1 create pending", "books/b1 create pending"])
        fixture.backend.refuse("authors", "a1", with: nil)
        try await library.sync()
        #expect(fixture.backend.applied == ["create authors/a1", "create books/b1"])
    }

    @Test func aParentDeletedHereTakesItsChildrenByTheRuleAndGoesAfterThem() async throws {
        let fixture = try LibraryFixture()
        fixture.backend.put("authors", "a1", ["name": "Ursula K. Le Guin"])
        fixture.backend.put("shelves", "s1", ["label": "Favourites"])
        fixture.backend.put("books", "b1", ["title": "The Lathe of Heaven", "authorID": "a1", "shelfID": "s1"])
        fixture.backend.put("books", "b2", ["title": "Always Coming Home", "authorID": "a1"])
        let authors = try fixture.authors()
        let shelves = try fixture.shelves()
        let books = try fixture.books()
        let library = try SyncGroup(authors, shelves, books)
        try await library.sync()
        #expect(try fixture.local(Book.self)["b1"]?.shelfID == "s1")

        // The shelf goes: its book stays, off the shelf (nullify). The author goes: its books go (cascade).
        try await fixture.store.context.persist { tx in
            try shelves.delete("s1", in: tx)
            try authors.delete("a1", in: tx)
        }
        #expect(
            try fixture.outbox() == [
                "authors/a1 delete pending", "books/b1 delete pending", "books/b2 delete pending",
                "shelves/s1 delete pending",
            ])
        try await library.sync()
        #expect(try fixture.outbox().isEmpty)
        #expect(fixture.backend.records("authors").isEmpty)
        #expect(fixture.backend.records("books").isEmpty)
        #expect(fixture.backend.records("shelves").isEmpty)
        let applied = fixture.backend.applied
        let parent = try #require(applied.firstIndex(of: "delete authors/a1"))
        #expect(applied.prefix(parent).contains("delete books/b1"))
        #expect(applied.prefix(parent).contains("delete books/b2"))
    }

    @Test func aShelfDeletedHereLeavesItsBooksOnTheServerOffTheShelf() async throws {
        let fixture = try LibraryFixture()
        fixture.backend.put("authors", "a1", ["name": "Ursula K. Le Guin"])
        fixture.backend.put("shelves", "s1", ["label": "Favourites"])
        fixture.backend.put("books", "b1", ["title": "The Lathe of Heaven", "authorID": "a1", "shelfID": "s1"])
        let authors = try fixture.authors()
        let shelves = try fixture.shelves()
        let books = try fixture.books()
        let library = try SyncGroup(authors, shelves, books)
        try await library.sync()
        try await fixture.store.context.persist { tx in try shelves.delete("s1", in: tx) }
        #expect(try fixture.outbox() == ["books/b1 update pending", "shelves/s1 delete pending"])
        try await library.sync()
        #expect(fixture.backend.applied == ["update books/b1", "delete shelves/s1"])
        #expect(fixture.backend.records("books")["b1"]?["shelfID"] == nil)
        #expect(try fixture.local(Book.self)["b1"]?.shelfID == nil)
    }

    @Test func aThreadOfRepliesGoesOutRootFirstAndItsRootLeavesAfterItsRepliesLetGo() async throws {
        let fixture = try LibraryFixture()
        let comments = try fixture.comments()
        let thread = try SyncGroup(comments)
        try await fixture.store.context.persist { tx in
            try comments.save(Comment(id: "c1", text: "First!"), in: tx)
            try comments.save(Comment(id: "c2", text: "Second.", replyTo: "c1"), in: tx)
            try comments.save(Comment(id: "c3", text: "Third.", replyTo: "c2"), in: tx)
        }
        try await thread.sync()
        #expect(fixture.backend.applied == ["create comments/c1", "create comments/c2", "create comments/c3"])

        // The root goes: its reply is no longer a reply (nullify), on the server first.
        try await fixture.store.context.persist { tx in try comments.delete("c1", in: tx) }
        #expect(try fixture.local(Comment.self)["c2"]?.replyTo == nil)
        #expect(try fixture.outbox() == ["comments/c1 delete pending", "comments/c2 update pending"])
        try await thread.sync()
        #expect(fixture.backend.applied.suffix(2) == ["update comments/c2", "delete comments/c1"])
        #expect(fixture.backend.records("comments").keys.sorted() == ["c2", "c3"])
        #expect(fixture.backend.records("comments")["c2"]?["replyTo"] == nil)
    }

    @Test func aPageReferringToAParentCreatedAfterTheParentsPullBringsTheParentInTheSameRun() async throws {
        let fixture = try LibraryFixture()
        fixture.backend.put("authors", "a1", ["name": "Iain M. Banks"])
        fixture.backend.put("books", "b1", ["title": "Excession", "authorID": "a1"])
        let library = try SyncGroup(try fixture.authors(), try fixture.books())
        // Between the authors' pull and the books', another client adds an author and a book of theirs.
        fixture.backend.afterNextList(of: "authors") { [backend = fixture.backend] in
            backend.put("authors", "a2", ["name": "Ann Leckie"])
            backend.put("books", "b2", ["title": "Ancillary Justice", "authorID": "a2"])
        }
        let report = try await library.sync()
        #expect(try fixture.local(Author.self).keys.sorted() == ["a1", "a2"])
        #expect(try fixture.local(Book.self).keys.sorted() == ["b1", "b2"])
        #expect(report.recordsApplied == 4)
    }

    @Test func aPageReferringToAParentTheServerNeverSendsFailsWholeNamingBoth() async throws {
        let fixture = try LibraryFixture()
        fixture.backend.put("authors", "a1", ["name": "Iain M. Banks"])
        fixture.backend.put("books", "b1", ["title": "Excession", "authorID": "a1"])
        fixture.backend.put("books", "b9", ["title": "Orphan", "authorID": "ghost"])
        let library = try SyncGroup(try fixture.authors(), try fixture.books())
        let error = try await #require(throws: SyncError.self) { try await library.sync() }
        #expect(error.code == .missingParent)
        #expect(error.collection == "books")
        #expect(error.record == "b9")
        #expect(error.property == "authorID")
        #expect(error.message.contains("authors/ghost"))
        // Nothing of the page: b1 came in the same page as b9.
        #expect(try fixture.local(Book.self).isEmpty)
        #expect(try fixture.local(Author.self).keys.sorted() == ["a1"])
    }

    @Test func aParentDeletedOnTheServerWaitsForItsChildrensPull() async throws {
        let fixture = try LibraryFixture()
        fixture.backend.put("authors", "a1", ["name": "Robin Hobb"])
        fixture.backend.put("books", "b1", ["title": "Assassin's Apprentice", "authorID": "a1"])
        let library = try SyncGroup(try fixture.authors(), try fixture.books())
        try await library.sync()
        // Another client moves the book to another author, then deletes the first.
        fixture.backend.put("authors", "a2", ["name": "Megan Lindholm"])
        fixture.backend.put("books", "b1", ["title": "Assassin's Apprentice", "authorID": "a2"])
        fixture.backend.remove("authors", "a1")
        // The run stops between the authors' pull and the books'.
        fixture.backend.refuseLists("books", with: 503)
        await #expect(throws: SyncError.self) { try await library.sync() }
        // The authors' page is applied, but not a1's delete: the book that still refers to it here
        // is not taken by the cascade.
        #expect(try fixture.local(Author.self).keys.sorted() == ["a1", "a2"])
        #expect(try fixture.local(Book.self)["b1"]?.authorID == "a1")

        fixture.backend.refuseLists("books", with: nil)
        let report = try await library.sync()
        #expect(try fixture.local(Author.self).keys.sorted() == ["a2"])
        #expect(try fixture.local(Book.self)["b1"]?.authorID == "a2")
        #expect(report.recordsDeleted == 1)
    }

    @Test func aMirrorShownTooLittleRecoversWhenTheListingNamesWhatItLacks() async throws {
        let fixture = try LibraryFixture()
        fixture.backend.put("authors", "a1", ["name": "Ann Leckie"])
        fixture.backend.put("authors", "a2", ["name": "Ada Palmer"])
        let authors = try SyncedCollection(
            fixture.remote("authors", Author.self, version: \.updated, reconciling: true), store: fixture.store,
            client: fixture.client)
        try await authors.sync()
        #expect(try fixture.local(Author.self).keys.sorted() == ["a1", "a2"])
        // The server lies: every list empty, as PocketBase answers an expired token. The id
        // listing then names nothing, and the rows go.
        fixture.backend.answerAsGuest(true)
        try await authors.sync()
        #expect(try fixture.local(Author.self).isEmpty)
        // Answered truly again, the listing names what the device lacks: it reads everything again.
        fixture.backend.answerAsGuest(false)
        let report = try await authors.sync()
        #expect(report.resynced)
        #expect(try fixture.local(Author.self).keys.sorted() == ["a1", "a2"])
        // And a device that holds everything does not resync.
        #expect(try await authors.sync().resynced == false)
    }

    @Test func aRecordCreatedBetweenThePullAndTheListingIsPulledWithoutAResync() async throws {
        let fixture = try LibraryFixture()
        fixture.backend.put("authors", "a1", ["name": "Ann Leckie"])
        let authors = try SyncedCollection(
            fixture.remote("authors", Author.self, version: \.updated, reconciling: true), store: fixture.store,
            client: fixture.client)
        fixture.backend.afterNextList(of: "authors") { [backend = fixture.backend] in
            backend.put("authors", "a2", ["name": "Ada Palmer"])
        }
        let report = try await authors.sync()
        #expect(!report.resynced)
        #expect(try fixture.local(Author.self).keys.sorted() == ["a1", "a2"])
    }

    @Test func recordsThePullNeverKeepsCostOneResyncNotOneEachRun() async throws {
        let fixture = try LibraryFixture()
        fixture.backend.put("authors", "a1", ["name": "Ann Leckie"])
        fixture.backend.put("authors", "a9", ["name": "Hidden"])
        fixture.backend.leaveOutOfLists("a9")
        let authors = try SyncedCollection(
            fixture.remote("authors", Author.self, version: \.updated, reconciling: true), store: fixture.store,
            client: fixture.client)
        #expect(try await authors.sync().resynced)
        let listsBefore = fixture.backend.server.receivedRequests.filter { $0.path == "/authors" }.count
        #expect(try await authors.sync().resynced == false)
        #expect(try await authors.sync().resynced == false)
        // Each later run: its incremental pull and the one after the listing, never a full listing.
        let fromStart = fixture.backend.server.receivedRequests.filter { $0.path == "/authors" }.dropFirst(listsBefore)
            .filter { request in !request.queryItems.contains { $0.name == "after" } }
        #expect(fromStart.isEmpty)
        #expect(try fixture.local(Author.self).keys.sorted() == ["a1"])
    }

    @Test func aParentDeletedOutrightOnTheServerWaitsForItsChildrensPullToo() async throws {
        let fixture = try LibraryFixture()
        fixture.backend.put("shelves", "s1", ["label": "To read"])
        fixture.backend.put("reviews", "r1", ["text": "Too long", "shelfID": "s1"])
        let shelves = try SyncedCollection(
            fixture.remote("shelves", Shelf.self, version: \.updated, reconciling: true), store: fixture.store,
            client: fixture.client)
        let reviews = try SyncedCollection(
            fixture.remote("reviews", Review.self, version: \.updated, reconciling: true), store: fixture.store,
            client: fixture.client)
        let group = try SyncGroup(shelves, reviews)
        try await group.sync()
        // Both deleted outright elsewhere (no tombstones): the shelves' id listing finds s1 gone
        // while r1, which the store does not let it go under, is still here until the reviews' pull.
        fixture.backend.purge("reviews", "r1")
        fixture.backend.purge("shelves", "s1")
        let report = try await group.sync()
        #expect(report.recordsDeleted == 2)
        #expect(try fixture.local(Shelf.self).isEmpty)
        #expect(try fixture.local(Review.self).isEmpty)
    }

    @Test func aCollectionsOwnSyncRunsItsGroupAndItsStatusStaysItsOwn() async throws {
        let fixture = try LibraryFixture()
        let authors = try fixture.authors()
        let books = try fixture.books()
        let library = try SyncGroup(authors, books)
        try await fixture.store.context.persist { tx in
            try authors.save(Author(id: "a1", name: "Ted Chiang"), in: tx)
            try books.save(Book(id: "b1", title: "Exhalation", authorID: "a1"), in: tx)
        }
        #expect(await books.status.pendingCount == 1)
        #expect(await library.status.pendingCount == 2)
        #expect(await library.status.collection == "authors+books")
        try await books.sync()
        #expect(fixture.backend.applied == ["create authors/a1", "create books/b1"])
        let status = await library.status
        #expect(status.pendingCount == 0)
        #expect(status.lastPull != nil)
        #expect(await authors.status.lastPull != nil)
    }

    @Test func collectionsThatCannotBeGroupedAreRefusedWithTheReason() async throws {
        let fixture = try LibraryFixture()
        let authors = try fixture.authors()
        let books = try fixture.books()
        var first: SyncGroup? = try SyncGroup(authors, books)
        let again = #expect(throws: SyncError.self) { try SyncGroup(try fixture.authors(), books) }
        #expect(again?.message.contains("already in a SyncGroup") == true)
        #expect(first != nil)
        // Released, a group leaves its collections free for another.
        first = nil
        _ = try SyncGroup(try fixture.authors(), books)
        let alone = try fixture.shelves()
        await alone.start()
        let started = #expect(throws: SyncError.self) { try SyncGroup(alone) }
        #expect(started?.message.contains("started on its own") == true)
        await alone.stop()
        _ = try SyncGroup(alone)
        let twice = #expect(throws: SyncError.self) { try SyncGroup(try fixture.authors(), try fixture.authors()) }
        #expect(twice?.message.contains("given twice") == true)
    }

    @Test func aCycleOfRelationsIsRefusedNamingIt() throws {
        let folder = try TemporaryDirectory(prefix: "SyncGroupCycle")
        let store = try ObjectStore(at: folder.file("cycle.sqlite"), entities: [Hen.self, Egg.self] + SyncSchema.entities)
        defer { store.close() }
        let fixture = try LibraryFixture()
        let hens = try SyncedCollection(fixture.remote("hens", Hen.self, version: \.updated), store: store, client: fixture.client)
        let eggs = try SyncedCollection(fixture.remote("eggs", Egg.self, version: \.updated), store: store, client: fixture.client)
        let error = #expect(throws: SyncError.self) { try SyncGroup(hens, eggs) }
        #expect(error?.code == .misuse)
        #expect(error?.message.contains("cycle") == true)
        #expect(error?.message.contains("eggs.henID → hens") == true)
        #expect(error?.message.contains("hens.eggID → eggs") == true)
    }
}

struct Hen: StoredEntity, Hashable {
    var id: String
    var eggID: String?
    var updated: String = ""
    static let egg = ToOne<Hen, Egg>(Field("eggID"), onDelete: .nullify)
    static let relations: [any Relation<Hen>] = [egg]
}

struct Egg: StoredEntity, Hashable {
    var id: String
    var henID: String?
    var updated: String = ""
    static let hen = ToOne<Egg, Hen>(Field("henID"), onDelete: .nullify)
    static let relations: [any Relation<Egg>] = [hen]
}
