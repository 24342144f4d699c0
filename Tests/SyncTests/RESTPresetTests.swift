import FetchKit
import FetchKitTesting
import Foundation
import Locking
import Persistence
import Sync
import SyncHarness
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A note as the harness's REST API sends it.
nonisolated struct RESTNote: StoredEntity, Hashable {
    var id: String
    var title: String
    var body = ""
    var updated: String?
}

@Suite("A plain REST list described by its URL")
struct RESTPresetTests {
    /// One device: its own store, the preset at the backend's `/notes`.
    final class Device: Sendable {
        let folder: TemporaryDirectory
        let store: ObjectStore
        let mirror: SyncedCollection<RESTNote>

        init(_ name: String, backend: NotesBackend) throws {
            folder = try TemporaryDirectory(prefix: "RESTPreset-\(name)")
            store = try ObjectStore(at: folder.file("notes.sqlite"), entities: [RESTNote.self] + SyncSchema.entities)
            let notes = RemoteCollection<RESTNote>.rest(
                "notes", at: backend.baseURL.appendingPathComponent("notes"), version: \.updated, pageSize: 2)
            mirror = try SyncedCollection(notes, store: store, client: NotesAPI.client())
        }

        deinit {
            store.close()
            folder.remove()
        }

        func save(_ note: RESTNote) throws {
            try store.context.persistAndWait { tx in try mirror.save(note, in: tx) }
        }

        func delete(_ id: String) throws {
            try store.context.persistAndWait { tx in try mirror.delete(id, in: tx) }
        }

        func notes() throws -> [String: RESTNote] {
            let notes = try store.context.readAndWait { tx in try tx.fetch(Query<RESTNote>()) }
            return Dictionary(uniqueKeysWithValues: notes.map { ($0.id, $0) })
        }
    }

    @Test("Two devices: pages, creates, changes to different fields and a delete reach both and the server")
    func twoDevices() async throws {
        let backend = NotesBackend()
        try backend.start()
        defer { backend.server.stop() }
        for id in ["n1", "n2", "n3"] { backend.put(id, title: "server \(id)") }
        let a = try Device("a", backend: backend)
        let b = try Device("b", backend: backend)
        try await a.mirror.sync()
        try await b.mirror.sync()
        #expect(try a.notes().keys.sorted() == ["n1", "n2", "n3"])

        try a.save(RESTNote(id: "n4", title: "made on a"))
        try await a.mirror.sync()
        #expect(backend.notes["n4"]?.title == "made on a")
        #expect(try a.notes()["n4"]?.updated != nil)  // the server's answer is the row now

        // Both change n1 offline, each another field.
        var onA = try #require(try a.notes()["n1"])
        onA.title = "title from a"
        try a.save(onA)
        var onB = try #require(try b.notes()["n1"])
        onB.body = "body from b"
        try b.save(onB)
        try await a.mirror.sync()
        try await b.mirror.sync()
        try await a.mirror.sync()
        #expect(backend.notes["n1"]?.title == "title from a")
        #expect(backend.notes["n1"]?.body == "body from b")
        for device in [a, b] {
            let note = try #require(try device.notes()["n1"])
            #expect(note.title == "title from a" && note.body == "body from b")
        }

        // A delete on b reaches a as a tombstone read by the preset (a page of it alone).
        try b.delete("n2")
        try await b.mirror.sync()
        #expect(backend.notes["n2"] == nil)
        try await a.mirror.sync()
        #expect(try a.notes().keys.sorted() == ["n1", "n3", "n4"])
        #expect(try b.notes().keys.sorted() == ["n1", "n3", "n4"])
    }

    @Test("Renamed parameters, items at a path, tombstones by another flag, and a client's own base URL")
    func renamedListing() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let pages = Locked(0)
        server.route("GET", "/v2/notes") { request in
            let query = Dictionary(request.queryItems.map { ($0.name, $0.value ?? "") }) { first, _ in first }
            let page = pages.withLock { count in
                count += 1
                return count
            }
            if query["since"] == nil {
                return .json(
                    #"{"data":{"notes":[{"id":"a","title":"A","stamp":"2026-11-27 09:00:00.000Z"},"#
                        + #"{"id":"b","title":"B","stamp":"2026-11-27 09:00:01.000Z"}]},"more":true}"#)
            }
            // The second page is asked from the first page's last item, under the API's own names.
            guard query["since"] == "2026-11-27 09:00:01.000Z", query["sinceID"] == "b", query["count"] == "2",
                page == 2
            else { return .json(#"{"message":"unexpected \#(request.target)"}"#, status: 400) }
            return .json(
                #"{"data":{"notes":[{"id":"a","gone":true,"stamp":"2026-11-27 09:00:02.000Z"}]},"more":false}"#)
        }
        let folder = try TemporaryDirectory(prefix: "RESTPreset-renamed")
        defer { folder.remove() }
        let store = try ObjectStore(at: folder.file("notes.sqlite"), entities: [Stamped.self] + SyncSchema.entities)
        defer { store.close() }
        let notes = RemoteCollection<Stamped>.rest(
            "notes", at: URL(string: "https://api.example.invalid/v2/notes")!, version: \.stamp, pageSize: 2,
            listing: RESTListing(
                after: "since", afterID: "sinceID", limit: "count", items: "data.notes", hasMore: "more",
                deleted: "gone",
                version: "stamp"))
        // The client's base URL replaces the preset's origin and keeps its path.
        let client = FetchClient { $0.baseURL = server.baseURL }
        let mirror = try SyncedCollection(notes, store: store, client: client)
        let report = try await mirror.sync()
        #expect(report.recordsDeleted == 1)
        let stored = try store.context.readAndWait { tx in try tx.fetch(Query<Stamped>()) }
        #expect(stored.map(\.id) == ["b"])
        #expect(server.requests(to: "/v2/notes").count == 2)
    }

    @Test("A bare array is the items; a full page asks for the next")
    func bareArray() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("GET", "/notes") { request in
            if request.queryItems.contains(where: { $0.name == "after" }) { return .json("[]") }
            return .json(
                #"[{"id":"a","title":"A","body":"","updated":"1"},{"id":"b","title":"B","body":"","updated":"2"}]"#)
        }
        let folder = try TemporaryDirectory(prefix: "RESTPreset-bare")
        defer { folder.remove() }
        let store = try ObjectStore(at: folder.file("notes.sqlite"), entities: [RESTNote.self] + SyncSchema.entities)
        defer { store.close() }
        let mirror = try SyncedCollection(
            RemoteCollection<RESTNote>.rest(
                "notes", at: server.baseURL.appendingPathComponent("notes"), version: \.updated, pageSize: 2),
            store: store, client: NotesAPI.client())
        try await mirror.sync()
        let stored = try store.context.readAndWait { tx in try tx.fetch(Query<RESTNote>()) }
        #expect(stored.map(\.id).sorted() == ["a", "b"])
        #expect(server.requests(to: "/notes").count == 2)
    }

    @Test("A token feed: each page's token asks for the next, the last one is where the next run starts")
    func tokenFeed() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("GET", "/notes/changes") { request in
            let query = Dictionary(request.queryItems.map { ($0.name, $0.value ?? "") }) { first, _ in first }
            switch query["since"] {
            case nil:
                return .json(
                    #"{"items":[{"id":"a","title":"A","body":""},{"id":"b","title":"B","body":""}],"next":"t1","hasMore":true}"#
                )
            case "t1":
                return .json(#"{"items":[{"id":"a","deleted":true}],"next":"t2","hasMore":false}"#)
            case "t2":
                return .json(#"{"items":[{"id":"c","title":"C","body":""}],"next":"t3","hasMore":false}"#)
            default:
                return .json(#"{"message":"unexpected \#(request.target)"}"#, status: 400)
            }
        }
        let folder = try TemporaryDirectory(prefix: "RESTPreset-token")
        defer { folder.remove() }
        let store = try ObjectStore(at: folder.file("notes.sqlite"), entities: [RESTNote.self] + SyncSchema.entities)
        defer { store.close() }
        let notes = RemoteCollection<RESTNote>(
            "notes", changes: .tokens(at: server.baseURL.appendingPathComponent("notes/changes"), pageSize: 2),
            writes: .rest(at: server.baseURL.appendingPathComponent("notes")))
        let mirror = try SyncedCollection(notes, store: store, client: NotesAPI.client())
        func stored() throws -> [String] {
            try store.context.readAndWait { tx in try tx.fetch(Query<RESTNote>()) }.map(\.id).sorted()
        }
        try await mirror.sync()
        #expect(try stored() == ["b"])
        try await mirror.sync()
        #expect(try stored() == ["b", "c"])
        let tokens = server.requests(to: "/notes/changes").map { request in
            request.queryItems.first { $0.name == "since" }?.value ?? "-"
        }
        #expect(tokens == ["-", "t1", "t2"])
    }

    @Test(
        "An identity that is not one path segment is refused with a typed error; the others reach the client's server")
    func hostileIdentities() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("GET", "/notes") { request in
            if request.queryItems.contains(where: { $0.name == "after" }) { return .json(#"{"items":[]}"#) }
            return .json(
                #"{"items":[{"id":"a/b","title":"slash","body":"","updated":"1"},"#
                    + #"{"id":"..","title":"dots","body":"","updated":"2"},"#
                    + #"{"id":"c","title":"plain","body":"","updated":"3"}]}"#)
        }
        server.route("DELETE", "/notes/*") { _ in .status(204) }
        let folder = try TemporaryDirectory(prefix: "RESTPreset-hostile")
        defer { folder.remove() }
        let store = try ObjectStore(at: folder.file("notes.sqlite"), entities: [RESTNote.self] + SyncSchema.entities)
        defer { store.close() }
        // The client's base URL replaces the preset's origin, for every request.
        let mirror = try SyncedCollection(
            RemoteCollection<RESTNote>.rest(
                "notes", at: URL(string: "https://api.example.invalid/notes")!, version: \.updated),
            store: store, client: FetchClient { $0.baseURL = server.baseURL })
        try await mirror.sync()
        for id in ["a/b", ".."] {
            let refused = #expect(throws: SyncError.self) {
                try store.context.persistAndWait { tx in try mirror.delete(id, in: tx) }
            }
            #expect(refused?.code == .misuse)
            #expect(refused?.message.contains("is not one segment of a URL path") == true)
        }
        let empty = #expect(throws: SyncError.self) {
            try store.context.persistAndWait { tx in try mirror.save(RESTNote(id: "", title: "no identity"), in: tx) }
        }
        #expect(empty?.code == .misuse)
        try store.context.persistAndWait { tx in try mirror.delete("c", in: tx) }
        try await mirror.sync()
        let deletes = server.receivedRequests.filter { $0.method == "DELETE" }.map(\.rawPath)
        #expect(deletes == ["/notes/c"])
        let left = try store.context.readAndWait { tx in try tx.fetch(Query<RESTNote>()) }.map(\.id).sorted()
        #expect(left == ["..", "a/b"])
    }
}

/// A note whose server timestamp is called `stamp`.
nonisolated struct Stamped: StoredEntity {
    var id: String
    var title: String
    var stamp: String?
}
