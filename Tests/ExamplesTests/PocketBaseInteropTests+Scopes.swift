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

// A scoped pull of the `authors` and `novels` collections against a real PocketBase: the
// PocketBase preset's narrowing (a scope's `filter` joined to the listing's), its lookup of the
// parents a scoped page needs, a lost answer, and the server killed with SIGKILL mid-pull.

extension PocketBaseInteropTests {
    /// Novels scoped to one author's, authors scoped to another's record: the parent a scoped
    /// novel needs is looked up in the page's transaction. An edit whose answer is lost is on the
    /// server once. The server is killed (SIGKILL) right before the second page of a new scope
    /// and started again: the next sync converges, and the novels that left the scope are
    /// pruned with the parent only they needed.
    @Test func aScopedPullBringsTheParentsItNeedsAndConvergesThroughALostAnswerAndAKilledServer() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let reader = try await Reader("scoped@example.com", on: server)
        let token = try await reader.signIn()
        for (id, name) in [("leguin000000001", "Ursula K. Le Guin"), ("butler000000001", "Octavia E. Butler")] {
            _ = try await server.send("POST", "api/collections/authors/records", ["id": id, "name": name], token: token)
        }
        for (id, title) in [("kindred00000001", "Kindred"), ("dawn00000000001", "Dawn")] {
            _ = try await server.send(
                "POST", "api/collections/novels/records", ["id": id, "title": title, "author": "butler000000001"],
                token: token)
        }
        for number in 1...5 {
            _ = try await server.send(
                "POST", "api/collections/novels/records",
                ["id": String(format: "hainish%08d", number), "title": "Hainish \(number)", "author": "leguin000000001"],
                token: token)
        }
        let proxy = try DroppingProxy(to: server.port)
        defer { proxy.stop() }
        let killer = KillBeforeSecondPage(server)
        let folder = try TemporaryDirectory(prefix: "LibraryScopes")
        defer { folder.remove() }
        let store = try ObjectStore(
            at: folder.file("a.sqlite"), entities: [LibrarySample.Author.self, LibrarySample.Novel.self] + SyncSchema.entities)
        defer { store.close() }
        let client = reader.client(adapters: [killer])
        let authors = try SyncedCollection(
            .pocketBase("authors", at: proxy.url, version: \LibrarySample.Author.updated), store: store, client: client)
        let novels = try SyncedCollection(
            .pocketBase("novels", at: proxy.url, version: \LibrarySample.Novel.updated, pageSize: 2), store: store,
            client: client)
        let library = try SyncGroup(authors, novels)
        try await authors.scope(to: [SyncScope("named", parameters: ["filter": "name = 'Ursula K. Le Guin'"])])
        try await novels.scope(to: [SyncScope("by", parameters: ["filter": "author = 'butler000000001'"])])
        try await library.sync()
        #expect(try await Self.local(store) == (["butler000000001", "leguin000000001"], ["dawn00000000001", "kindred00000001"]))

        // An edit whose answer is lost: sent again, on the server once.
        try await store.context.persist { tx in
            try novels.save(.init(id: "kindred00000001", title: "Kindred (1979)", author: "butler000000001"), in: tx)
        }
        proxy.dropNextAnswer(to: "PATCH")
        _ = try? await library.sync()
        #expect(proxy.dropped == 1)
        try await library.sync()
        #expect(try await Self.serverField("title", of: "novels", on: server, as: reader)["kindred00000001"] == "Kindred (1979)")
        #expect(await library.status.pendingCount == 0)

        // Another scope: the server is killed before its second page, and started again.
        try await novels.scope(to: [SyncScope("by", parameters: ["filter": "author = 'leguin000000001'"])])
        killer.armed.withLock { $0 = true }
        await #expect(throws: SyncError.self) { try await library.sync() }
        #expect(killer.killed.current)
        try await server.start()
        try await library.sync()
        let hainish = (1...5).map { String(format: "hainish%08d", $0) }
        #expect(try await Self.local(store) == (["leguin000000001"], hainish))
        #expect(await library.status.pendingCount == 0)
        // Nothing doubled or lost on the server.
        #expect(try await Self.serverField("title", of: "novels", on: server, as: reader).count == 7)
    }

    /// The authors' and novels' ids this store holds, sorted.
    static func local(_ store: ObjectStore) async throws -> ([String], [String]) {
        try await store.context.read { tx in
            (
                try tx.fetch(Query<LibrarySample.Author>()).map(\.id).sorted(),
                try tx.fetch(Query<LibrarySample.Novel>()).map(\.id).sorted()
            )
        }
    }

    /// Kills the server (SIGKILL) right before the novels' second page of a scope is asked for,
    /// once armed.
    final class KillBeforeSecondPage: RequestAdapter {
        let server: PocketBaseServer
        let armed = Locked(false)
        let killed = Locked(false)

        init(_ server: PocketBaseServer) { self.server = server }

        func adapt(_ request: URLRequest) throws(FetchError) -> URLRequest {
            guard armed.current, let url = request.url, request.httpMethod == "GET",
                url.path.hasSuffix("/api/collections/novels/records"),
                let filter = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
                    .first(where: { $0.name == "filter" })?.value,
                filter.contains("updated >"), filter.contains("leguin")
            else { return request }
            armed.withLock { $0 = false }
            server.kill()
            killed.withLock { $0 = true }
            return request
        }
    }
}
