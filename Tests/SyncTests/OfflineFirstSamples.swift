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

// The samples of the Sync catalog's "Offline-first sync" article, as printed (the test below
// checks that every block of the article is in this file), run against the harness's backend,
// which speaks the article's note API.

/// "A PocketBase collection in ten concepts", as printed (run against a real PocketBase by
/// `PocketBaseInteropTests`).
enum ShortestPath {
    nonisolated struct Note: StoredEntity {
        var id: String        // chosen on the device: 15 characters of [a-z0-9]
        var title: String
        var updated: String?  // PocketBase's timestamp; nil until the server has the note
    }

    static func addNote(_ title: String, id: String, store file: URL, server: URL) async throws {
        let store = try ObjectStore(at: file, entities: [Note.self] + SyncSchema.entities)
        let notes = try SyncedCollection(.pocketBase("notes", at: server, version: \Note.updated), store: store, client: FetchClient())
        try await store.context.persist { tx in
            try notes.save(Note(id: id, title: title), in: tx)  // stored now, sent when it can be
        }
        try await notes.sync()  // sends it, then pulls what others changed
    }
}

/// "Several accounts on one device", as printed (run against a real PocketBase by
/// `PocketBaseInteropTests`).
enum SeveralAccounts {
    nonisolated struct JournalEntry: StoredEntity {
        var id: String
        var title: String
        var owner: String  // the writer's user id: the server's rules refuse any other
        var updated: String?
    }

    static func openJournal(
        of user: String, token: String, renew: @escaping @Sendable () async throws -> String,
        accounts: SyncAccounts, server: URL
    ) throws -> SyncedCollection<JournalEntry> {
        let account = try accounts.signIn(user, authenticator: TokenAuthenticator(token: token, refresh: renew))
        return try SyncedCollection(
            .pocketBase("journal", at: server, version: \JournalEntry.updated), store: account.store,
            client: account.client)
    }

    static func signOut(_ accounts: SyncAccounts) async throws -> String {
        let out = try await accounts.signOut(.keepEverything)  // kept for the user's return
        return "\(out.account) has \(out.unsentWrites ?? 0) writes to send when they sign in again"
    }
}

/// "Files beside records", as printed (run by `OfflineFirstSampleTests` against the loopback photos
/// backend, and the same flow against a real PocketBase by `PocketBaseInteropTests`).
enum FilesBesideRecords {
    nonisolated struct Photo: StoredEntity {
        var id: String
        var title: String
        var image = SyncedFile.none  // a PocketBase file field; [SyncedFile] for a field of several files
        var updated: String?
    }

    static func openPhotos(store: ObjectStore, server: URL) throws -> SyncedCollection<Photo> {
        try SyncedCollection(
            .pocketBase("photos", at: server, version: \Photo.updated, files: ["image"]), store: store,
            client: FetchClient())
    }

    static func share(_ picked: URL, title: String, id: String, photos: SyncedCollection<Photo>) async throws {
        let photo = Photo(id: id, title: title, image: try photos.attach(picked))  // copied beside the store now
        try await photos.store.context.persist { tx in try photos.save(photo, in: tx) }
        try await photos.sync()  // the record and its file go up in one request
    }

    static func imageBytes(of photo: Photo, photos: SyncedCollection<Photo>) async throws -> Data {
        try Data(contentsOf: try await photos.file(photo.image, of: photo))  // downloaded once, then kept
    }
}

/// "Syncing related collections", "Scopes" and "Progress", as printed (run against a real PocketBase by
/// `PocketBaseInteropTests`).
enum RelatedCollections {
    nonisolated struct Author: StoredEntity {
        var id: String
        var name: String
        var updated: String?
    }

    nonisolated struct Novel: StoredEntity {
        var id: String
        var title: String
        var author: String  // the author's id: a PocketBase relation field
        var updated: String?
        static let writtenBy = ToOne<Novel, Author>(Field("author"), onDelete: .cascade)
        static let relations: [any Relation<Novel>] = [writtenBy]
    }

    static func openLibrary(at file: URL, server: URL, client: FetchClient) throws
        -> (ObjectStore, SyncedCollection<Author>, SyncedCollection<Novel>, SyncGroup)
    {
        let store = try ObjectStore(at: file, entities: [Author.self, Novel.self] + SyncSchema.entities)
        let authors = try SyncedCollection(.pocketBase("authors", at: server, version: \Author.updated), store: store, client: client)
        let novels = try SyncedCollection(.pocketBase("novels", at: server, version: \Novel.updated), store: store, client: client)
        let library = try SyncGroup(authors, novels)  // finds Novel.writtenBy: authors go first
        return (store, authors, novels, library)
    }

    static func addAuthor(_ author: Author, with novels: [Novel], store: ObjectStore,
                   authors: SyncedCollection<Author>, mirror: SyncedCollection<Novel>, library: SyncGroup) async throws {
        try await store.context.persist { tx in
            try authors.save(author, in: tx)
            for novel in novels { try mirror.save(novel, in: tx) }
        }
        try await library.sync()  // the author's create reaches the server before its novels'
    }

    static func keepTheLastMonth(of novels: SyncedCollection<Novel>, since day: String, library: SyncGroup) async throws {
        // PocketBase's filter syntax: the preset joins it to the listing's own filter with &&
        try await novels.scope(to: [SyncScope("recent", parameters: ["filter": "updated >= '\(day)'"])])
        try await library.sync()  // lists the recent novels, then prunes the others; unsent writes stay
    }

    static func showFirstSync(of library: SyncGroup, on label: @escaping @Sendable (String) -> Void) -> Task<Void, Never> {
        Task {
            for await status in library.statusUpdates {
                guard let progress = status.progress else { continue }
                if let done = progress.fractionCompleted {
                    label("\(Int(done * 100)) % of \(progress.expectedRecords ?? 0) records")
                } else {
                    label("\(progress.recordsApplied) records")
                }
            }
        }
    }
}

enum OfflineFirst {
    nonisolated struct Note: StoredEntity {
        var id: String        // chosen on the device: a create can be retried safely
        var title: String
        var updated: String?  // the server's timestamp; nil until the server has the note
    }

    nonisolated struct NotesEndpoint: Endpoint {
        var baseURL = URL(string: "https://notes.example.com")!
        var path = "/notes"
        var queryItems: [URLQueryItem] = []
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

    nonisolated struct Owner: StoredEntity {
        var id: String
        var name: String
    }

    nonisolated struct Photo: StoredEntity {
        var id: String
        var title: String
        var ownerID: String
        var marked = false  // the user's; the server has no place for it

        static let marked = Field<Photo, Bool>("marked")
        static let owner = ToOne<Photo, Owner>(Field("ownerID"), onDelete: .cascade)
        static let relations: [any Relation<Photo>] = [owner]
    }

    nonisolated struct PhotosPage: Decodable {
        struct Item: Decodable {
            var id: String
            var title: String
            var owner: String
            var ownerName: String
        }
        var page: Int
        var pages: Int
        var photos: [Item]
    }

    /// Not in the article: the page request (the client's base URL replaces the sample's).
    nonisolated struct PhotosEndpoint: Endpoint {
        var baseURL = URL(string: "https://photos.example.com/api")!
        var path = "/recent"
        var queryItems: [URLQueryItem]

        init(page: Int) {
            queryItems = [URLQueryItem(name: "page", value: String(page))]
        }
    }

    static func recentPhotos() -> RemoteCollection<Photo> {
        var recent = RemoteCollection<Photo>(
            "recent-photos",
            changes: .snapshot(
                request: { cursor in
                    guard case .page(let number) = cursor else { return PhotosEndpoint(page: 1) }
                    return PhotosEndpoint(page: number)
                },
                page: Extraction.decode(PhotosPage.self).map { page in
                    let owners = page.photos.map { Owner(id: $0.owner, name: $0.ownerName) }
                    return ChangePage(
                        records: page.photos.map { Photo(id: $0.id, title: $0.title, ownerID: $0.owner) },
                        hasMore: page.page < min(page.pages, 2)  // the two newest pages are "recent"
                    ) { tx in
                        for owner in owners { try tx.upsert(owner) }  // before the photos, in the page's transaction
                    }
                }))
        recent.keeping = [.keep(Photo.marked)]
        recent.retaining = Photo.marked == true
        return recent
    }

    static func restCollection() -> RemoteCollection<Note> {
        let notes = RemoteCollection<Note>.rest("notes", at: URL(string: "https://notes.example.com/notes")!, version: \.updated)
        return notes
    }

    static func collection() -> RemoteCollection<Note> {
        let described = RemoteCollection<Note>(
            "notes",
            changes: .keyset(
                version: { $0.updated.map(RecordVersion.init) },
                request: { cursor in
                    var list = NotesEndpoint(queryItems: [URLQueryItem(name: "limit", value: "500")])
                    if case .keyset(let updated, let id) = cursor {
                        list.queryItems += [URLQueryItem(name: "after", value: "\(updated)"), URLQueryItem(name: "afterID", value: id)]
                    }
                    return list
                },
                page: Extraction.decode(NotesPage.self).map { page in
                    ChangePage(
                        records: page.items.filter { $0.deleted != true }.map { Note(id: $0.id, title: $0.title ?? "", updated: $0.updated) },
                        deleted: page.items.filter { $0.deleted == true }.map(\.id),
                        hasMore: page.hasMore,
                        cursor: page.items.last.map { .keyset(version: RecordVersion($0.updated), id: $0.id) })
                }),
            writes: .rest(at: URL(string: "https://notes.example.com/notes")!))
        return described
    }

    static let notes = collection()

    static func openNotes(at url: URL, client: FetchClient) throws -> (ObjectStore, SyncedCollection<Note>) {
        let store = try ObjectStore(at: url, entities: [Note.self] + SyncSchema.entities)
        let mirror = try SyncedCollection(notes, store: store, client: client)
        return (store, mirror)
    }

    static func rename(_ note: Note, to title: String, store: ObjectStore, mirror: SyncedCollection<Note>) async throws {
        let renamed = Note(id: note.id, title: title, updated: note.updated)
        try await store.context.persist { tx in
            try mirror.save(renamed, in: tx)  // the row changes now; the write waits in the outbox
        }
        try await mirror.sync()  // sends it, then pulls what others changed
    }

    static func keepFresh(_ mirror: SyncedCollection<Note>) async -> PeriodicFetcher<SyncReport> {
        await mirror.start()  // sends what an earlier launch left, and each new write
        let refresh = PeriodicFetcher(every: .seconds(300)) { try await mirror.sync() }
        refresh.start()
        return refresh
    }

    static func followChanges(_ notes: SyncedCollection<Note>, server: URL) async {
        // Subscribes on each connection, then pulls; pulls at each change made elsewhere.
        await notes.start(following: .pocketBase(at: server, collections: ["notes"]))
    }

    static func followEvents(_ notes: SyncedCollection<Note>) async {
        let events = NotesEndpoint(path: "/events")  // a text/event-stream of the server's changes
        await notes.start(following: .serverSentEvents(events) { event in event.event == "notes" })
    }

    static func notesWithTheirState(_ mirror: SyncedCollection<Note>, store: ObjectStore) async throws -> [String] {
        let notes = try await store.context.read { tx in
            try tx.fetch(mirror.records(Query<Note>()))
        }
        return notes.map { note in
            switch note.state {
            case nil: "\(note.record.title): synced"
            case .rejected?: "\(note.record.title): refused (\(note.writes[0].reason ?? ""))"
            case let state?: "\(note.record.title): \(state.rawValue)"
            }
        }
    }

    static func rejectedWrites(_ mirror: SyncedCollection<Note>, store: ObjectStore) async throws -> [String] {
        let rejected = try await store.context.read { tx in
            try tx.fetch(mirror.pendingWrites.filter(PendingWrite.state == .rejected))
        }
        return rejected.map { "\($0.recordID): \($0.reason ?? "")" }
    }

    static func resolveConflicts(_ mirror: SyncedCollection<Note>, store: ObjectStore) async throws {
        let parked = try await store.context.read { tx in
            try tx.fetch(mirror.pendingWrites.filter(PendingWrite.state == .conflicted))
        }
        for write in parked {
            let remote = try write.remote(as: Note.self)
            let local = try write.local(as: Note.self)
            let title = [local?.title, remote?.title].compactMap { $0 }.joined(separator: " / ")
            try await mirror.resolve(write, with: .use(Note(id: write.recordID, title: title, updated: remote?.updated)))
        }
    }

    nonisolated struct Book: StoredEntity {
        var id: String          // the app's key (a volume id), the same on every device
        var recordID: String?   // the server's id of the book's record
        var title: String
    }

    nonisolated struct BooksEndpoint: Endpoint {
        var baseURL = URL(string: "https://books.example.com/api")!
        var path: String
        var method: HTTPMethod = .get
        var body: RequestBody?
    }

    static func bookCollection() -> RemoteCollection<Book> {
        var books = RemoteCollection<Book>(
            "books",
            changes: .snapshot(
                request: { _ in BooksEndpoint(path: "/books") },
                page: Extraction.decode([Book].self).map { books in ChangePage(records: books, hasMore: false) }),
            writes: RecordWrites(
                update: { book, _ in BooksEndpoint(path: "/books/\(book.recordID ?? book.id)", method: .patch, body: .json(["title": book.title])) },
                delete: { book in BooksEndpoint(path: "/books/\(book.recordID ?? book.id)", method: .delete) }))
        books.serverID = \Book.recordID
        return books
    }

    static func startOver(_ mirror: SyncedCollection<Note>) async throws {
        try await mirror.resetCursor()  // the next sync reads everything again; unsent writes stay
        try await mirror.sync()
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
        #expect(blocks.count == 32)
        let compiled = normalized(samples)
        for block in blocks {
            #expect(compiled.contains(normalized(block)), "not compiled as printed:\n\(block)")
        }
    }

    @Test("The files samples share a photo from one store and read its image on another")
    func filesSamplesRun() async throws {
        let backend = PhotosBackend()
        try backend.start()
        defer { backend.server.stop() }
        let folder = try TemporaryDirectory(prefix: "FilesSamples")
        defer { folder.remove() }
        let picked = folder.file("Lisbon.jpg")
        try Data("jpeg bytes".utf8).write(to: picked)
        let entities = [FilesBesideRecords.Photo.self] + SyncSchema.entities
        let phone = try ObjectStore(at: folder.file("phone.sqlite"), entities: entities)
        defer { phone.close() }
        try await FilesBesideRecords.share(
            picked, title: "Lisbon", id: "lisbon000000001",
            photos: try FilesBesideRecords.openPhotos(store: phone, server: backend.baseURL))
        let laptop = try ObjectStore(at: folder.file("laptop.sqlite"), entities: entities)
        defer { laptop.close() }
        let photos = try FilesBesideRecords.openPhotos(store: laptop, server: backend.baseURL)
        try await photos.sync()
        let photo = try #require(
            try await laptop.context.read { tx in try tx.fetch(FilesBesideRecords.Photo.self, id: "lisbon000000001") })
        #expect(try await FilesBesideRecords.imageBytes(of: photo, photos: photos) == Data("jpeg bytes".utf8))
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
        let states = try await OfflineFirst.notesWithTheirState(mirror, store: store)
        #expect(states.count == 1)
        #expect(states.first?.hasPrefix("refused: a title the server refuses: refused (") == true)

        let fetcher = await OfflineFirst.keepFresh(mirror)
        fetcher.stop()
        await mirror.stop()

        // Live changes: a note made elsewhere and announced on the event stream arrives.
        backend.server.route(
            "GET", "/events",
            respond: .stream(headers: ["Content-Type": "text/event-stream"]) { writer in
                backend.put("n2", title: "Made elsewhere")
                _ = writer.write("event: notes\ndata: n2\n\n")
                _ = writer.pause(.seconds(30))
            })
        await OfflineFirst.followEvents(mirror)
        try await waitUntil("the note made elsewhere arrived") {
            (try? store.context.readAndWait { tx in try tx.fetch(OfflineFirst.Note.self, id: "n2") }) != nil
        }
        #expect(await mirror.status.isFollowing)
        await mirror.stop()
        try await OfflineFirst.resolveConflicts(mirror, store: store)
        #expect(OfflineFirst.migration().name == "notes get a summary")
    }

    @Test("The snapshot sample walks both pages, keeps owners with their photos, and keeps a marked photo")
    func snapshotSampleRuns() async throws {
        let server = StubServer()
        let generation = Locked(0)
        server.route("GET", "/recent") { request in
            let page = Int(request.queryItems.first { $0.name == "page" }?.value ?? "") ?? 1
            let first = generation.withLock { $0 } * 10
            let ids = (0..<2).map { "p\(first + (page - 1) * 2 + $0)" }
            let items = ids.map { #"{"id":"\#($0)","title":"t","owner":"o1","ownerName":"Ada"}"# }
            return StubResponse.json(#"{"page":\#(page),"pages":9,"photos":[\#(items.joined(separator: ","))]}"#)
        }
        try server.start()
        defer { server.stop() }
        let folder = try TemporaryDirectory(prefix: "OfflineFirstSnapshot")
        defer { folder.remove() }
        let store = try ObjectStore(
            at: folder.file("photos.sqlite"), entities: [OfflineFirst.Owner.self, OfflineFirst.Photo.self] + SyncSchema.entities)
        defer { store.close() }
        let mirror = try SyncedCollection(OfflineFirst.recentPhotos(), store: store, client: FetchClient { $0.baseURL = server.baseURL })
        let first = try await mirror.sync()
        #expect(first.pagesApplied == 2)
        func ids() throws -> Set<String> {
            Set(try store.context.readAndWait { tx in try tx.fetch(Query<OfflineFirst.Photo>()) }.map(\.id))
        }
        #expect(try ids() == ["p0", "p1", "p2", "p3"])
        try store.context.persistAndWait { tx in
            guard var photo = try tx.fetch(OfflineFirst.Photo.self, id: "p1") else { return }
            photo.marked = true
            try tx.update(photo)
        }
        generation.withLock { $0 = 1 }
        try await mirror.sync()
        #expect(try ids() == ["p1", "p10", "p11", "p12", "p13"])
    }
}
