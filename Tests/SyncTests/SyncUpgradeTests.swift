import FetchKit
import Foundation
import Persistence
import Sync
import TestSupport
import Testing

/// An app upgraded with writes still unsent: the outbox written by the older version is upgraded
/// by the documented path (a migration with `PendingWrite.upgrade`) and sent after it, never
/// dropped or reset; forgotten, the writes wait with a typed error.
@Suite struct SyncUpgradeTests {
    /// The book as the previous version of the app stored it.
    struct BookV1: StoredEntity, Hashable {
        var id: String
        var title: String
        var authorID: String
        var updated: String = ""
        static let entityName = "Book"
        static let author = ToOne<BookV1, Author>(Field("authorID"), onDelete: .cascade)
        static let relations: [any Relation<BookV1>] = [author]
    }

    /// The book as this version stores it: `title` became `name`.
    struct BookV2: StoredEntity, Hashable {
        var id: String
        var name: String
        var authorID: String
        var updated: String = ""
        static let entityName = "Book"
        static let author = ToOne<BookV2, Author>(Field("authorID"), onDelete: .cascade)
        static let relations: [any Relation<BookV2>] = [author]
    }

    /// The migration of this version: the column renamed, and the outbox with it.
    static let renameTitle = Migration("books: title becomes name") { tx in
        try tx.renameProperty("title", to: "name", in: BookV2.self)
        try PendingWrite.upgrade(collection: "books", from: 1, in: tx) { record in
            record["name"] = record.removeValue(forKey: "title")
        }
    }

    /// The previous version, offline: an author and two books written, never sent.
    static func writeWithThePreviousVersion(_ fixture: LibraryFixture, at url: URL) async throws {
        let store = try ObjectStore(at: url, entities: [Author.self, BookV1.self] + SyncSchema.entities)
        defer { store.close() }
        let authors = try SyncedCollection(fixture.remote("authors", Author.self, version: \.updated), store: store, client: fixture.client)
        let books = try SyncedCollection(fixture.remote("books", BookV1.self, version: \.updated), store: store, client: fixture.client)
        _ = try SyncGroup(authors, books)
        try await store.context.persist { tx in
            try authors.save(Author(id: "a1", name: "Jo Walton"), in: tx)
            try books.save(BookV1(id: "b1", title: "Among Others", authorID: "a1"), in: tx)
            try books.save(BookV1(id: "b2", title: "Tooth and Claw", authorID: "a1"), in: tx)
        }
    }

    /// This version's books collection (schema version 2).
    static func booksV2(_ fixture: LibraryFixture, _ store: ObjectStore) throws -> SyncedCollection<BookV2> {
        var remote = fixture.remote("books", BookV2.self, version: \.updated)
        remote.schemaVersion = 2
        return try SyncedCollection(remote, store: store, client: fixture.client)
    }

    @Test func writesLeftByThePreviousVersionAreUpgradedBeforeTheyAreSent() async throws {
        let fixture = try LibraryFixture()
        let url = fixture.folder.file("upgraded.sqlite")
        try await Self.writeWithThePreviousVersion(fixture, at: url)

        let store = try ObjectStore(at: url, entities: [Author.self, BookV2.self] + SyncSchema.entities) {
            $0.migrations = [Self.renameTitle]
        }
        defer { store.close() }
        let authors = try SyncedCollection(fixture.remote("authors", Author.self, version: \.updated), store: store, client: fixture.client)
        let library = try SyncGroup(authors, try Self.booksV2(fixture, store))
        #expect(await library.status.pendingCount == 3)
        try await library.sync()
        #expect(fixture.backend.records("books")["b1"]?["name"] == "Among Others")
        #expect(fixture.backend.records("books")["b2"]?["name"] == "Tooth and Claw")
        #expect(fixture.backend.records("books")["b1"]?["title"] == nil)
        #expect(await library.status.pendingCount == 0)
    }

    @Test func writesLeftUnupgradedWaitKeptWithAnErrorThatSaysHow() async throws {
        let fixture = try LibraryFixture()
        let url = fixture.folder.file("forgotten.sqlite")
        try await Self.writeWithThePreviousVersion(fixture, at: url)

        // This version renamed the column but forgot the outbox.
        let renameOnly = Migration("books: title becomes name") { tx in
            try tx.renameProperty("title", to: "name", in: BookV2.self)
        }
        do {
            let store = try ObjectStore(at: url, entities: [Author.self, BookV2.self] + SyncSchema.entities) {
                $0.migrations = [renameOnly]
            }
            defer { store.close() }
            let authors = try SyncedCollection(fixture.remote("authors", Author.self, version: \.updated), store: store, client: fixture.client)
            let library = try SyncGroup(authors, try Self.booksV2(fixture, store))
            let error = try await #require(throws: SyncError.self) { try await library.sync() }
            #expect(error.code == .undecodableWrite)
            #expect(error.collection == "books")
            #expect(error.record == "b1")
            #expect(error.message.contains("PendingWrite.upgrade(collection: \"books\", from: 1"))
            // The author went; the books wait, unsent and kept.
            #expect(fixture.backend.applied == ["create authors/a1"])
            let waiting = try await store.context.read { tx in try tx.fetch(Query<PendingWrite>()) }
            #expect(waiting.map(\.recordID).sorted() == ["b1", "b2"])
            #expect(waiting.allSatisfy { $0.state == .pending })
        }

        // The next release adds the outbox's upgrade: the books go.
        let upgradeOutbox = Migration("books: the outbox's title becomes name") { tx in
            try PendingWrite.upgrade(collection: "books", from: 1, in: tx) { record in
                record["name"] = record.removeValue(forKey: "title")
            }
        }
        let store = try ObjectStore(at: url, entities: [Author.self, BookV2.self] + SyncSchema.entities) {
            $0.migrations = [renameOnly, upgradeOutbox]
        }
        defer { store.close() }
        let authors = try SyncedCollection(fixture.remote("authors", Author.self, version: \.updated), store: store, client: fixture.client)
        let library = try SyncGroup(authors, try Self.booksV2(fixture, store))
        try await library.sync()
        #expect(fixture.backend.records("books")["b2"]?["name"] == "Tooth and Claw")
        #expect(await library.status.pendingCount == 0)
    }
}
