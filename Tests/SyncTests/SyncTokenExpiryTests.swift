import FetchKit
import FetchKitTesting
import Foundation
import Locking
import Persistence
import Sync
import Testing

/// A token that expires in the middle of a run: refreshed once through the client's
/// authenticator, the run goes on from where it was; a refused refresh stops it and keeps the writes.
@Suite struct SyncTokenExpiryTests {
    /// The token the server takes now, and what the app's refresh does.
    final class Session: Sendable {
        let current = Locked<String>("t1")
        let refusing = Locked(false)
        let refreshes = Locked(0)

        func refresh() throws -> String {
            refreshes.withLock { $0 += 1 }
            if refusing.current { throw Revoked() }
            return current.current
        }
    }

    struct Revoked: Error {}

    @Test func aTokenThatExpiresDuringAPullIsRefreshedOnceAndThePullGoesOnFromItsPage() async throws {
        let session = Session()
        let fixture = try LibraryFixture(authenticator: TokenAuthenticator(token: "t1") { try session.refresh() })
        fixture.backend.requireToken("t1")
        fixture.backend.put("authors", "a1", ["name": "Ada Palmer"])
        for number in 1...25 {
            fixture.backend.put("books", "b\(number)", ["title": "Terra Ignota \(number)", "authorID": "a1"])
        }
        let library = try SyncGroup(try fixture.authors(), try fixture.books(pageSize: 10))
        // After the first page of books, the token expires.
        fixture.backend.afterNextList(of: "books") { [backend = fixture.backend] in
            session.current.withLock { $0 = "t2" }
            backend.requireToken("t2")
        }
        let report = try await library.sync()
        #expect(session.refreshes.current == 1)
        #expect(report.recordsApplied == 26)
        #expect(try fixture.local(Book.self).count == 25)
        // The page refused was asked again from its cursor: the first page was read once.
        let lists = fixture.backend.server.receivedRequests.filter { $0.method == "GET" && $0.path == "/books" }
        let fromStart = lists.filter { request in !request.queryItems.contains { $0.name == "after" } }
        #expect(fromStart.count == 1)
        #expect(lists.count == 4)
        #expect(lists[1].queryItems == lists[2].queryItems)
        #expect(lists[1].headers["authorization"] == "Bearer t1")
        #expect(lists[2].headers["authorization"] == "Bearer t2")
    }

    @Test func aTokenThatExpiresDuringADrainIsRefreshedOnceAndEveryWriteGoes() async throws {
        let session = Session()
        let fixture = try LibraryFixture(authenticator: TokenAuthenticator(token: "t1") { try session.refresh() })
        fixture.backend.requireToken("t2")
        session.current.withLock { $0 = "t2" }
        let authors = try fixture.authors()
        let books = try fixture.books()
        let library = try SyncGroup(authors, books)
        try await fixture.store.context.persist { tx in
            try authors.save(Author(id: "a1", name: "Martha Wells"), in: tx)
            for number in 1...6 { try books.save(Book(id: "b\(number)", title: "Murderbot \(number)", authorID: "a1"), in: tx) }
        }
        let report = try await library.sync()
        #expect(session.refreshes.current == 1)
        #expect(report.writesSent == 7)
        #expect(fixture.backend.records("books").count == 6)
        #expect(try fixture.outbox().isEmpty)
    }

    @Test func aRefusedRefreshStopsTheRunAndKeepsEveryWrite() async throws {
        let session = Session()
        let fixture = try LibraryFixture(authenticator: TokenAuthenticator(token: "t1") { try session.refresh() })
        let authors = try fixture.authors()
        let books = try fixture.books()
        let library = try SyncGroup(authors, books)
        try await fixture.store.context.persist { tx in
            try authors.save(Author(id: "a1", name: "Becky Chambers"), in: tx)
            try books.save(Book(id: "b1", title: "A Psalm for the Wild-Built", authorID: "a1"), in: tx)
        }
        fixture.backend.requireToken("t2")
        session.refusing.withLock { $0 = true }
        let error = try await #require(throws: SyncError.self) { try await library.sync() }
        #expect(error.code == .unauthorized)
        #expect(session.refreshes.current == 1)
        // Nothing refused for good, nothing dropped: the writes wait for a token.
        #expect(try fixture.outbox() == ["authors/a1 create pending", "books/b1 create pending"])
        #expect(try fixture.local(Book.self).keys.sorted() == ["b1"])
        #expect(await library.status.error?.code == .unauthorized)

        // The user signs in again: everything goes.
        session.refusing.withLock { $0 = false }
        session.current.withLock { $0 = "t2" }
        try await library.sync()
        #expect(fixture.backend.applied == ["create authors/a1", "create books/b1"])
        #expect(try fixture.outbox().isEmpty)
    }
}
