import FetchKit
import Foundation
import Locking
import Persistence
import Sync
import SyncHarness
import TestSupport
import Testing

/// A note pinned on this device only: a local entity that refers to a synced row.
struct LocalPin: StoredEntity {
    var id: String
    var noteID: String
    static let note = ToOne<LocalPin, Note>(Field("noteID"), onDelete: .cascade)
    /// Other notes the pin mentions: links that go with a note.
    static let mentions = ManyToMany<LocalPin, Note>("mentions")
    static let relations: [any Relation<LocalPin>] = [note, mentions]
}

/// Two users of one device against a backend where each user sees and writes only their notes.
final class AccountsFixture: Sendable {
    let backend: NotesBackend
    let folder: TemporaryDirectory
    let accounts: SyncAccounts

    /// - Parameter hardDeletes: whether the server's deletes leave no tombstone.
    init(hardDeletes: Bool = false) throws {
        backend = NotesBackend(hardDeletes: hardDeletes)
        try backend.start()
        backend.requireSignIn(tokens: ["token-alice": "alice", "token-bob": "bob"])
        folder = try TemporaryDirectory(prefix: "AccountsTests")
        accounts = try Self.accounts(in: folder.url)
    }

    deinit {
        accounts.current?.store.close()
        backend.server.stop()
        folder.remove()
    }

    /// The accounts of a launch of the app, in `folder`.
    static func accounts(in folder: URL) throws -> SyncAccounts {
        try SyncAccounts(folder: folder, client: NotesAPI.client()) { url in
            try ObjectStore(at: url, entities: [Note.self, LocalPin.self] + SyncSchema.entities)
        }
    }

    /// Signs `user` in with their token (one that the server never needs renewed).
    func signIn(_ user: String, in accounts: SyncAccounts? = nil) throws -> SyncAccount {
        try (accounts ?? self.accounts).signIn(
            user,
            authenticator: TokenAuthenticator(token: "token-\(user)") {
                throw CancellationError()
            })
    }

    /// The account's notes collection.
    func notes(of account: SyncAccount) throws -> SyncedCollection<Note> {
        try SyncedCollection(NotesAPI.collection(at: backend.baseURL), store: account.store, client: account.client)
    }

    func save(_ notes: [Note], through collection: SyncedCollection<Note>, in account: SyncAccount) throws {
        try account.store.context.persistAndWait { tx in
            for note in notes { try collection.save(note, in: tx) }
        }
    }

    /// The account's notes, by id, with their titles.
    func titles(in account: SyncAccount) throws -> [String: String] {
        let notes = try account.store.context.readAndWait { tx in try tx.fetch(Query<Note>()) }
        return Dictionary(uniqueKeysWithValues: notes.map { ($0.id, $0.title) })
    }

    /// The server's titles of a user's notes.
    func serverTitles(of user: String) -> [String: String] {
        backend.notes.filter { backend.owner(of: $0.key) == user }.mapValues(\.title)
    }
}

@Suite struct AccountsTests {
    @Test func aSignedOutUsersQueuedWritesWaitForThemAndNeverGoWithTheNextUsersToken() async throws {
        let fixture = try AccountsFixture()
        // Alice syncs a note, then writes offline: an edit and a new note, queued.
        var alice = try fixture.signIn("alice")
        var notes = try fixture.notes(of: alice)
        try fixture.save([Note(id: "a1", title: "Alice's list")], through: notes, in: alice)
        try await notes.sync()
        try fixture.save(
            [Note(id: "a1", title: "Alice's list, edited"), Note(id: "a2", title: "Alice's draft")], through: notes,
            in: alice)
        let out = try await fixture.accounts.signOut(.keepEverything)
        #expect(
            [out.account, "\(out.choice)", "\(out.unsentWrites ?? -1)", "\(out.removedRows)"] == [
                "alice", "keepEverything", "2", "0",
            ])
        #expect(alice.isSignedIn == false)
        #expect(fixture.accounts.signedIn == nil)

        // Bob signs in: his store, his notes, his token; none of Alice's writes goes out.
        let callsBeforeBob = fixture.backend.calls.count
        let bob = try fixture.signIn("bob")
        let bobsNotes = try fixture.notes(of: bob)
        try fixture.save([Note(id: "b1", title: "Bob's note")], through: bobsNotes, in: bob)
        try await bobsNotes.sync()
        #expect(try fixture.titles(in: bob) == ["b1": "Bob's note"])
        let bobsCalls = fixture.backend.calls.dropFirst(callsBeforeBob)
        #expect(!bobsCalls.isEmpty)
        #expect(bobsCalls.allSatisfy { $0.user == "bob" && !$0.refused })
        #expect(bobsCalls.allSatisfy { $0.note == nil || $0.note == "b1" })
        #expect(fixture.serverTitles(of: "alice") == ["a1": "Alice's list"])
        try await fixture.accounts.signOut(.keepEverything)

        // Alice returns: her writes go out with her token, once each.
        let callsBeforeAlice = fixture.backend.calls.count
        alice = try fixture.signIn("alice")
        notes = try fixture.notes(of: alice)
        #expect(try fixture.titles(in: alice) == ["a1": "Alice's list, edited", "a2": "Alice's draft"])
        try await notes.sync()
        #expect(fixture.serverTitles(of: "alice") == ["a1": "Alice's list, edited", "a2": "Alice's draft"])
        #expect(fixture.serverTitles(of: "bob") == ["b1": "Bob's note"])
        #expect(fixture.backend.calls.dropFirst(callsBeforeAlice).allSatisfy { $0.user == "alice" && !$0.refused })
        #expect(fixture.backend.applications["create:Alice's draft"] == 1)
        #expect(try fixture.titles(in: alice) == ["a1": "Alice's list, edited", "a2": "Alice's draft"])
    }

    @Test func aCollectionOnAnAccountsStoreSendsWithTheAccountsClientOnly() async throws {
        let fixture = try AccountsFixture()
        let alice = try fixture.signIn("alice")
        let refused = #expect(throws: SyncError.self) {
            try SyncedCollection(
                NotesAPI.collection(at: fixture.backend.baseURL), store: alice.store, client: NotesAPI.client())
        }
        #expect(refused?.code == .misuse)
        #expect(refused?.message.contains("SyncAccount.client") == true)
    }

    @Test func anotherUserSignsInOnlyAfterTheFirstSignsOutEvenAcrossLaunches() async throws {
        let fixture = try AccountsFixture()
        let alice = try fixture.signIn("alice")
        let notes = try fixture.notes(of: alice)
        try fixture.save([Note(id: "a1", title: "Alice's draft")], through: notes, in: alice)
        #expect(throws: SyncError.self) { try fixture.signIn("bob") }
        #expect(throws: SyncError.self) { try fixture.signIn("alice") }
        #expect(fixture.accounts.current === alice)
        alice.store.close()

        // The next launch finds Alice signed in; Bob waits until the app chooses what Alice keeps.
        let nextLaunch = try AccountsFixture.accounts(in: fixture.folder.url)
        #expect(nextLaunch.signedIn == "alice")
        #expect(nextLaunch.current == nil)
        let refused = #expect(throws: SyncError.self) { try fixture.signIn("bob", in: nextLaunch) }
        #expect(refused?.message.contains("alice") == true)
        #expect(await #expect(throws: SyncError.self) { try await nextLaunch.signOut(.keepUnsentWrites) } != nil)
        let out = try await nextLaunch.signOut(.keepEverything)
        #expect(out.account == "alice")
        #expect(nextLaunch.signedIn == nil)
        let bob = try fixture.signIn("bob", in: nextLaunch)
        #expect(try fixture.titles(in: bob).isEmpty)
        try await nextLaunch.signOut(.keepEverything)
        #expect(nextLaunch.savedAccounts == ["alice", "bob"])
        // Alice's queued write waited for her.
        let back = try fixture.signIn("alice", in: nextLaunch)
        #expect(try fixture.titles(in: back) == ["a1": "Alice's draft"])
        try await fixture.notes(of: back).sync()
        #expect(fixture.serverTitles(of: "alice") == ["a1": "Alice's draft"])
        try await nextLaunch.signOut(.keepEverything)
    }

    @Test func signingOutKeepingUnsentWritesRemovesTheRestAndTheNextPullReadsEverythingAgain() async throws {
        // Deletes leave no tombstone: only the resync after the return finds a kept row gone.
        let fixture = try AccountsFixture(hardDeletes: true)
        var alice = try fixture.signIn("alice")
        var notes = try fixture.notes(of: alice)
        try fixture.save(
            (1...4).map { Note(id: "n\($0)", title: "Synced \($0)") }, through: notes, in: alice)
        try await notes.sync()
        // An edit and a new note wait; a local pin refers to a synced note nobody edits.
        try fixture.save(
            [Note(id: "n1", title: "Edited 1"), Note(id: "n5", title: "New 5")], through: notes, in: alice)
        try alice.store.context.persistAndWait { tx in
            try tx.insert(LocalPin(id: "p1", noteID: "n2"))
            try tx.setLinks(LocalPin.mentions, of: "p1", to: ["n3"])
        }

        let out = try await fixture.accounts.signOut(.keepUnsentWrites)
        #expect(
            [out.account, "\(out.choice)", "\(out.unsentWrites ?? -1)", "\(out.removedRows)"] == [
                "alice", "keepUnsentWrites", "2", "1",
            ])

        alice = try fixture.signIn("alice")
        // What the writes need, and what the app's own pin refers to and mentions, stayed; the rest went.
        #expect(
            try fixture.titles(in: alice) == ["n1": "Edited 1", "n2": "Synced 2", "n3": "Synced 3", "n5": "New 5"])
        let pins = try alice.store.context.readAndWait { tx in try tx.fetch(Query<LocalPin>()) }
        #expect(pins.map(\.id) == ["p1"])
        notes = try fixture.notes(of: alice)
        #expect(await notes.status.pendingCount == 2)
        // Meanwhile the server deletes a note the pin's mention kept here.
        fixture.backend.remove("n3")
        try await notes.sync()
        #expect(try fixture.titles(in: alice) == ["n1": "Edited 1", "n2": "Synced 2", "n4": "Synced 4", "n5": "New 5"])
        #expect(fixture.serverTitles(of: "alice") == (try fixture.titles(in: alice)))
        #expect(fixture.backend.applications["create:New 5"] == 1)
        try await fixture.accounts.signOut(.keepEverything)
    }

    @Test func clearingRemovesTheAccountFromTheDeviceAndCountsTheWritesItDiscarded() async throws {
        let fixture = try AccountsFixture()
        var alice = try fixture.signIn("alice")
        let notes = try fixture.notes(of: alice)
        try fixture.save([Note(id: "a1", title: "Never sent")], through: notes, in: alice)
        let out = try await fixture.accounts.signOut(.clear)
        #expect(
            [out.account, "\(out.choice)", "\(out.unsentWrites ?? -1)", "\(out.removedRows)"] == [
                "alice", "clear", "1", "0",
            ])
        #expect(fixture.accounts.savedAccounts.isEmpty)
        let left = try FileManager.default.subpathsOfDirectory(atPath: fixture.folder.url.path)
        #expect(left.allSatisfy { !$0.contains("alice") && !$0.hasSuffix(".sqlite") })
        alice = try fixture.signIn("alice")
        #expect(try fixture.titles(in: alice).isEmpty)
        try await fixture.accounts.signOut(.clear)
        #expect(fixture.backend.calls.isEmpty)
    }

    @Test func aSignOutStopsTheAccountMidSendAndTheWriteGoesOutOnceWhenItReturns() async throws {
        let fixture = try AccountsFixture()
        var alice = try fixture.signIn("alice")
        var notes = try fixture.notes(of: alice)
        // The server holds the write until the sign-out is over.
        let arrived = Locked(false)
        let release = DispatchSemaphore(value: 0)
        fixture.backend.failWrites(
            .hold {
                arrived.withLock { $0 = true }
                release.wait()
            })
        // A failed expectation below still lets the server's thread go.
        defer { release.signal() }
        await notes.start()
        try fixture.save([Note(id: "a1", title: "Held")], through: notes, in: alice)
        try await waitUntil("the write reached the server") { arrived.withLock { $0 } }
        let out = try await fixture.accounts.signOut(.keepEverything)
        #expect(out.unsentWrites == 1)
        // The account's client sends nothing more.
        let callsAfter = fixture.backend.calls.count
        let refusal = await #expect(throws: FetchError.self) {
            _ = try await alice.client.fetch(URLEndpoint(fixture.backend.baseURL.appending(path: "notes")))
        }
        #expect(refusal?.code == .authenticationFailed)
        #expect(fixture.backend.calls.count == callsAfter)
        release.signal()
        try await waitUntil("the held write was applied") { fixture.backend.applications["create:Held"] == 1 }

        alice = try fixture.signIn("alice")
        notes = try fixture.notes(of: alice)
        try await notes.sync()
        #expect(fixture.serverTitles(of: "alice") == ["a1": "Held"])
        #expect(fixture.backend.applications["create:Held"] == 1)
        #expect(await notes.status.pendingCount == 0)
        try await fixture.accounts.signOut(.keepEverything)
    }

    @Test func aSignOutThatCannotTellTheRowsApartChangesNothing() async throws {
        let fixture = try AccountsFixture()
        let alice = try fixture.signIn("alice")
        do {
            let notes = try fixture.notes(of: alice)
            try fixture.save([Note(id: "a1", title: "Kept")], through: notes, in: alice)
        }
        // No live collection describes "notes" now: its rows cannot be told apart.
        let refused = await #expect(throws: SyncError.self) { try await fixture.accounts.signOut(.keepUnsentWrites) }
        #expect(refused?.code == .misuse)
        #expect(refused?.message.contains("Nothing was changed") == true)
        #expect(alice.isSignedIn)
        #expect(fixture.accounts.current === alice)
        let notes = try fixture.notes(of: alice)
        try await notes.sync()
        #expect(fixture.serverTitles(of: "alice") == ["a1": "Kept"])
        let out = try await fixture.accounts.signOut(.keepUnsentWrites)
        #expect(out.removedRows == 1)
    }

    @Test func rowsTheCollectionKeepsStayAtASignOutKeepingUnsentWrites() async throws {
        let fixture = try AccountsFixture()
        var alice = try fixture.signIn("alice")
        var remote = NotesAPI.collection(at: fixture.backend.baseURL)
        remote.retaining = Note.title == "Marked"
        var notes = try SyncedCollection(remote, store: alice.store, client: alice.client)
        try fixture.save(
            [Note(id: "n1", title: "Marked"), Note(id: "n2", title: "Plain"), Note(id: "n3", title: "Plain too")],
            through: notes, in: alice)
        try await notes.sync()
        var out = try await fixture.accounts.signOut(.keepUnsentWrites)
        #expect(out.removedRows == 2)
        alice = try fixture.signIn("alice")
        #expect(try fixture.titles(in: alice) == ["n1": "Marked"])

        // A row holding a value of a field only this device has keeps it (a field it cannot be
        // without: every row).
        remote = NotesAPI.collection(at: fixture.backend.baseURL)
        remote.keeping = [.keep(Note.title)]
        notes = try SyncedCollection(remote, store: alice.store, client: alice.client)
        try await notes.sync()
        #expect(try fixture.titles(in: alice).count == 3)
        out = try await fixture.accounts.signOut(.keepUnsentWrites)
        #expect(out.removedRows == 0)
        alice = try fixture.signIn("alice")
        #expect(try fixture.titles(in: alice).count == 3)
        try await fixture.accounts.signOut(.keepEverything)
    }

    @Test func aSavedAccountIsRemovedWithoutSigningInAndAnAccountsClientSyncsItsStoreOnly() async throws {
        let fixture = try AccountsFixture()
        let alice = try fixture.signIn("alice")
        // Alice's client sends Alice's writes only: not another store's.
        let other = try ObjectStore.inMemory(entities: [Note.self] + SyncSchema.entities)
        defer { other.close() }
        let refused = #expect(throws: SyncError.self) {
            try SyncedCollection(NotesAPI.collection(at: fixture.backend.baseURL), store: other, client: alice.client)
        }
        #expect(refused?.code == .misuse)
        let notes = try fixture.notes(of: alice)
        try fixture.save([Note(id: "a1", title: "Draft")], through: notes, in: alice)
        try await fixture.accounts.signOut(.keepEverything)

        _ = try fixture.signIn("bob")
        #expect(throws: SyncError.self) { try fixture.accounts.removeSavedAccount("bob") }
        #expect(throws: SyncError.self) { try fixture.accounts.removeSavedAccount("") }
        #expect(throws: SyncError.self) { try fixture.accounts.removeSavedAccount("carol") }
        #expect(try fixture.accounts.removeSavedAccount("alice") == 1)
        #expect(fixture.accounts.savedAccounts == ["bob"])
        try await fixture.accounts.signOut(.clear)
        #expect(fixture.accounts.savedAccounts.isEmpty)
    }

    @Test func clearingAnEarlierLaunchsAccountWhoseStoreCannotOpenRemovesItAnyway() async throws {
        let fixture = try AccountsFixture()
        let alice = try fixture.signIn("alice")
        let file = try #require(alice.store.url)
        alice.store.close()
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        try Data("not a database any more".utf8).write(to: file)

        let nextLaunch = try AccountsFixture.accounts(in: fixture.folder.url)
        #expect(throws: SyncError.self) { try fixture.signIn("alice", in: nextLaunch) }
        let out = try await nextLaunch.signOut(.clear)
        #expect(out.account == "alice" && out.unsentWrites == nil)
        #expect(nextLaunch.signedIn == nil)
        #expect(nextLaunch.savedAccounts.isEmpty)
    }

    @Test func aSignOutStopsTheAccountsFollowingGroupAndClosesItsConnection() async throws {
        let fixture = try AccountsFixture()
        let events = EventChannel(fixture.backend.server, path: "/events")
        let alice = try fixture.signIn("alice")
        let notes = try fixture.notes(of: alice)
        let group = try SyncGroup(notes)
        await group.start(
            following: .serverSentEvents(NotesEvents(baseURL: fixture.backend.baseURL), reconnection: .quick))
        try await waitUntil("the group follows") { events.opened == 1 }
        try fixture.save([Note(id: "a1", title: "Followed")], through: notes, in: alice)
        try await waitUntil("the started group sent the write") {
            fixture.serverTitles(of: "alice") == ["a1": "Followed"]
        }

        try await fixture.accounts.signOut(.keepEverything)
        try await waitUntil("the connection closed") { events.closed == events.opened }
        #expect(await group.status.isFollowing == false)
        // Nothing reconnects for the signed-out account (a reconnection is 10 ms away).
        let opened = events.opened
        try await Task.sleep(for: .milliseconds(300))
        #expect(events.opened == opened)
        #expect(fixture.backend.calls.filter(\.refused).isEmpty)
    }

    @Test func everyIdentityHasAFolderOfItsOwn() async throws {
        let fixture = try AccountsFixture()
        let identities = ["Alice", "alice", "../alice", "a/b", "a%41", "ünïcode 🙂", String(repeating: "x", count: 80)]
        for id in identities {
            let account = try fixture.accounts.signIn(id, authenticator: TokenAuthenticator(token: "t") { "t" })
            try account.store.context.persistAndWait { tx in try tx.insert(Note(id: id, title: id)) }
            try await fixture.accounts.signOut(.keepEverything)
        }
        #expect(fixture.accounts.savedAccounts == identities.sorted())
        for id in identities {
            let account = try fixture.accounts.signIn(id, authenticator: TokenAuthenticator(token: "t") { "t" })
            #expect(try fixture.titles(in: account) == [id: id])
            try await fixture.accounts.signOut(.clear)
        }
        #expect(fixture.accounts.savedAccounts.isEmpty)
        #expect(throws: SyncError.self) {
            try fixture.accounts.signIn(String(repeating: "x", count: 81), authenticator: TokenAuthenticator { "t" })
        }
        #expect(throws: SyncError.self) { try fixture.accounts.signIn("", authenticator: TokenAuthenticator { "t" }) }
    }
}
