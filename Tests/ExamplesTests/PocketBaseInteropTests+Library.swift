import FetchKit
import Foundation
import Locking
import Persistence
import Sync
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The Sync article's "Syncing related collections", as printed, against a real PocketBase: the
// `authors` and `novels` collections (a required relation without cascade, so PocketBase refuses
// a novel before its author and an author before its novels' deletes), for a signed-in user.

enum LibrarySample {
    nonisolated struct Author: StoredEntity {
        var id: String
        var name: String
        var updated: String?
    }

    nonisolated struct Novel: StoredEntity {
        var id: String
        var title: String
        var author: String  // the author's id: a PocketBase relation field
        var updated: String?
        static let writtenBy = ToOne<Novel, Author>(Field("author"), onDelete: .cascade)
        static let relations: [any Relation<Novel>] = [writtenBy]
    }

    static func openLibrary(at file: URL, server: URL, client: FetchClient) throws
        -> (ObjectStore, SyncedCollection<Author>, SyncedCollection<Novel>, SyncGroup)
    {
        let store = try ObjectStore(at: file, entities: [Author.self, Novel.self] + SyncSchema.entities)
        let authors = try SyncedCollection(.pocketBase("authors", at: server, version: \Author.updated), store: store, client: client)
        let novels = try SyncedCollection(.pocketBase("novels", at: server, version: \Novel.updated), store: store, client: client)
        let library = try SyncGroup(authors, novels)  // finds Novel.writtenBy: authors go first
        return (store, authors, novels, library)
    }

    static func addAuthor(_ author: Author, with novels: [Novel], store: ObjectStore,
                   authors: SyncedCollection<Author>, mirror: SyncedCollection<Novel>, library: SyncGroup) async throws {
        try await store.context.persist { tx in
            try authors.save(author, in: tx)
            for novel in novels { try mirror.save(novel, in: tx) }
        }
        try await library.sync()  // the author's create reaches the server before its novels'
    }
}

extension PocketBaseInteropTests {
    /// A signed-in user of the server: its id, its password now, and a refresh that signs in again.
    final class Reader: Sendable {
        let server: URL
        let email: String
        let id: String
        let password = Locked("interop-reader-1")
        let refreshes = Locked(0)

        init(_ email: String, on server: PocketBaseServer) async throws {
            self.server = server.url
            self.email = email
            let created = try await server.send(
                "POST", "api/collections/users/records",
                ["email": email, "password": "interop-reader-1", "passwordConfirm": "interop-reader-1"])
            id = created["id"] as? String ?? ""
        }

        /// Signs in with the password now: the new token.
        func signIn() async throws -> String {
            refreshes.withLock { $0 += 1 }
            var request = URLRequest(url: server.appendingPathComponent("api/collections/users/auth-with-password"))
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: ["identity": email, "password": password.current])
            let (data, _) = try await URLSession.shared.data(for: request)
            guard let token = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["token"] as? String else {
                throw PocketBaseFailure(description: "no token for \(email)")
            }
            return token
        }

        /// A client that signs its requests as the reader, signing in again when a token is refused.
        func client(adapters: [any RequestAdapter] = []) -> FetchClient {
            FetchClient {
                $0.authenticator = TokenAuthenticator { try await self.signIn() }
                $0.adapters = adapters
            }
        }
    }

    /// The records of `collection` as the reader sees them, by id: `field`'s value.
    static func serverField(_ field: String, of collection: String, on server: PocketBaseServer, as reader: Reader)
        async throws -> [String: String]
    {
        let records = try await server.records(of: collection, token: try await reader.signIn())
        return Dictionary(
            uniqueKeysWithValues: records.compactMap { record in
                (record["id"] as? String).map { ($0, record[field] as? String ?? "") }
            })
    }

    /// The article's sample, as printed, writes an author with two novels in one block: PocketBase
    /// gets the author first. An author PocketBase refuses keeps its novel queued and local, and
    /// both go once it is fixed. An author deleted here takes its novels (cascade): their deletes
    /// reach PocketBase first, which refuses an author that novels refer to. A second device
    /// follows every step.
    @Test func relatedCollectionsReachPocketBaseParentsFirstAndLeaveItChildrenFirst() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let reader = try await Reader("librarian@example.com", on: server)
        let folder = try TemporaryDirectory(prefix: "Library")
        defer { folder.remove() }
        let (store, authors, novels, library) = try LibrarySample.openLibrary(
            at: folder.file("a.sqlite"), server: server.url, client: reader.client())
        defer { store.close() }
        let (otherStore, _, otherNovels, other) = try LibrarySample.openLibrary(
            at: folder.file("b.sqlite"), server: server.url, client: reader.client())
        defer { otherStore.close() }

        try await LibrarySample.addAuthor(
            .init(id: "leguin000000001", name: "Ursula K. Le Guin"),
            with: [
                .init(id: "dispossessed001", title: "The Dispossessed", author: "leguin000000001"),
                .init(id: "lathe0000000001", title: "The Lathe of Heaven", author: "leguin000000001"),
            ], store: store, authors: authors, mirror: novels, library: library)
        #expect(try await Self.serverField("author", of: "novels", on: server, as: reader) == [
            "dispossessed001": "leguin000000001", "lathe0000000001": "leguin000000001",
        ])
        try await other.sync()
        #expect(try await otherStore.context.read { tx in try tx.count(Query<LibrarySample.Novel>()) } == 2)

        // A name PocketBase refuses (over 40 characters): the author is refused, its novel waits.
        let tooLong = String(repeating: "Octavia Estelle Butler ", count: 3)
        try await LibrarySample.addAuthor(
            .init(id: "butler000000001", name: tooLong),
            with: [.init(id: "kindred00000001", title: "Kindred", author: "butler000000001")],
            store: store, authors: authors, mirror: novels, library: library)
        #expect(await library.status.rejectedCount == 1)
        #expect(await novels.status.pendingCount == 1)
        #expect(try await Self.serverField("title", of: "novels", on: server, as: reader)["kindred00000001"] == nil)
        #expect(try await store.context.read { tx in try tx.fetch(LibrarySample.Novel.self, id: "kindred00000001") } != nil)
        try await store.context.persist { tx in
            try authors.save(.init(id: "butler000000001", name: "Octavia E. Butler"), in: tx)
        }
        try await library.sync()
        #expect(try await Self.serverField("title", of: "novels", on: server, as: reader)["kindred00000001"] == "Kindred")
        #expect(await library.status.pendingCount == 0)
        #expect(await library.status.rejectedCount == 0)

        // The author goes here: its novels go with it, first.
        try await store.context.persist { tx in try authors.delete("leguin000000001", in: tx) }
        try await library.sync()
        #expect(try await Self.serverField("name", of: "authors", on: server, as: reader) == ["butler000000001": "Octavia E. Butler"])
        #expect(try await Self.serverField("title", of: "novels", on: server, as: reader) == ["kindred00000001": "Kindred"])
        #expect(await library.status.pendingCount == 0)
        #expect(await library.status.rejectedCount == 0)
        try await other.sync()
        let left = try await otherStore.context.read { tx in try tx.fetch(Query<LibrarySample.Novel>()).map(\.id) }
        #expect(left == ["kindred00000001"])
        #expect(await otherNovels.status.pendingCount == 0)
    }

    /// A short-lived token (PocketBase's users get 10-second tokens here, its shortest) runs out in the middle of
    /// a pull: PocketBase would answer the expired token as a guest's, with empty pages and no
    /// `401`, so the client's authenticator refreshes it before it is sent (its `exp` is near),
    /// once, and the pull goes on from the page it was at. (The wait for the expiry is made right
    /// before the second page is asked for, so the test does not depend on the machine's speed.)
    @Test func aShortLivedTokenThatRunsOutMidPullIsRenewedOnceAndThePullGoesOn() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        try await server.giveUsersTokens(lasting: 10)
        let reader = try await Reader("reader@example.com", on: server)
        let writerToken = try await reader.signIn()
        _ = try await server.send(
            "POST", "api/collections/authors/records", ["id": "pratchett000001", "name": "Terry Pratchett"],
            token: writerToken)
        for number in 1...120 {
            _ = try await server.send(
                "POST", "api/collections/novels/records",
                ["id": String(format: "discworld%06d", number), "title": "Discworld \(number)", "author": "pratchett000001"],
                token: writerToken)
        }
        let expiry = ExpireBeforeSecondPage()
        let client = reader.client(adapters: [expiry])
        expiry.authenticator.withLock { $0 = client.configuration.authenticator }
        let folder = try TemporaryDirectory(prefix: "LibraryToken")
        defer { folder.remove() }
        let store = try ObjectStore(
            at: folder.file("a.sqlite"), entities: [LibrarySample.Author.self, LibrarySample.Novel.self] + SyncSchema.entities)
        defer { store.close() }
        let authors = try SyncedCollection(
            .pocketBase("authors", at: server.url, version: \LibrarySample.Author.updated), store: store, client: client)
        let novels = try SyncedCollection(
            .pocketBase("novels", at: server.url, version: \LibrarySample.Novel.updated, pageSize: 50), store: store,
            client: client)
        let library = try SyncGroup(authors, novels)
        let refreshesBefore = reader.refreshes.current
        let report = try await library.sync()
        #expect(expiry.waited.current)
        // One sign-in for the first request (no token yet), one as the token ran out.
        #expect(reader.refreshes.current - refreshesBefore == 2)
        #expect(report.recordsApplied == 121)
        #expect(try await store.context.read { tx in try tx.count(Query<LibrarySample.Novel>()) } == 120)
        // The first page was asked once: the pull went on from the page it was at.
        // (The id listing that finds deletes made elsewhere is a listing of its own, `fields=id`.)
        let firstPages = expiry.novelLists.current.filter { !$0.contains("filter=") && !$0.contains("fields=id") }
        #expect(firstPages.count == 1)
    }

    /// Waits, right before the novels' second page is asked for, until the token is within the
    /// authenticator's refresh margin of its expiry.
    final class ExpireBeforeSecondPage: RequestAdapter {
        let waited = Locked(false)
        let novelLists = Locked<[String]>([])
        let authenticator = Locked<TokenAuthenticator?>(nil)

        func adapt(_ request: URLRequest) throws(FetchError) -> URLRequest {
            guard let url = request.url?.absoluteString, request.httpMethod == "GET",
                url.contains("/api/collections/novels/records?")
            else { return request }
            novelLists.withLock { $0.append(url) }
            if url.contains("filter="), !waited.current, let token = authenticator.current?.token,
                let expiry = Self.expiry(of: token)
            {
                waited.withLock { $0 = true }
                // Five seconds before the expiry, and a little more.
                let wait = expiry.timeIntervalSinceNow - 5 + 0.5
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            }
            return request
        }

        /// The `exp` claim of a JWT.
        static func expiry(of token: String) -> Date? {
            let parts = token.split(separator: ".")
            guard parts.count == 3 else { return nil }
            var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
            guard let data = Data(base64Encoded: payload),
                let exp = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["exp"] as? NSNumber
            else { return nil }
            return Date(timeIntervalSince1970: exp.doubleValue)
        }
    }
}

extension PocketBaseServer {
    /// Makes the users' sign-in tokens last `seconds`, as an administrator would in the dashboard.
    func giveUsersTokens(lasting seconds: Int) async throws {
        _ = try await send(
            "PATCH", "api/collections/users", ["authToken": ["duration": seconds]], token: superuserToken())
    }
}
