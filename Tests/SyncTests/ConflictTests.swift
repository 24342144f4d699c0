import FetchKit
import Foundation
import Persistence
import Sync
import SyncHarness
import Testing

@Suite("Conflicts: a base version, a policy per collection, rebase on pull")
struct ConflictTests {
    /// Mirrors note "a" (title "base", body "base body"), then changes it on the server
    /// (body) and locally (title), and syncs with `policy`.
    private func conflicted(
        _ policy: ConflictPolicy<Note>, check: ConflictCheck<Note> = .readBeforeWrite, pullFirst: Bool = false
    ) async throws -> SyncFixture {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "base", body: "base body")
        let mirror = try fixture.mirror(conflicts: policy, conflictCheck: check)
        try await mirror.sync()
        fixture.backend.put("a", title: "base", body: "server body")
        try fixture.save(Note(id: "a", title: "local title", body: "base body"), through: mirror)
        _ = try? await mirror.sync()
        return fixture
    }

    @Test("Server wins: the local change is dropped, the row takes the server's version")
    func serverWins() async throws {
        let fixture = try await conflicted(.serverWins)
        #expect(fixture.serverContents()["a"] == "base|server body")
        #expect(try fixture.localContents() == fixture.serverContents())
        #expect(try fixture.outbox().isEmpty)
    }

    @Test("Client wins: the local version is sent over the server's")
    func clientWins() async throws {
        let fixture = try await conflicted(.clientWins)
        #expect(fixture.serverContents()["a"] == "local title|base body")
        #expect(try fixture.localContents() == fixture.serverContents())
    }

    @Test("Three-way merge: each side's changed field survives")
    func merge() async throws {
        let fixture = try await conflicted(.merge())
        #expect(fixture.serverContents()["a"] == "local title|server body")
        #expect(try fixture.localContents() == fixture.serverContents())
    }

    @Test("Manual: the write is parked with base, local and remote; resolving sends the choice")
    func manual() async throws {
        let fixture = try await conflicted(.manual)
        let write = try #require(try fixture.outbox().first)
        #expect(write.state == .conflicted)
        #expect(try write.base(as: Note.self)?.body == "base body")
        #expect(try write.local(as: Note.self)?.title == "local title")
        #expect(try write.remote(as: Note.self)?.body == "server body")
        #expect(fixture.serverContents()["a"] == "base|server body")
        let mirror = try fixture.mirror(conflicts: .manual)
        try await mirror.resolve(write, with: .use(Note(id: "a", title: "mine", body: "theirs")))
        try await mirror.sync()
        #expect(fixture.serverContents()["a"] == "mine|theirs")
        #expect(try fixture.localContents() == fixture.serverContents())
        #expect(try fixture.outbox().isEmpty)
    }

    @Test("A closure decides: it sees base, local and remote")
    func closure() async throws {
        let fixture = try await conflicted(
            ConflictPolicy { conflict in
                .use(
                    Note(
                        id: "a", title: (conflict.local?.title ?? "") + "+",
                        body: (conflict.remote?.body ?? "") + "+" + (conflict.base?.body ?? "")))
            })
        #expect(fixture.serverContents()["a"] == "local title+|server body+base body")
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

    @Test("A pull never overwrites a row with unsent changes: it rebases them (no conflict check on send)")
    func rebaseOnPull() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "base", body: "base body")
        let mirror = try fixture.mirror(conflicts: .merge(), conflictCheck: .none)
        try await mirror.sync()
        fixture.backend.put("a", title: "base", body: "server body")
        fixture.backend.failWrites(.status(429, retryAfter: nil))
        try fixture.save(Note(id: "a", title: "local title", body: "base body"), through: mirror)
        // The send is refused for now (429: not applied); the pull brings the server's change, and the row keeps the local title.
        _ = try? await mirror.sync()
        #expect(try fixture.local()["a"]?.title == "local title")
        try await mirror.sync()
        #expect(fixture.serverContents()["a"] == "local title|server body")
        #expect(try fixture.localContents() == fixture.serverContents())
    }
}
