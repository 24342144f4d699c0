import FetchKit
import Foundation
import Persistence
import Sync
import SyncHarness
import Testing

/// A run after a quiet run starts where that run's last page left the checkpoint, without a
/// read of its own; a write queued meanwhile must still be sent, in the order it would have been.
@Suite("A run that starts where the last quiet run ended")
struct RememberedStartTests {
    @Test("A write this process queues after a quiet run is sent before the next run's pull")
    func ownWriteIsSentFirst() async throws {
        let backend = NotesBackend()
        try backend.start()
        defer { backend.server.stop() }
        backend.put("n1", title: "on the server")
        let device = try RESTPresetTests.Device("remembered-own", backend: backend)
        try await device.mirror.sync()
        try await device.mirror.sync()  // quiet: the next run may start where it ended

        let before = backend.server.receivedRequests.count
        try device.save(RESTNote(id: "n2", title: "made here"))
        let report = try await device.mirror.sync()
        let sent = backend.server.receivedRequests.dropFirst(before).map { "\($0.method) \($0.path)" }
        // Had the run started from what the quiet run left, it would have listed first.
        #expect(sent.first == "POST /notes")
        #expect(report.writesSent == 1)
        #expect(backend.notes["n2"]?.title == "made here")
    }

    @Test("A write another store on the same file queues after a quiet run is sent by the next sync")
    func otherStoresWriteIsSent() async throws {
        let backend = NotesBackend()
        try backend.start()
        defer { backend.server.stop() }
        backend.put("n1", title: "on the server")
        let device = try RESTPresetTests.Device("remembered-other", backend: backend)
        try await device.mirror.sync()
        try await device.mirror.sync()

        // Another store on the same file, as another process would open it: its commits are not
        // this store's to see.
        let other = try ObjectStore(
            at: device.folder.file("notes.sqlite"), entities: [RESTNote.self] + SyncSchema.entities)
        defer { other.close() }
        let notes = RemoteCollection<RESTNote>.rest(
            "notes", at: backend.baseURL.appendingPathComponent("notes"), version: \.updated, pageSize: 2)
        let otherMirror = try SyncedCollection(notes, store: other, client: NotesAPI.client())
        try other.context.persistAndWait { tx in try otherMirror.save(RESTNote(id: "n3", title: "from the other"), in: tx) }
        backend.put("n4", title: "changed on the server meanwhile")

        let report = try await device.mirror.sync()
        #expect(report.writesSent == 1)
        #expect(report.recordsApplied >= 1)
        #expect(backend.notes["n3"]?.title == "from the other")
        #expect(try device.notes()["n3"]?.updated != nil)  // the server's answer is stored
        #expect(try device.notes()["n4"]?.title == "changed on the server meanwhile")
        let pending = try device.store.context.readAndWait { tx in try tx.count(Query<PendingWrite>()) }
        #expect(pending == 0)
        #expect(try await device.mirror.sync().writesSent == 0)
    }
}
