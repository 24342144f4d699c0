import FetchKit
import Foundation
import Persistence
import Sync
import SyncHarness
import Testing

/// A sync that finds nothing new writes nothing, and still sees what was committed meanwhile.
@Suite("Quiet syncs: nothing new, nothing written")
struct QuietSyncTests {
    /// `PRAGMA data_version` as a context of its own sees it: it changes when another connection
    /// (the mirror's) commits.
    static func fileVersion(_ context: ObjectContext) throws -> Int64? {
        try context.readAndWait { tx in try tx.rows("PRAGMA data_version").first?[0].integerValue }
    }

    @Test(
        "A sync that finds nothing new commits nothing, re-read overlap included, and its status says when it ran",
        arguments: [KeysetOverlap.none, .time(.seconds(5))])
    func aQuietSyncCommitsNothing(overlap: KeysetOverlap) async throws {
        let fixture = try SyncFixture()
        for index in 0..<3 { fixture.backend.put("n\(index)", title: "note \(index)") }
        let mirror = try fixture.mirror(overlap: overlap)
        try await mirror.sync()
        let watcher = fixture.store.makeContext()
        let before = try Self.fileVersion(watcher)
        let pulled = try #require(await mirror.status.lastPull)

        let quiet = try await mirror.sync()
        #expect(quiet.recordsApplied == 0 && quiet.writesSent == 0)
        #expect(try Self.fileVersion(watcher) == before)
        #expect(try #require(await mirror.status.lastPull) > pulled)

        // A change on the server is applied (and committed) as before.
        fixture.backend.put("n1", title: "changed")
        #expect(try await mirror.sync().recordsApplied == 1)
        #expect(try Self.fileVersion(watcher) != before)
        #expect(try fixture.localContents() == fixture.serverContents())
    }

    @Test("A write another process queued between two quiet syncs is sent by the second")
    func anotherProcesssWriteIsSeen() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("n0", title: "note 0")
        let mirror = try fixture.mirror()
        try await mirror.sync()
        try await mirror.sync()

        // Another process: a store of its own on the same file, whose commits this store's
        // contexts never count.
        let other = try ObjectStore(at: fixture.storeURL, entities: [Note.self] + SyncSchema.entities)
        defer { other.close() }
        let elsewhere = try SyncedCollection(
            NotesAPI.collection(at: fixture.backend.baseURL), store: other, client: NotesAPI.client())
        try other.context.persistAndWait { tx in
            try elsewhere.save(Note(id: "shared", title: "from the share sheet"), in: tx)
        }

        let report = try await mirror.sync()
        #expect(report.writesSent == 1)
        #expect(fixture.backend.notes["shared"]?.title == "from the share sheet")
        #expect(try fixture.outbox().isEmpty)
    }

    @Test("A status stream that outlives its collection goes on reading the store's counts")
    func aStatusStreamOutlivesItsCollection() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("n0", title: "note 0")
        var mirror: SyncedCollection<Note>? = try fixture.mirror()
        try await mirror?.sync()
        try await mirror?.sync()
        var updates = try #require(mirror?.statusUpdates).makeAsyncIterator()
        #expect(await updates.next()?.lastPull != nil)
        weak let released = mirror
        mirror = nil
        #expect(released == nil)
        // Another mirror of the store queues a write: the first one's status reads the counts again.
        let other = try fixture.mirror()
        try fixture.save(Note(id: "later", title: "after the first mirror went"), through: other)
        var counted = false
        while let status = await updates.next() {
            if status.pendingCount == 1 {
                counted = true
                break
            }
        }
        #expect(counted)
    }
}
