import FetchKit
import FetchKitTesting
import Foundation
import Locking
import Persistence
import Sync
import SyncHarness
import TestSupport
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

    @Test("A token another store on the same file moved on after a quiet run is where the next run goes on")
    func tokenMovedByAnotherStore() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let later = Locked(false)
        server.route("GET", "/notes/changes") { request in
            let since = request.queryItems.first { $0.name == "since" }?.value
            switch (since, later.withLock { $0 }) {
            case (nil, _): return .json(#"{"items":[{"id":"a","title":"A","body":""}],"next":"t1"}"#)
            case ("t1", false): return .json(#"{"items":[],"next":"t1"}"#)
            case ("t1", true): return .json(#"{"items":[{"id":"b","title":"B","body":""}],"next":"t2"}"#)
            case ("t2", true): return .json(#"{"items":[{"id":"c","title":"C","body":""}],"next":"t3"}"#)
            case ("t3", true): return .json(#"{"items":[],"next":"t3"}"#)
            default: return .json(#"{"message":"unexpected \#(request.target)"}"#, status: 400)
            }
        }
        let folder = try TemporaryDirectory(prefix: "RememberedStart-token")
        defer { folder.remove() }
        let notes = RemoteCollection<RESTNote>(
            "notes", changes: .tokens(at: server.baseURL.appendingPathComponent("notes/changes"), pageSize: 10),
            writes: .rest(at: server.baseURL.appendingPathComponent("notes")))
        let store = try ObjectStore(at: folder.file("notes.sqlite"), entities: [RESTNote.self] + SyncSchema.entities)
        defer { store.close() }
        let mirror = try SyncedCollection(notes, store: store, client: NotesAPI.client())
        try await mirror.sync()
        try await mirror.sync()  // quiet, at t1

        // Another store on the file (another process) pulls twice: its cursor is t3 now.
        later.withLock { $0 = true }
        let other = try ObjectStore(at: folder.file("notes.sqlite"), entities: [RESTNote.self] + SyncSchema.entities)
        defer { other.close() }
        let otherMirror = try SyncedCollection(notes, store: other, client: NotesAPI.client())
        try await otherMirror.sync()
        try await otherMirror.sync()

        let before = server.requests(to: "/notes/changes").count
        try await mirror.sync()
        try await mirror.sync()
        let tokens = server.requests(to: "/notes/changes").dropFirst(before).map { request in
            request.queryItems.first { $0.name == "since" }?.value ?? "-"
        }
        // The remembered t1 is read once, found moved on in the page's transaction, and not
        // applied; the run goes on from t3, and so does the next. (Applied, it would have moved
        // the token back to t2 and read c again.)
        #expect(tokens == ["t1", "t3", "t3"])
        let ids = try store.context.readAndWait { tx in try tx.fetch(Query<RESTNote>()) }.map(\.id).sorted()
        #expect(ids == ["a", "b", "c"])
    }
}
