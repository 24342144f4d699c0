import FetchKit
import Locking
import Foundation
import Persistence
import Sync
import SyncHarness
import Testing

@Suite("Conflicts: field by field from a base, a policy per collection for the fields both sides changed")
struct ConflictTests {
    /// Mirrors note "a" (title "base", body "base body"), then changes its title on the server
    /// and its title and body locally, and syncs with `policy`: the title competes, the body
    /// does not.
    private func conflicted(
        _ policy: ConflictPolicy<Note>, check: ConflictCheck<Note> = .readBeforeWrite
    ) async throws -> SyncFixture {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "base", body: "base body")
        let mirror = try fixture.mirror(conflicts: policy, conflictCheck: check)
        try await mirror.sync()
        fixture.backend.put("a", title: "server title", body: "base body")
        try fixture.save(Note(id: "a", title: "local title", body: "local body"), through: mirror)
        _ = try? await mirror.sync()
        return fixture
    }

    @Test("Server wins: the server's title stands, the local body is still sent", arguments: ConflictTests.sendChecks)
    func serverWins(_ check: ConflictCheck<Note>) async throws {
        let fixture = try await conflicted(.serverWins, check: check)
        #expect(fixture.serverContents()["a"] == "server title|local body")
        #expect(try fixture.localContents() == fixture.serverContents())
        #expect(try fixture.outbox().isEmpty)
    }

    @Test("Client wins: the local title is sent over the server's, with the body", arguments: ConflictTests.sendChecks)
    func clientWins(_ check: ConflictCheck<Note>) async throws {
        let fixture = try await conflicted(.clientWins, check: check)
        #expect(fixture.serverContents()["a"] == "local title|local body")
        #expect(try fixture.localContents() == fixture.serverContents())
    }

    /// No conflict check (a pull finds the change), a read before the write, and the server's own
    /// check (`If-Match`, answered `412`).
    static let checks: [ConflictCheck<Note>] = [.none] + sendChecks
    /// The checks that find a conflict when the update is sent (without one, the update is last
    /// write wins for the fields it sends, unless a pull saw the change first).
    static let sendChecks: [ConflictCheck<Note>] = [.readBeforeWrite, .ifMatch { $0.updated }]

    @Test(
        "Changes to different fields are no conflict under any policy: both survive, nothing is parked",
        arguments: [ConflictPolicy<Note>.serverWins, .clientWins, .manual])
    func differentFields(_ policy: ConflictPolicy<Note>) async throws {
        for check in Self.checks {
            let fixture = try SyncFixture()
            fixture.backend.put("a", title: "base", body: "base body")
            let mirror = try fixture.mirror(conflicts: policy, conflictCheck: check)
            try await mirror.sync()
            fixture.backend.put("a", title: "base", body: "server body")
            try fixture.save(Note(id: "a", title: "local title", body: "base body"), through: mirror)
            let report = try await mirror.sync()
            #expect(fixture.serverContents()["a"] == "local title|server body")
            #expect(try fixture.localContents() == fixture.serverContents())
            #expect(try fixture.outbox().isEmpty)
            #expect(report.conflicts == 0)
            // The update carried the title alone: the server's body was never sent back.
            #expect(fixture.backend.applications["update:local title"] == 1)
        }
    }

    @Test("A field changed on the server and saved here unchanged is no conflict")
    func unchangedField() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "base", body: "base body")
        let mirror = try fixture.mirror(conflicts: .manual)
        try await mirror.sync()
        // Another client saves the record without changing a field: only its version moves.
        fixture.backend.put("a", title: "base", body: "base body")
        try fixture.save(Note(id: "a", title: "local title", body: "base body"), through: mirror)
        try await mirror.sync()
        #expect(fixture.serverContents()["a"] == "local title|base body")
        #expect(try fixture.outbox().isEmpty)
    }

    @Test("Manual: the write is parked with base, local and remote; resolving sends the choice")
    func manual() async throws {
        let fixture = try await conflicted(.manual)
        let write = try #require(try fixture.outbox().first)
        #expect(write.state == .conflicted)
        #expect(try write.base(as: Note.self)?.title == "base")
        #expect(try write.local(as: Note.self)?.title == "local title")
        #expect(try write.remote(as: Note.self)?.title == "server title")
        #expect(fixture.serverContents()["a"] == "server title|base body")
        let mirror = try fixture.mirror(conflicts: .manual)
        try await mirror.resolve(write, with: .use(Note(id: "a", title: "mine", body: "theirs")))
        try await mirror.sync()
        #expect(fixture.serverContents()["a"] == "mine|theirs")
        #expect(try fixture.localContents() == fixture.serverContents())
        #expect(try fixture.outbox().isEmpty)
    }

    @Test("Manual, resolved by hand with keepRemote: the server's title, the local body still sent")
    func manualKeepRemote() async throws {
        let fixture = try await conflicted(.manual)
        let write = try #require(try fixture.outbox().first)
        let mirror = try fixture.mirror(conflicts: .manual)
        try await mirror.resolve(write, with: .keepRemote)
        try await mirror.sync()
        #expect(fixture.serverContents()["a"] == "server title|local body")
        #expect(try fixture.localContents() == fixture.serverContents())
        #expect(try fixture.outbox().isEmpty)
    }

    @Test("keepRemote by hand keeps the fields only this device keeps, as the automatic path does")
    func keepRemoteByHandKeepsLocalOnlyFields() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "base", body: "base body")
        var collection = NotesAPI.collection(at: fixture.backend.baseURL)
        // The body is this device's own here: the server's never replaces it.
        collection.keeping = [.keep(Field<Note, String>("body"))]
        let mirror = try SyncedCollection(collection, store: fixture.store, client: NotesAPI.client(), conflicts: .manual)
        try await mirror.sync()
        fixture.backend.put("a", title: "server title", body: "base body")
        try fixture.save(Note(id: "a", title: "local title", body: "my own body"), through: mirror)
        try await mirror.sync()
        let write = try #require(try fixture.outbox().first)
        #expect(write.state == .conflicted)
        try await mirror.resolve(write, with: .keepRemote)
        #expect(try fixture.localContents()["a"] == "server title|my own body")
        #expect(try fixture.outbox().isEmpty)
    }

    @Test("A closure decides: it sees base, local, remote and the competing fields")
    func closure() async throws {
        let seen = Locked<Set<String>?>(nil)
        let fixture = try await conflicted(
            ConflictPolicy { conflict in
                seen.withLock { $0 = conflict.fields }
                return .use(
                    Note(
                        id: "a", title: (conflict.local?.title ?? "") + "+" + (conflict.remote?.title ?? ""),
                        body: (conflict.local?.body ?? "") + "+" + (conflict.base?.body ?? "")))
            })
        #expect(seen.withLock { $0 } == ["title"])
        #expect(fixture.serverContents()["a"] == "local title+server title|local body+base body")
    }

    @Test("The server deleted what the client changed: server wins deletes, client wins creates again")
    func deletedOnServer() async throws {
        for (policy, expected) in [(ConflictPolicy<Note>.serverWins, nil), (.clientWins, "local|")] as [(ConflictPolicy<Note>, String?)] {
            let fixture = try SyncFixture()
            fixture.backend.put("a", title: "base")
            let mirror = try fixture.mirror(conflicts: policy)
            try await mirror.sync()
            fixture.backend.remove("a")
            try fixture.save(Note(id: "a", title: "local"), through: mirror)
            try await mirror.sync()
            #expect(fixture.serverContents()["a"] == expected)
            #expect(try fixture.localContents() == fixture.serverContents())
        }
    }

    @Test("A pull never overwrites a row with unsent changes: it merges them (no conflict check on send)")
    func rebaseOnPull() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "base", body: "base body")
        let mirror = try fixture.mirror(conflictCheck: .none)
        try await mirror.sync()
        fixture.backend.put("a", title: "base", body: "server body")
        fixture.backend.failWrites(.status(429, retryAfter: nil))
        try fixture.save(Note(id: "a", title: "local title", body: "base body"), through: mirror)
        // The send is refused for now (429: not applied); the pull brings the server's change: the
        // row shows both, and the write carries the title over the server's version.
        _ = try? await mirror.sync()
        #expect(try fixture.localContents()["a"] == "local title|server body")
        try await mirror.sync()
        #expect(fixture.serverContents()["a"] == "local title|server body")
        #expect(try fixture.localContents() == fixture.serverContents())
    }
}
