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

// The Sync article's "Several accounts on one device" against a real PocketBase: the `journal`
// collection, where each user lists, reads and writes only their own entries.

nonisolated struct JournalEntry: StoredEntity {
    var id: String
    var title: String
    var owner: String  // the writer's user id: the server's rules refuse any other
    var updated: String?
}

func openJournal(
    of user: String, token: String, renew: @escaping @Sendable () async throws -> String,
    accounts: SyncAccounts, server: URL
) throws -> SyncedCollection<JournalEntry> {
    let account = try accounts.signIn(user, authenticator: TokenAuthenticator(token: token, refresh: renew))
    return try SyncedCollection(
        .pocketBase("journal", at: server, version: \JournalEntry.updated), store: account.store,
        client: account.client)
}

func signOut(_ accounts: SyncAccounts) async throws -> String {
    let out = try await accounts.signOut(.keepEverything)  // kept for the user's return
    return "\(out.account) has \(out.unsentWrites ?? 0) writes to send when they sign in again"
}

/// Every request the accounts' clients finished: method, URL and status.
final class RequestLog: FetchObserver {
    struct Entry: Sendable {
        var method: String
        var url: String
        var status: Int?
    }

    private let entries = Locked<[Entry]>([])
    var all: [Entry] { entries.withLock { $0 } }

    func requestDidFinish(_ request: RequestSummary, metrics: FetchMetrics) {
        entries.withLock { $0.append(Entry(method: "\(request.method)", url: request.url, status: metrics.statusCode)) }
    }
}

extension PocketBaseInteropTests {
    /// Alice writes offline and signs out keeping everything; Bob signs in on the same device and
    /// syncs: his entries only, not one of Alice's writes sent, not one refusal. Alice signs in
    /// again and her writes reach PocketBase, as hers.
    @Test func twoUsersOfOneDeviceEachSyncTheirOwnEntries() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let folder = try TemporaryDirectory(prefix: "Accounts")
        defer { folder.remove() }
        let alice = try await Reader("alice@example.com", on: server)
        let bob = try await Reader("bob@example.com", on: server)
        let log = RequestLog()
        let accounts = try SyncAccounts(folder: folder.url, client: FetchClient { $0.observers = [log] }) { url in
            try ObjectStore(at: url, entities: [JournalEntry.self] + SyncSchema.entities)
        }
        func journal(of account: SyncAccount, at url: URL) throws -> SyncedCollection<JournalEntry> {
            try SyncedCollection(
                .pocketBase("journal", at: url, version: \JournalEntry.updated), store: account.store,
                client: account.client)
        }
        func save(
            _ entries: [JournalEntry], to journal: SyncedCollection<JournalEntry>, in account: SyncAccount
        )
            async throws
        {
            try await account.store.context.persist { tx in for entry in entries { try journal.save(entry, in: tx) } }
        }
        func titles(in account: SyncAccount) async throws -> [String: String] {
            let rows = try await account.store.context.read { tx in try tx.fetch(Query<JournalEntry>()) }
            return Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0.title) })
        }
        let admin = try await server.superuserToken()
        func onServer() async throws -> [String: String] {
            let records = try await server.records(of: "journal", token: admin)
            return Dictionary(
                uniqueKeysWithValues: records.compactMap { record in
                    guard let id = record["id"] as? String, let owner = record["owner"] as? String else { return nil }
                    return (
                        id, "\(owner == alice.id ? "alice" : owner == bob.id ? "bob" : owner): \(record["title"] ?? "")"
                    )
                })
        }

        // Alice syncs one entry, then writes offline (her server unreachable): an edit, two entries.
        var signedIn = try accounts.signIn(alice.id, authenticator: TokenAuthenticator { try await alice.signIn() })
        try await save(
            [JournalEntry(id: "alicemonday0001", title: "Monday", owner: alice.id)],
            to: try journal(of: signedIn, at: server.url), in: signedIn)
        try await journal(of: signedIn, at: server.url).sync()
        let offline = try journal(of: signedIn, at: try #require(URL(string: "http://127.0.0.1:1")))
        try await save(
            [
                JournalEntry(id: "alicemonday0001", title: "Monday, rainy", owner: alice.id),
                JournalEntry(id: "alicetuesday001", title: "Tuesday", owner: alice.id),
                JournalEntry(id: "alicewednesday1", title: "Wednesday", owner: alice.id),
            ], to: offline, in: signedIn)
        await #expect(throws: SyncError.self) { try await offline.sync() }
        let aliceOut = try await accounts.signOut(.keepEverything)
        #expect(aliceOut.unsentWrites == 3)

        // Bob signs in on the same device and syncs: his entries only; none of Alice's writes goes.
        let bobStart = log.all.count
        let bobsJournal = try openJournal(
            of: bob.id, token: try await bob.signIn(), renew: { try await bob.signIn() }, accounts: accounts,
            server: server.url)
        signedIn = try #require(accounts.current)
        try await save(
            [JournalEntry(id: "bobmonday000001", title: "Bob's Monday", owner: bob.id)], to: bobsJournal, in: signedIn)
        try await bobsJournal.sync()
        #expect(try await titles(in: signedIn) == ["bobmonday000001": "Bob's Monday"])
        let bobsRequests = log.all.dropFirst(bobStart)
        #expect(!bobsRequests.isEmpty)
        #expect(
            bobsRequests.allSatisfy { ($0.status ?? 0) < 300 },
            "\(bobsRequests.map { "\($0.method) \($0.url) \($0.status ?? 0)" })")
        #expect(!bobsRequests.contains { $0.url.contains("alice") })
        #expect(try await onServer() == ["alicemonday0001": "alice: Monday", "bobmonday000001": "bob: Bob's Monday"])
        #expect(try await signOut(accounts) == "\(bob.id) has 0 writes to send when they sign in again")

        // Alice returns: her queued writes go out with her token, and she sees only her entries.
        let aliceStart = log.all.count
        try await openJournal(
            of: alice.id, token: try await alice.signIn(), renew: { try await alice.signIn() }, accounts: accounts,
            server: server.url
        ).sync()
        signedIn = try #require(accounts.current)
        #expect(
            try await onServer() == [
                "alicemonday0001": "alice: Monday, rainy", "alicetuesday001": "alice: Tuesday",
                "alicewednesday1": "alice: Wednesday", "bobmonday000001": "bob: Bob's Monday",
            ])
        #expect(
            try await titles(in: signedIn) == [
                "alicemonday0001": "Monday, rainy", "alicetuesday001": "Tuesday", "alicewednesday1": "Wednesday",
            ])
        #expect(log.all.dropFirst(aliceStart).allSatisfy { ($0.status ?? 0) < 300 })
        #expect(try await journal(of: signedIn, at: server.url).status.pendingCount == 0)
        try await accounts.signOut(.keepEverything)
    }
}
