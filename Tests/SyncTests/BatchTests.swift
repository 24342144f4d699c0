import FetchKit
import FetchKitTesting
import Foundation
import Persistence
import Sync
import SyncHarness
import Testing

/// A collection with a batch API (`WriteBatch`): a round's writes in one request, each write
/// still applied exactly once whatever the batch meets.
@Suite("Batches: a round's writes in one request, each applied once")
struct BatchTests {
    @Test("A drain goes in batches of the collection's size, each write applied once")
    func drainInBatches() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror(batchSize: 5)
        let notes = (0..<12).map { Note(id: "n\($0)", title: "note \($0)") }
        try fixture.store.context.persistAndWait { tx in for note in notes { try mirror.save(note, in: tx) } }
        let report = try await mirror.sync()
        #expect(report.writesSent == 12)
        #expect(fixture.backend.batchRequests == 3)
        #expect(fixture.backend.server.requests(to: "/notes").filter { $0.method == "POST" }.isEmpty)
        #expect(fixture.backend.applications.values.allSatisfy { $0 == 1 })
        #expect(fixture.backend.applications.count == 12)
        #expect(try fixture.outbox().isEmpty)
        #expect(try fixture.localContents() == fixture.serverContents())
        // The server's answers (its stamps) are stored as for single writes.
        #expect(try fixture.local().values.allSatisfy { !$0.updated.isEmpty })
    }

    @Test("A batch rolled back for one refused write: the writes go one by one, the refused one is parked, the rest applied once")
    func oneRefusedWrite() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror(batchSize: 10)
        try fixture.save(Note(id: "a", title: "a1"), Note(id: "b", title: "b1"), Note(id: "c", title: "c1"), through: mirror)
        try await mirror.sync()
        let stored = try fixture.local()
        try fixture.store.context.persistAndWait { tx in
            for (id, title) in [("a", "refused title"), ("b", "b2"), ("c", "c2")] {
                var note = try #require(stored[id])
                note.title = title
                try mirror.save(note, in: tx)
            }
        }
        let report = try await mirror.sync()
        #expect(report.writesRejected == 1)
        #expect(report.writesSent == 2)
        #expect(fixture.backend.applications["update:b2"] == 1)
        #expect(fixture.backend.applications["update:c2"] == 1)
        #expect(fixture.backend.notes["a"]?.title == "a1")
        let outbox = try fixture.outbox()
        #expect(outbox.map(\.recordID) == ["a"])
        #expect(outbox.first?.state == .rejected)
    }

    @Test("Batches turned off on the server: refused once, the run sends one by one")
    func batchesTurnedOff() async throws {
        let fixture = try SyncFixture()
        fixture.backend.enableBatches(false)
        let mirror = try fixture.mirror(batchSize: 4)
        let notes = (0..<6).map { Note(id: "n\($0)", title: "note \($0)") }
        try fixture.store.context.persistAndWait { tx in for note in notes { try mirror.save(note, in: tx) } }
        let report = try await mirror.sync()
        #expect(report.writesSent == 6)
        // The round's two batches (4 and 2) go out together; both are refused, then each write
        // goes alone.
        #expect(fixture.backend.batchRequests == 2)
        #expect(fixture.backend.server.requests(to: "/notes").filter { $0.method == "POST" }.count == 6)
        #expect(fixture.backend.applications.count == 6)
        #expect(try fixture.localContents() == fixture.serverContents())
    }

    @Test("A batch the server applied but whose answer was lost is sent again; each write applied once", arguments: [true, false])
    func answerLost(serverHonoursKeys: Bool) async throws {
        let fixture = try SyncFixture()
        fixture.backend.honourKeys(serverHonoursKeys)
        let mirror = try fixture.mirror(batchSize: 8)
        let notes = (0..<5).map { Note(id: "n\($0)", title: "note \($0)") }
        try fixture.store.context.persistAndWait { tx in for note in notes { try mirror.save(note, in: tx) } }
        fixture.backend.failWrites(.dropAfterApply(then: nil))
        let error = await #expect(throws: SyncError.self) { try await mirror.sync() }
        #expect(error?.code == .requestFailed)
        #expect(try fixture.outbox().count == 5)
        try await mirror.sync()
        #expect(try fixture.outbox().isEmpty)
        #expect(fixture.backend.applications.count == 5)
        #expect(fixture.backend.applications.values.allSatisfy { $0 == 1 })
        #expect(try fixture.localContents() == fixture.serverContents())
    }

    @Test("A batch answered with something that is not one answer per write: the writes stay queued, then settle once")
    func batchAnsweredWithNonsense() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror(batchSize: 8)
        try fixture.save(Note(id: "a", title: "one"), Note(id: "b", title: "two"), through: mirror)
        fixture.backend.failWrites(.answerAfterApply(.json(#"[{"status":200,"body":null}]"#)))
        let error = await #expect(throws: SyncError.self) { try await mirror.sync() }
        #expect(error?.code == .badWriteResponse)
        #expect(try fixture.outbox().count == 2)
        try await mirror.sync()
        #expect(try fixture.outbox().isEmpty)
        #expect(fixture.backend.applications == ["create:one": 1, "create:two": 1])
    }
}
