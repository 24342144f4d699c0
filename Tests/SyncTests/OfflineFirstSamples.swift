import FetchKit
import Foundation
import Persistence
import Sync
import SyncHarness
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The samples of the Sync catalog's "Offline-first sync" article, as printed (the test below
// checks that every block of the article is in this file), run against the harness's backend,
// which speaks the article's note API.

enum OfflineFirst {
    nonisolated struct Note: StoredEntity {
        var id: String       // chosen by the client: a create can be retried safely
        var title: String
        var updated: String  // the server's timestamp
    }

    nonisolated struct NotesEndpoint: Endpoint {
        var baseURL = URL(string: "https://notes.example.com/api")!
        var path = "/notes"
        var method: HTTPMethod = .get
        var queryItems: [URLQueryItem] = []
        var body: RequestBody?
    }

    nonisolated struct NotesPage: Decodable {
        struct Item: Decodable {
            var id: String
            var title: String?
            var updated: String
            var deleted: Bool?
        }
        var items: [Item]
        var hasMore: Bool
    }

    static func collection() -> RemoteCollection<Note> {
        let notes = RemoteCollection<Note>(
            name: "notes",
            cursor: .keyset(overlap: .time(.seconds(5))),
            version: { RecordVersion($0.updated) },
            changes: { cursor in
                var list = NotesEndpoint(queryItems: [URLQueryItem(name: "limit", value: "500")])
                if case .keyset(let updated, let id) = cursor {
                    list.queryItems += [URLQueryItem(name: "after", value: "\(updated)"), URLQueryItem(name: "afterID", value: id)]
                }
                return list
            },
            page: { data, _ in
                let page = try JSONDecoder().decode(NotesPage.self, from: data)
                return ChangePage(
                    records: page.items.filter { $0.deleted != true }.map { Note(id: $0.id, title: $0.title ?? "", updated: $0.updated) },
                    deleted: page.items.filter { $0.deleted == true }.map(\.id),
                    hasMore: page.hasMore,
                    cursor: page.items.last.map { .keyset(version: RecordVersion($0.updated), id: $0.id) })
            },
            create: { note in NotesEndpoint(method: .post, body: .json(["id": note.id, "title": note.title])) },
            update: { note, _ in NotesEndpoint(path: "/notes/\(note.id)", method: .patch, body: .json(["title": note.title])) },
            delete: { id in NotesEndpoint(path: "/notes/\(id)", method: .delete) },
            read: { id in NotesEndpoint(path: "/notes/\(id)") },
            conflictCheck: .readBeforeWrite)
        return notes
    }

    static let notes = collection()

    static func openNotes(at url: URL, client: FetchClient) throws -> (ObjectStore, Mirror<Note>) {
        let store = try ObjectStore(at: url, entities: [Note.self] + SyncSchema.entities)
        let mirror = Mirror(notes, store: store, client: client, conflicts: .merge())
        return (store, mirror)
    }

    static func rename(_ note: Note, to title: String, store: ObjectStore, mirror: Mirror<Note>) async throws {
        let renamed = Note(id: note.id, title: title, updated: note.updated)
        try await store.context.persist { tx in
            try mirror.save(renamed, in: tx)  // the row changes now; the write waits in the outbox
        }
        try await mirror.sync()  // sends it, then pulls what others changed
    }

    static func keepFresh(_ mirror: Mirror<Note>) async -> PeriodicFetcher<SyncReport> {
        await mirror.start()  // sends what an earlier launch left, and each new write
        let refresh = PeriodicFetcher(every: .seconds(300)) { try await mirror.sync() }
        refresh.start()
        return refresh
    }

    static func rejectedWrites(_ mirror: Mirror<Note>, store: ObjectStore) async throws -> [String] {
        let rejected = try await store.context.read { tx in
            try tx.fetch(mirror.pendingWrites.filter(PendingWrite.state == .rejected))
        }
        return rejected.map { "\($0.recordID): \($0.reason ?? "")" }
    }

    static func resolveConflicts(_ mirror: Mirror<Note>, store: ObjectStore) async throws {
        let parked = try await store.context.read { tx in
            try tx.fetch(mirror.pendingWrites.filter(PendingWrite.state == .conflicted))
        }
        for write in parked {
            let remote = try write.remote(as: Note.self)
            let local = try write.local(as: Note.self)
            let title = [local?.title, remote?.title].compactMap { $0 }.joined(separator: " / ")
            try await mirror.resolve(write, with: .use(Note(id: write.recordID, title: title, updated: remote?.updated ?? "")))
        }
    }

    static func migration() -> Migration {
        let addSummary = Migration("notes get a summary") { tx in
            try PendingWrite.upgrade(collection: "notes", from: 1, in: tx) { record in
                record["summary"] = ""
            }
        }
        return addSummary
    }
}

@Suite("The Offline-first sync article's samples")
struct OfflineFirstSampleTests {
    @Test("Every Swift block of the article is in the samples file, as printed")
    func printedAsCompiled() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/Sync/Sync.docc/Articles/OfflineFirstSync.md"),
            encoding: .utf8)
        let samples = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        func normalized(_ text: some StringProtocol) -> String {
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                .joined(separator: "\n")
        }
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map {
            $0.components(separatedBy: "```").first ?? ""
        }
        #expect(blocks.count == 8)
        let compiled = normalized(samples)
        for block in blocks {
            #expect(compiled.contains(normalized(block)), "not compiled as printed:\n\(block)")
        }
    }

    @Test("The samples mirror the notes API, write offline, sync, and show rejections and conflicts")
    func samplesRun() async throws {
        let backend = NotesBackend()
        try backend.start()
        defer { backend.server.stop() }
        let folder = try TemporaryDirectory(prefix: "OfflineFirst")
        defer { folder.remove() }
        let client = FetchClient { $0.baseURL = backend.baseURL }
        backend.put("n1", title: "Groceries")
        let (store, mirror) = try OfflineFirst.openNotes(at: folder.file("notes.sqlite"), client: client)
        defer { store.close() }
        try await mirror.sync()
        let note = try #require(try await store.context.read { tx in try tx.fetch(OfflineFirst.Note.self, id: "n1") })
        try await OfflineFirst.rename(note, to: "Groceries for Sunday", store: store, mirror: mirror)
        #expect(backend.notes["n1"]?.title == "Groceries for Sunday")

        let renamed = try #require(try await store.context.read { tx in try tx.fetch(OfflineFirst.Note.self, id: "n1") })
        try await OfflineFirst.rename(renamed, to: "refused: a title the server refuses", store: store, mirror: mirror)
        #expect(try await OfflineFirst.rejectedWrites(mirror, store: store).first?.hasPrefix("n1: ") == true)

        let fetcher = await OfflineFirst.keepFresh(mirror)
        fetcher.stop()
        await mirror.stop()
        try await OfflineFirst.resolveConflicts(mirror, store: store)
        #expect(OfflineFirst.migration().name == "notes get a summary")
    }
}
