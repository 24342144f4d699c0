import FetchKit
import Foundation
import Persistence
import Sync
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The code samples of the Sync module's doc comments, as printed (the test below checks that
// every block of every doc comment is in this file), compiled in the context they assume.

/// Samples that describe a notes API field by field.
enum DocNotes {
    nonisolated struct Note: StoredEntity {
        var id: String
        var title: String
        var body = ""
        var updated: String
    }

    nonisolated struct NotesRequest: Endpoint {
        var baseURL = URL(string: "https://notes.example.com/api")!
        var path = "/notes"
        var method: HTTPMethod = .get
        var queryItems: [URLQueryItem] = []
        var body: RequestBody?
    }

    enum NotesAPI {
        nonisolated struct Page: Decodable {
            var items: [Note]
            var hasMore: Bool
            var changes: ChangePage<Note> { ChangePage(records: items, hasMore: hasMore) }
        }

        static func list(after cursor: SyncCursor?) -> NotesRequest {
            var list = NotesRequest()
            if case .keyset(let updated, let id) = cursor {
                list.queryItems = [URLQueryItem(name: "after", value: "\(updated)"), URLQueryItem(name: "afterID", value: id)]
            }
            return list
        }
        static func create(_ note: Note) -> NotesRequest { NotesRequest(method: .post, body: .json(note)) }
        static func patch(_ id: String, body: RequestBody) -> NotesRequest {
            NotesRequest(path: "/notes/\(id)", method: .patch, body: body)
        }
        static func delete(_ id: String) -> NotesRequest { NotesRequest(path: "/notes/\(id)", method: .delete) }
        static let notes = URL(string: "https://notes.example.com/api/notes")!
        static let events = NotesRequest(path: "/events")
    }

    static func followEvents(_ notes: SyncedCollection<Note>) async {
        await notes.start(following: .serverSentEvents(NotesAPI.events) { event in event.event == "notes" })
    }

    static func describe() -> RemoteCollection<Note> {
        let notes = RemoteCollection<Note>(
            "notes",
            changes: .keyset(
                version: { RecordVersion($0.updated) },
                request: { cursor in NotesAPI.list(after: cursor) },
                page: Extraction.decode(NotesAPI.Page.self).map(\.changes)),
            writes: .rest(at: NotesAPI.notes))
        return notes
    }

    static func requestByRequest() -> RecordWrites<Note> {
        RecordWrites<Note>(
            create: { note in NotesAPI.create(note) },
            update: { note, base in NotesAPI.patch(note.id, body: .json(ChangedFields(note, since: base))) },
            delete: { note in NotesAPI.delete(note.id) })
    }

    nonisolated struct RESTNote: StoredEntity {
        var id: String
        var title: String
        var updated: String?
    }

    static func rest(server: URL) -> [RemoteCollection<RESTNote>] {
        typealias Note = RESTNote
        let notes = RemoteCollection<Note>.rest("notes", at: server.appendingPathComponent("notes"), version: \.updated)
        let renamed = RemoteCollection<RESTNote>.rest(
            "notes", at: server.appendingPathComponent("notes"), version: \.updated,
            listing:
        RESTListing(after: "since", items: "data.notes", deleted: "removed")
        )
        return [notes, renamed]
    }

    static func mirror(_ notes: RemoteCollection<Note>, at url: URL, client: FetchClient) async throws {
        let store = try ObjectStore(at: url, entities: [Note.self] + SyncSchema.entities)
        let mirror = try SyncedCollection(notes, store: store, client: client)
        try await store.context.persist { tx in
            try mirror.save(Note(id: "n1", title: "Groceries", updated: ""), in: tx)   // the row changes now
        }
        try await mirror.sync()     // sends the write, then pulls the server's changes
        try await store.context.read { tx in
            let waiting = try tx.fetch(mirror.pendingWrites.filter(PendingWrite.state == .pending))
            let pending = try tx.fetch(mirror.records(Query<Note>())).filter { $0.state != nil }
            let rejected = try tx.fetch(Query<PendingWrite>(where: PendingWrite.collection == "notes" && PendingWrite.state == .rejected))
            print(waiting.count, pending.count, rejected.count)
        }
    }

    static func progress(of mirror: SyncedCollection<Note>) async -> String {
        var label = ""
        for await status in mirror.statusUpdates {
            if let progress = status.progress {
                label = progress.fractionCompleted.map { "\(Int($0 * 100)) %" } ?? "\(progress.recordsApplied) records"
            }
        }
        return label
    }

    @MainActor final class NotesScreen {
        let monitor: SyncMonitor
        init<E>(mirror: SyncedCollection<E>) { monitor = SyncMonitor(mirror) }
        var banner: String { monitor.status.pendingCount == 0 ? "Synced" : "\(monitor.status.pendingCount) waiting" }
    }

    static let migration =
        Migration("rename body to text") { tx in
            try tx.renameProperty("body", to: "text", in: Note.self)
            try PendingWrite.upgrade(collection: "notes", from: 1, in: tx) { record in
                record["text"] = record.removeValue(forKey: "body")
            }
        }
}

/// Samples of a PocketBase server: its records carry their `updated` time, `nil` until created.
enum DocPocketBase {
    nonisolated struct Note: StoredEntity {
        var id: String
        var title: String
        var updated: String?
    }

    nonisolated struct Author: StoredEntity {
        var id: String
        var name: String
        var updated: String?
    }

    nonisolated struct Book: StoredEntity {
        var id: String
        var title: String
        var authorID: String
        var updated: String?
        static let author = ToOne<Book, Author>(Field("authorID"), onDelete: .cascade)
        static let relations: [any Relation<Book>] = [author]
    }

    nonisolated struct PocketBaseRequest: Endpoint {
        var baseURL = URL(string: "http://127.0.0.1:8090")!
        var path: String
        var method: HTTPMethod = .get
        var body: RequestBody?
    }

    static func notes(at server: URL, store: ObjectStore, client: FetchClient) throws -> SyncedCollection<Note> {
        let notes = try SyncedCollection(.pocketBase("notes", at: server, version: \Note.updated), store: store, client: client)
        return notes
    }

    static func follow(at server: URL, store: ObjectStore, client: FetchClient) async throws {
        let notes = try SyncedCollection(.pocketBase("notes", at: server, version: \Note.updated), store: store, client: client)
        await notes.start(following: .pocketBase(at: server, collections: ["notes"]))
    }

    static func followLibrary(_ library: SyncGroup, at server: URL) async {
        await library.start(following: .pocketBase(at: server, collections: library.collections))
    }

    static func library(at server: URL, store: ObjectStore, client: FetchClient) async throws {
        let authors = try SyncedCollection(.pocketBase("authors", at: server, version: \Author.updated), store: store, client: client)
        let books = try SyncedCollection(.pocketBase("books", at: server, version: \Book.updated), store: store, client: client)
        let library = try SyncGroup(authors, books)      // Book.author is a ToOne<Book, Author>
        try await library.sync()
        try await books.scope(to: [SyncScope("recent", parameters: ["since": "2026-10-27"])])
        try await books.sync()
    }

    static func batched() -> RemoteCollection<Note> {
        var notes = RemoteCollection<Note>(
            "notes",
            changes: .snapshot(
                request: { _ in PocketBaseRequest(path: "/api/collections/notes/records") },
                page: Extraction.decode([Note].self).map { ChangePage(records: $0, hasMore: false) }),
            writes: RecordWrites(
                create: { note in PocketBaseRequest(path: "/api/collections/notes/records", method: .post, body: .json(note)) }))
        notes.batch = .jsonRequests(maximumCount: 50) { body in
            PocketBaseRequest(path: "/api/batch", method: .post, body: body)
        }
        return notes
    }
}

/// Samples of a library whose books the server names, and their local-only fields.
enum DocLibrary {
    nonisolated struct Book: StoredEntity {
        var id: String
        var recordID: String?
        var title: String
        var summary: String?
        var rating: Int?
        static let title = Field<Book, String>("title")
        static let summary = Field<Book, String?>("summary")
    }

    nonisolated struct Shelf: StoredEntity {
        var id: String
        var owner: String
    }

    nonisolated struct Request: Endpoint {
        var baseURL = URL(string: "https://books.example.com")!
        var path: String
    }

    static func books() -> [RemoteCollection<Book>] {
        let page = Extraction.decode([Book].self).map { ChangePage(records: $0, hasMore: false) }
        var books = RemoteCollection<Book>("books", changes: .snapshot(request: { _ in Request(path: "/books") }, page: page))
        books.serverID = \Book.recordID   // PocketBase's id of the book; the key path names its type
        books.keeping = [.keep(Book.summary)]   // the server's books have no summary
        return [books]
    }

    static func adopt(_ booksWrittenBeforeSync: [Book], into books: SyncedCollection<Book>, store: ObjectStore) throws {
        try store.context.persistAndWait { tx in
            for book in booksWrittenBeforeSync { try books.save(book, as: .create, in: tx) }
        }
    }

    static func refused(_ mirror: SyncedCollection<Book>, store: ObjectStore) throws {
        try store.context.readAndWait { tx in
            let books = try tx.fetch(mirror.records(Query<Book>(sortedBy: [Book.title.ascending()])))
            for book in books where book.state == .rejected {
                print(book.record.title, "was refused:", book.writes[0].reason ?? "")
            }
        }
    }

    static let policy: ConflictPolicy<Book> = {
        let ratings = ConflictPolicy<Book> { conflict in
            conflict.fields == ["rating"] ? .keepLocal : .keepRemote   // this device's rating wins
        }
        return ratings
    }()

    static func accounts(
        appSupport: URL, client: FetchClient, remote: RemoteCollection<Book>, userID: String, token: String,
        renew: @escaping @Sendable () async throws -> String
    ) async throws {
        let accounts = try SyncAccounts(folder: appSupport, client: client) { url in
            try ObjectStore(at: url, entities: [Book.self] + SyncSchema.entities)
        }
        let alice = try accounts.signIn(userID, authenticator: TokenAuthenticator(token: token) { try await renew() })
        let books = try SyncedCollection(remote, store: alice.store, client: alice.client)
        // …
        try await accounts.signOut(.keepEverything)   // Alice's unsent writes wait for her return
        _ = books
    }

    static func mine(_ shelves: SyncedCollection<Shelf>, userID: String) async throws {
        try await shelves.scope(to: [SyncScope("mine", parameters: ["owner": userID])])
        try await shelves.sync()  // lists my shelves from the start, then prunes the others
    }
}

/// Samples of a read-only snapshot of photos and their owners.
enum DocPhotos {
    nonisolated struct Photo: StoredEntity {
        var id: String
        var ownerID: String
        var marked: Bool
        static let marked = Field<Photo, Bool>("marked")
    }

    nonisolated struct Owner: StoredEntity {
        var id: String
        var name: String
    }

    nonisolated struct Request: Endpoint {
        var baseURL = URL(string: "https://photos.example.com")!
        var path = "/recent"
    }

    nonisolated struct Listing: Decodable {
        var photos: [Photo]
        var owners: [Owner]
    }

    static func recent() -> RemoteCollection<Photo> {
        var photos = RemoteCollection<Photo>(
            "photos",
            changes: .snapshot(
                request: { _ in Request() },
                page: Extraction.decode(Listing.self).map { listing in
                    let (photos, owners) = (listing.photos, listing.owners)
                    return ChangePage(records: photos, hasMore: false) { tx in
                        for owner in owners { try tx.upsert(owner) }
                    }
                }))
        photos.retaining = Photo.marked == true   // a marked photo outlives the recent-photos snapshot
        return photos
    }
}

/// The samples of `SyncedFile`, `FileFields`, `RemoteCollection.files`, `attach(_:)` and `file(_:of:)`.
enum FileSamples {
    struct Photo: StoredEntity {
        var id: String
        var title: String
        var image = SyncedFile.none      // a single file field; [SyncedFile] for a multiple one
        var updated: String?
    }

    static func describe(server: URL) -> [RemoteCollection<Photo>] {
        var photos = RemoteCollection<Photo>.pocketBase("photos", at: server, version: \.updated, files: ["image"])
        photos.keeping = []
        var books = RemoteCollection<Photo>.rest("books", at: server, version: \.updated)
        books.files = .pocketBase(["cover"], collection: "books", at: server)
        return [photos, books]
    }

    static func attach(
        _ pickedImage: URL, to photo: Photo, photos: SyncedCollection<Photo>, store: ObjectStore
    ) async throws -> URL {
        var photo = photo
        photo.image = try photos.attach(pickedImage)
        try await store.context.persist { [photo] tx in try photos.save(photo, in: tx) }
        let image = try await photos.file(photo.image, of: photo)
        return image
    }
}

@Suite("The Sync module's doc-comment samples")
struct DocCommentSampleTests {
    @Test("Every Swift block of every doc comment of the Sync module is in the samples file, as printed")
    func printedAsCompiled() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources/Sync")
        let samples = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        func normalized(_ lines: [String]) -> String {
            lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "\n")
        }
        let compiled = normalized(samples.components(separatedBy: "\n"))
        var blocks = 0
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            var block: [String]?
            for line in try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n") {
                let text = line.trimmingCharacters(in: .whitespaces)
                guard text.hasPrefix("///") else { continue }
                let content = String(text.dropFirst(3).drop { $0 == " " })
                if block == nil, content.hasPrefix("```swift") {
                    block = []
                } else if let lines = block, content.hasPrefix("```") {
                    blocks += 1
                    #expect(compiled.contains(normalized(lines)), "\(file.lastPathComponent): not compiled as printed:\n\(lines.joined(separator: "\n"))")
                    block = nil
                } else if block != nil {
                    // The line as printed, its indent inside the block kept apart from the comment's.
                    block?.append(String(text.dropFirst(3)))
                }
            }
        }
        #expect(blocks >= 22)
    }
}
