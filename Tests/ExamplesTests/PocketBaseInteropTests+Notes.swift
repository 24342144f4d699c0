import FetchKit
import Foundation
import Persistence
import Sync
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The Sync article's shortest path ("A PocketBase collection in ten concepts"), as printed,
// against a real PocketBase: `RemoteCollection.pocketBase` with no other description.

nonisolated struct Note: StoredEntity {
    var id: String  // chosen on the device: 15 characters of [a-z0-9]
    var title: String
    var updated: String?  // PocketBase's timestamp; nil until the server has the note
}

func addNote(_ title: String, id: String, store file: URL, server: URL) async throws {
    let store = try ObjectStore(at: file, entities: [Note.self] + SyncSchema.entities)
    let notes = try SyncedCollection(
        .pocketBase("notes", at: server, version: \Note.updated), store: store, client: FetchClient())
    try await store.context.persist { tx in
        try notes.save(Note(id: id, title: title), in: tx)  // stored now, sent when it can be
    }
    try await notes.sync()  // sends it, then pulls what others changed
}

extension PocketBaseInteropTests {
    /// One device of the notes collection: its own store file, synced through `server`.
    struct NotesDevice {
        let store: ObjectStore
        let notes: SyncedCollection<Note>

        init(file: URL, server: URL) throws {
            store = try ObjectStore(at: file, entities: [Note.self] + SyncSchema.entities)
            notes = try SyncedCollection(
                .pocketBase("notes", at: server, version: \Note.updated), store: store, client: FetchClient())
        }

        func save(_ note: Note) async throws {
            try await store.context.persist { tx in try notes.save(note, in: tx) }
        }

        func delete(_ id: String) async throws {
            try await store.context.persist { tx in try notes.delete(id, in: tx) }
        }

        func titles() async throws -> [String: String] {
            let rows = try await store.context.read { tx in try tx.fetch(Query<Note>()) }
            return Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0.title) })
        }
    }

    static func serverNotes(_ server: PocketBaseServer) async throws -> [String: String] {
        let records = try await server.records(of: "notes")
        return Dictionary(
            uniqueKeysWithValues: records.compactMap { record in
                (record["id"] as? String).map { ($0, record["title"] as? String ?? "") }
            })
    }

    /// The article's function, as printed, creates a note on the server; a note another client
    /// created is pulled, renamed and deleted at its own id; a note deleted outright elsewhere
    /// leaves the device (PocketBase keeps no tombstone: the id listing finds it); a rename that
    /// meets another client's rename is a conflict the default policy gives to the server.
    @Test func theShortestPathCreatesChangesAndDeletesNotesOnPocketBase() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let folder = try TemporaryDirectory(prefix: "Notes")
        defer { folder.remove() }

        try await addNote("Buy milk", id: "milk00000000001", store: folder.file("a.sqlite"), server: server.url)
        #expect(try await Self.serverNotes(server) == ["milk00000000001": "Buy milk"])

        let device = try NotesDevice(file: folder.file("a.sqlite"), server: server.url)
        defer { device.store.close() }
        _ = try await server.send(
            "POST", "api/collections/notes/records", ["id": "elsewhere000001", "title": "Call Ada"])
        try await device.notes.sync()
        #expect(try await device.titles() == ["milk00000000001": "Buy milk", "elsewhere000001": "Call Ada"])

        try await device.save(Note(id: "elsewhere000001", title: "Call Ada at six"))
        try await device.notes.sync()
        #expect(try await Self.serverNotes(server)["elsewhere000001"] == "Call Ada at six")
        try await device.delete("elsewhere000001")
        try await device.notes.sync()
        #expect(try await Self.serverNotes(server) == ["milk00000000001": "Buy milk"])

        // Renamed here and elsewhere: the read before the update finds the other rename; the
        // server's wins (the default policy), on the device as on the server.
        let row = try #require(
            try await device.store.context.read { tx in try tx.fetch(Note.self, id: "milk00000000001") })
        _ = try await server.send("PATCH", "api/collections/notes/records/milk00000000001", ["title": "Buy oat milk"])
        try await device.save(Note(id: row.id, title: "Buy two milks", updated: row.updated))
        try await device.notes.sync()
        #expect(try await Self.serverNotes(server) == ["milk00000000001": "Buy oat milk"])
        #expect(try await device.titles() == ["milk00000000001": "Buy oat milk"])

        try await server.deleteRecord("milk00000000001", of: "notes")
        try await device.notes.sync()
        #expect(try await device.titles().isEmpty)
        #expect(await device.notes.status.pendingCount == 0)
    }

    /// A create whose answer is lost (PocketBase applied it; a proxy closes the connection
    /// before the answer) is sent again with its id, meets `validation_not_unique`, and is
    /// confirmed by a read: one record, and the device holds the server's timestamp.
    @Test func aNoteWhoseCreateAnswerIsLostIsOnTheServerOnce() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let proxy = try DroppingProxy(to: server.port)
        defer { proxy.stop() }
        let folder = try TemporaryDirectory(prefix: "NotesLost")
        defer { folder.remove() }
        let device = try NotesDevice(file: folder.file("a.sqlite"), server: proxy.url)
        defer { device.store.close() }

        try await device.save(Note(id: "lost00000000001", title: "Water the plants"))
        proxy.dropNextAnswer(to: "POST")
        _ = try? await device.notes.sync()
        #expect(proxy.dropped == 1)
        try await device.notes.sync()
        #expect(try await Self.serverNotes(server) == ["lost00000000001": "Water the plants"])
        let row = try await device.store.context.read { tx in try tx.fetch(Note.self, id: "lost00000000001") }
        #expect(row?.updated != nil)
        #expect(await device.notes.status.pendingCount == 0)
    }

    /// A collection following PocketBase's realtime API: a note another client creates, renames
    /// and deletes reaches the device's observer with no `sync()` call, through a server restart
    /// (the connection is made again, subscribed again, and the change made while it was down is
    /// pulled); a note this device writes goes out by itself.
    @Test func aFollowingCollectionSeesAnotherClientsChangesWithoutASync() async throws {
        let server = try PocketBaseServer()
        defer { server.kill(); server.folder.remove() }
        try await server.start()
        let folder = try TemporaryDirectory(prefix: "NotesLive")
        defer { folder.remove() }
        let device = try NotesDevice(file: folder.file("a.sqlite"), server: server.url)
        defer { device.store.close() }
        let observed = Collector<[String: String]>()
        let token = device.store.observe(
            .value(tracking: Note.self) { tx in
                Dictionary(uniqueKeysWithValues: try tx.fetch(Query<Note>()).map { ($0.id, $0.title) })
            }
        ) { titles in observed.append(titles) }
        defer { token.cancel() }
        await device.notes.start(following: .pocketBase(at: server.url, collections: ["notes"]))
        // Subscribed once PocketBase names the connection: the pull that follows is the sign.
        try await waitUntil("the first pull") { observed.values.count >= 1 }
        try await Self.eventually("the status says it follows") { await device.notes.status.lastPull != nil }

        _ = try await server.send("POST", "api/collections/notes/records", ["id": "live00000000001", "title": "Hello"])
        try await waitUntil("the create reached the observer") { observed.values.last == ["live00000000001": "Hello"] }
        _ = try await server.send("PATCH", "api/collections/notes/records/live00000000001", ["title": "Hello again"])
        try await waitUntil("the rename reached the observer") {
            observed.values.last == ["live00000000001": "Hello again"]
        }

        // The server goes away and comes back: following reconnects, and a change made before the
        // device reconnected (no event reaches it) is found by the pull that follows the subscription.
        server.kill()
        try await server.start()
        _ = try await server.send(
            "POST", "api/collections/notes/records", ["id": "gap000000000001", "title": "Meanwhile"])
        try await waitUntil("the change made while disconnected") {
            observed.values.last?["gap000000000001"] == "Meanwhile"
        }
        try await device.save(Note(id: "here00000000001", title: "Written here"))
        try await Self.eventually("the write went out") {
            try await Self.serverNotes(server)["here00000000001"] == "Written here"
        }
        let status = await device.notes.status
        #expect(status.isFollowing)
        #expect(status.followingError == nil)
        await device.notes.stop()
    }

    /// Waits until an async condition holds (the other waits read a value a callback collects).
    static func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now.advanced(by: Patience.hang)
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw TimedOut(what: what) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
