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

/// What a user does is never lost: a record created by another client is changed and deleted at
/// its own address, a write the server answers `404` is never dropped in silence, and a write
/// whose answer was lost is never a conflict with itself.
@Suite("Nothing lost: one identity, not-found answers, own writes")
struct NothingLostTests {
    // MARK: One identity

    @Test("A record another client created is changed and deleted at its server id, each change once")
    func createdElsewhere() async throws {
        let fixture = try SyncFixture()
        // Another client (an admin UI, a script) creates the record: the server chose its id.
        fixture.backend.put("srv0000000001", title: "Dune", body: "vol-dune")
        let device = try CardDevice(fixture)
        try await device.mirror.sync()
        let pulled = try #require(try device.card("vol-dune"))
        #expect(pulled.noteID == "srv0000000001")

        // The app edits a copy that does not carry the server's id: the collection keeps it.
        try device.save(Card(id: "vol-dune", title: "Dune (rated)"))
        let report = try await device.mirror.sync()
        #expect(report.writesSent == 1)
        #expect(report.conflicts == 0)
        #expect(fixture.backend.notes["srv0000000001"]?.title == "Dune (rated)")
        #expect(fixture.backend.applications["update:Dune (rated)"] == 1)
        #expect(try device.card("vol-dune")?.title == "Dune (rated)")

        try device.delete("vol-dune")
        try await device.mirror.sync()
        #expect(fixture.backend.notes["srv0000000001"] == nil)
        #expect(fixture.backend.notes.isEmpty)
        try await device.mirror.sync()
        #expect(try device.card("vol-dune") == nil)
        #expect(try device.outbox().isEmpty)
    }

    @Test("A record this device creates is addressed by its proposed id until the server's answer names it")
    func createdHere() async throws {
        let fixture = try SyncFixture()
        let device = try CardDevice(fixture)
        try device.save(Card(id: "vol-emma", title: "Emma"))
        // Changed again while the create is unsent: one create.
        try device.save(Card(id: "vol-emma", title: "Emma (2nd)"))
        try await device.mirror.sync()
        #expect(fixture.backend.notes["p-vol-emma"]?.title == "Emma (2nd)")
        #expect(try device.card("vol-emma")?.noteID == "p-vol-emma")
        try device.save(Card(id: "vol-emma", title: "Emma (3rd)"))
        try await device.mirror.sync()
        #expect(fixture.backend.notes["p-vol-emma"]?.title == "Emma (3rd)")
        #expect(fixture.backend.notes.count == 1)
    }

    @Test("Two devices change a record created elsewhere: the policy decides and all three agree")
    func twoDevices() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("srv0000000002", title: "Emma", body: "vol-emma")
        let first = try CardDevice(fixture, file: "first.sqlite")
        let second = try CardDevice(fixture, file: "second.sqlite")
        try await first.mirror.sync()
        try await second.mirror.sync()
        try first.save(Card(id: "vol-emma", title: "Emma 5 stars"))
        try second.save(Card(id: "vol-emma", title: "Emma 2 stars"))
        try await first.mirror.sync()
        // The server's version wins (the default policy): the second device's rating loses.
        let report = try await second.mirror.sync()
        #expect(report.conflicts == 1)
        try await first.mirror.sync()
        #expect(fixture.backend.notes["srv0000000002"]?.title == "Emma 5 stars")
        #expect(try first.card("vol-emma")?.title == "Emma 5 stars")
        #expect(try second.card("vol-emma")?.title == "Emma 5 stars")
        #expect(fixture.backend.notes.count == 1)
    }

    // MARK: Not found

    @Test("An update answered 404 while the server still has the record stays queued with a typed error")
    func misaddressed() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "server")
        var collection = NotesAPI.collection(at: fixture.backend.baseURL)
        // An update request addressed where the server has nothing (a wrong id or path).
        let base = fixture.backend.baseURL
        collection.writes.update = { note, _ in
            TestRequest(
                baseURL: base, path: "/notes/wrong-\(note.id)", method: .patch, body: .json(["title": note.title]))
        }
        let mirror = try SyncedCollection(collection, store: fixture.store, client: NotesAPI.client())
        try await mirror.sync()
        try fixture.save(Note(id: "a", title: "mine"), through: mirror)
        let error = await #expect(throws: SyncError.self) { try await mirror.sync() }
        #expect(error?.code == .misaddressedWrite)
        #expect(error?.record == "a")
        #expect(error?.message.contains("404") == true)
        // The change is still the user's, and still queued.
        #expect(try fixture.local()["a"]?.title == "mine")
        #expect(try fixture.outbox().map(\.state) == [.pending])
        #expect(fixture.backend.notes["a"]?.title == "server")
        #expect(await mirror.status.pendingCount == 1)
    }

    @Test("An update of a record deleted on the server is a conflict the policy decides, shown until then")
    func deletedThereChangedHere() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "server")
        let mirror = try fixture.mirror(conflicts: .manual)
        try await mirror.sync()
        fixture.backend.remove("a")
        try fixture.save(Note(id: "a", title: "mine"), through: mirror)
        let report = try await mirror.sync()
        #expect(report.conflicts == 1)
        let shown = try fixture.store.context.readAndWait { tx in try tx.fetch(mirror.records(Query<Note>())) }
        #expect(shown.map(\.state) == [.conflicted])
        #expect(shown.first?.record.title == "mine")
        let write = try #require(shown.first?.writes.first)
        #expect(try write.remote(as: Note.self) == nil)
        // The user keeps the change: it is created again.
        try await mirror.resolve(write, with: .keepLocal)
        try await mirror.sync()
        #expect(fixture.backend.notes["a"]?.title == "mine")
    }

    @Test(
        "A record deleted elsewhere whose read answers no record (a soft delete) meets a local edit as a deletion",
        arguments: [ConflictCheck<Note>.none, .readBeforeWrite])
    func softDeletedThereChangedHere(check: ConflictCheck<Note>) async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "server")
        var collection = NotesAPI.collection(at: fixture.backend.baseURL, conflictCheck: check)
        // The read answers a list that no longer holds the record, as a soft-deleted record that
        // the reader maps to none: no record, and no error.
        let base = fixture.backend.baseURL
        collection.writes.read = { _ in
            TestRequest(baseURL: base, path: "/notes", queryItems: [URLQueryItem(name: "limit", value: "0")])
        }
        // A reader of its own: a body that is not a note is no note (the listing's answer here).
        collection.writes.written = .custom { data, _ in try? JSONDecoder().decode(Note.self, from: data) }
        collection.writes.update = { note, _ in
            TestRequest(baseURL: base, path: "/notes/\(note.id)", method: .patch, body: .json(["title": note.title]))
        }
        let mirror = try SyncedCollection(collection, store: fixture.store, client: NotesAPI.client())
        try await mirror.sync()
        fixture.backend.remove("a")
        try fixture.save(Note(id: "a", title: "mine"), through: mirror)
        // The server wins the deletion: the row goes, nothing is refused or left queued, and the
        // next syncs go through.
        try await mirror.sync()
        try await mirror.sync()
        #expect(try fixture.local().isEmpty)
        #expect(try fixture.outbox().isEmpty)
        #expect(fixture.backend.notes.isEmpty)
        #expect(await mirror.status.rejectedCount == 0)
    }

    @Test("With the default reader, a read whose JSON is not the record keeps the write: nothing is taken for deleted")
    func anUndecodableReadIsNoDeletion() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "server")
        var collection = NotesAPI.collection(at: fixture.backend.baseURL)
        let base = fixture.backend.baseURL
        collection.writes.read = { _ in
            TestRequest(baseURL: base, path: "/notes", queryItems: [URLQueryItem(name: "limit", value: "0")])
        }
        let mirror = try SyncedCollection(collection, store: fixture.store, client: NotesAPI.client())
        try await mirror.sync()
        fixture.backend.put("a", title: "server again")
        try fixture.save(Note(id: "a", title: "mine"), through: mirror)
        let error = await #expect(throws: SyncError.self) { try await mirror.sync() }
        #expect(error?.code == .badWriteResponse)
        #expect(error?.record == "a")
        #expect(try fixture.local()["a"]?.title == "mine")
        #expect(try fixture.outbox().map(\.state) == [.pending])
        #expect(fixture.backend.notes["a"]?.title == "server again")
    }

    // MARK: Own writes

    enum Shape: String, CaseIterable, Sendable {
        /// A keyset cursor and a version, the check made by a read before the write.
        case keysetReadBeforeWrite
        /// A keyset cursor, no check.
        case keysetNoCheck
        /// A snapshot walk and no version (conflicts are found by content).
        case snapshotNoVersion
    }

    @Test(
        "An edit after two lost answers ends on the server and the device, with no conflict", arguments: Shape.allCases)
    func editAfterLostAnswers(shape: Shape) async throws {
        let fixture = try SyncFixture()
        fixture.backend.honourKeys(false)
        var collection = NotesAPI.collection(
            at: fixture.backend.baseURL, pageSize: 50, conflictCheck: shape == .keysetNoCheck ? .none : .readBeforeWrite
        )
        if shape == .snapshotNoVersion {
            collection.changes = .snapshot(request: collection.changes.request, page: collection.changes.page)
        }
        let mirror = try SyncedCollection(collection, store: fixture.store, client: NotesAPI.client())
        try fixture.save(Note(id: "a", title: "created"), through: mirror)
        fixture.backend.failWrites(.dropAfterApply(then: nil))
        _ = try? await mirror.sync()
        var note = try #require(try fixture.local()["a"])
        note.title = "first edit"
        try fixture.save(note, through: mirror)
        // The create is sent again and answered; the update's answer is lost.
        fixture.backend.failWrites(.delay(.zero), .dropAfterApply(then: nil))
        _ = try? await mirror.sync()
        #expect(fixture.backend.notes["a"]?.title == "first edit")
        note = try #require(try fixture.local()["a"])
        note.title = "second edit"
        try fixture.save(note, through: mirror)
        var report = try await mirror.sync()
        if !(try fixture.outbox().isEmpty) { report = try await mirror.sync() }
        #expect(report.conflicts == 0)
        #expect(fixture.backend.notes["a"]?.title == "second edit")
        #expect(try fixture.local()["a"]?.title == "second edit")
        #expect(try fixture.outbox().isEmpty)
        #expect(fixture.backend.applications["update:second edit"] == 1)
    }
}

extension NothingLostTests {
    @Test(
        "A write whose answer was lost is this device's own whatever it changed, nothing included: the next edit is sent",
        arguments: [ConflictPolicy<Note>.serverWins, .clientWins, .manual])
    func ownWriteThenTheNextEdit(policy: ConflictPolicy<Note>) async throws {
        for check in [ConflictCheck<Note>.none, .readBeforeWrite, .ifMatch { $0.updated }] {
            for changesTitle in [true, false] {
                let fixture = try SyncFixture()
                // A server without idempotency keys: only the record tells the write was applied.
                fixture.backend.honourKeys(false)
                fixture.backend.put("a", title: "base", body: "text")
                let mirror = try fixture.mirror(conflicts: policy, conflictCheck: check)
                try await mirror.sync()
                var note = try #require(try fixture.local()["a"])
                if changesTitle { note.title = "first edit" }
                try fixture.save(note, through: mirror)
                fixture.backend.failWrites(.dropAfterApply(then: nil))
                _ = try? await mirror.sync()
                note = try #require(try fixture.local()["a"])
                note.title = "second edit"
                try fixture.save(note, through: mirror)
                var report = try await mirror.sync()
                if !(try fixture.outbox().isEmpty) { report = try await mirror.sync() }
                let shape = "check \(check), the lost write \(changesTitle ? "changed the title" : "changed nothing")"
                #expect(report.conflicts == 0, "\(shape)")
                #expect(fixture.serverContents()["a"] == "second edit|text", "\(shape)")
                #expect(try fixture.localContents() == fixture.serverContents(), "\(shape)")
                #expect(try fixture.outbox().isEmpty, "\(shape)")
            }
        }
    }
}

// MARK: A collection whose records the server names

/// A card: the app's own key (a volume id, kept in the note's body on the server) and the
/// server's id of its record, which the server chooses for records other clients create.
struct Card: StoredEntity, Hashable {
    var id: String
    var noteID: String?
    var title: String
    var updated: String

    init(id: String, noteID: String? = nil, title: String, updated: String = "") {
        self.id = id
        self.noteID = noteID
        self.title = title
        self.updated = updated
    }
}

/// One device: its own store of cards, mirrored from the notes backend; its folder goes with it.
final class CardDevice: Sendable {
    let folder: TemporaryDirectory
    let store: ObjectStore
    let mirror: SyncedCollection<Card>

    init(_ fixture: SyncFixture, file: String = "cards.sqlite") throws {
        folder = try TemporaryDirectory(prefix: "NothingLostTests")
        store = try ObjectStore(at: folder.file(file), entities: [Card.self] + SyncSchema.entities)
        mirror = try SyncedCollection(
            Self.collection(at: fixture.backend.baseURL), store: store, client: NotesAPI.client())
    }

    deinit {
        store.close()
        folder.remove()
    }

    func card(_ id: String) throws -> Card? {
        try store.context.readAndWait { tx in try tx.fetch(Card.self, id: id) }
    }

    func outbox() throws -> [PendingWrite] {
        try store.context.readAndWait { tx in try tx.fetch(mirror.pendingWrites) }
    }

    func save(_ card: Card) throws {
        try store.context.persistAndWait { tx in try mirror.save(card, in: tx) }
    }

    func delete(_ id: String) throws {
        try store.context.persistAndWait { tx in try mirror.delete(id, in: tx) }
    }

    struct Listed: Decodable {
        var id: String
        var title: String
        var body: String
        var updated: String
        var deleted: Bool?
        var card: Card { Card(id: body, noteID: id, title: title, updated: updated) }
    }

    struct Page: Decodable {
        var items: [Listed]
        var hasMore: Bool
    }

    /// The cards collection: records listed from `/notes`, the volume in the body.
    static func collection(at base: URL) -> RemoteCollection<Card> {
        @Sendable func address(_ card: Card) -> String { card.noteID ?? "p-\(card.id)" }
        var cards = RemoteCollection<Card>(
            "cards",
            changes: .keyset(
                overlap: .none, version: { RecordVersion($0.updated) },
                request: { cursor in
                    var items = [URLQueryItem(name: "limit", value: "50")]
                    if case .keyset(let version, let id) = cursor {
                        items += [
                            URLQueryItem(name: "after", value: version.description),
                            URLQueryItem(name: "afterID", value: id),
                        ]
                    }
                    return TestRequest(baseURL: base, path: "/notes", queryItems: items)
                },
                page: .custom { data, _ in
                    let page = try JSONDecoder().decode(Page.self, from: data)
                    let cursor = page.items.last.map { SyncCursor.keyset(version: .text($0.updated), id: $0.id) }
                    return ChangePage(
                        records: page.items.filter { $0.deleted != true }.map(\.card),
                        deleted: page.items.filter { $0.deleted == true }.map(\.body), hasMore: page.hasMore,
                        cursor: cursor)
                }),
            writes: RecordWrites(
                create: { card in
                    TestRequest(
                        baseURL: base, path: "/notes", method: .post,
                        body: .json(["id": address(card), "title": card.title, "body": card.id]))
                },
                update: { card, _ in
                    TestRequest(
                        baseURL: base, path: "/notes/\(address(card))", method: .patch,
                        body: .json(["title": card.title, "body": card.id]))
                },
                delete: { card in TestRequest(baseURL: base, path: "/notes/\(address(card))", method: .delete) },
                read: { card in TestRequest(baseURL: base, path: "/notes/\(address(card))") },
                written: .custom { data, _ in
                    data.isEmpty ? nil : try JSONDecoder().decode(Listed.self, from: data).card
                },
                conflictCheck: .readBeforeWrite))
        cards.serverID = \Card.noteID
        return cards
    }
}

/// A request to the notes backend, built in the test.
struct TestRequest: Endpoint {
    var baseURL: URL
    var path: String
    var method: HTTPMethod = .get
    var queryItems: [URLQueryItem] = []
    var body: RequestBody?
}

@Suite("Status at launch, and a cursor reset")
struct LaunchStatusTests {
    @Test("A new collection over a store with unsent and refused writes shows them before any run")
    func statusAtLaunch() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "server")
        let earlier = try fixture.mirror()
        try await earlier.sync()
        try fixture.save(Note(id: "a", title: "refused by the server"), through: earlier)
        try await earlier.sync()
        try fixture.save(Note(id: "b", title: "one"), Note(id: "c", title: "two"), through: earlier)

        // The next launch: a new collection object, nothing run yet.
        let launched = try fixture.mirror()
        let status = await launched.status
        #expect(status.pendingCount == 2)
        #expect(status.rejectedCount == 1)
        #expect(status.lastPull != nil)
        var updates = launched.statusUpdates.makeAsyncIterator()
        let first = await updates.next()
        #expect(first?.pendingCount == 2)
        #expect(first?.rejectedCount == 1)
        // A write made with nothing running reaches the followers.
        try fixture.save(Note(id: "d", title: "three"), through: launched)
        var seen = first
        while seen?.pendingCount != 3 { seen = await updates.next() }
        #expect(await launched.status.pendingCount == 3)
    }

    @Test("resetCursor: the next sync reads everything again, prunes what the server dropped, keeps unsent writes")
    func resetCursor() async throws {
        let fixture = try SyncFixture(hardDeletes: true)
        for index in 0..<7 { fixture.backend.put("n\(index)", title: "s\(index)") }
        let mirror = try fixture.mirror()
        try await mirror.sync()
        // Gone from the server without a tombstone: an incremental pull never hears of it.
        fixture.backend.remove("n3")
        try await mirror.sync()
        #expect(try fixture.local()["n3"] != nil)
        fixture.backend.failWrites(.status(503, retryAfter: nil))
        try fixture.save(Note(id: "mine", title: "local"), through: mirror)
        try await mirror.resetCursor()
        let report = try? await mirror.sync()
        #expect(report == nil)  // the write failed on the way; the pull went through
        #expect(try fixture.local()["n3"] == nil)
        #expect(try fixture.local()["mine"]?.title == "local")
        try await mirror.sync()
        #expect(try fixture.localContents() == fixture.serverContents())
        #expect(fixture.backend.notes["mine"]?.title == "local")
    }
}

@Suite("Writes made around a synced collection")
struct GuardedWriteTests {
    @Test("A persist block that writes a synced entity straight through the store is rolled back with a typed error")
    func refused() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "server")
        let mirror = try fixture.mirror()
        try await mirror.sync()
        var note = try #require(try fixture.local()["a"])
        note.title = "around the collection"
        let error = #expect(throws: SyncError.self) {
            try fixture.store.context.persistAndWait { tx in try tx.update(note) }
        }
        #expect(error?.code == .refusedWrite)
        #expect(error?.message.contains("SyncedCollection.save(_:as:in:)") == true)
        #expect(try fixture.local()["a"]?.title == "server")
        #expect(throws: SyncError.self) {
            try fixture.store.context.persistAndWait { tx in _ = try tx.delete(Note.self, id: "a") }
        }
        #expect(try fixture.local()["a"] != nil)
        // Through the collection, the same change is queued and sent.
        try fixture.save(note, through: mirror)
        try await mirror.sync()
        #expect(fixture.backend.notes["a"]?.title == "around the collection")
    }
}

@Suite("Saving as a create or an update")
struct SaveAsTests {
    @Test("A row stored by an upsert with rules in the same block is queued as the create it is")
    func upsertThenCreate() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror()
        try fixture.store.context.persistAndWait { tx in
            let note = Note(id: "a", title: "kept title")
            let outcome = try tx.upsert(note, onConflict: [.keep(Note.title)])
            try mirror.save(note, as: outcome == .inserted ? .create : .update, in: tx)
        }
        #expect(try fixture.outbox().map(\.operation) == [.create])
        try await mirror.sync()
        #expect(fixture.backend.notes["a"]?.title == "kept title")
        #expect(fixture.backend.applications["create:kept title"] == 1)
        let error = #expect(throws: SyncError.self) {
            try fixture.store.context.persistAndWait { tx in
                try mirror.save(Note(id: "a", title: "x"), as: .delete, in: tx)
            }
        }
        #expect(error?.code == .misuse)
    }
}

@Suite("A description that cannot work is refused where it is made")
struct RefusedDescriptionTests {
    @Test("A keyset cursor without a version, or a read-before-write check without a read, is refused at once")
    func refused() throws {
        let fixture = try SyncFixture()
        var noVersion = NotesAPI.collection(at: fixture.backend.baseURL)
        noVersion.changes.version = nil
        let keyset = #expect(throws: SyncError.self) {
            _ = try SyncedCollection(noVersion, store: fixture.store, client: NotesAPI.client())
        }
        #expect(keyset?.code == .misuse)
        #expect(keyset?.message.contains("ChangeFeed.version") == true)
        var noRead = NotesAPI.collection(at: fixture.backend.baseURL, conflictCheck: .readBeforeWrite)
        noRead.writes.read = nil
        let check = #expect(throws: SyncError.self) {
            _ = try SyncedCollection(noRead, store: fixture.store, client: NotesAPI.client())
        }
        #expect(check?.message.contains("RecordWrites.read") == true)
    }

    @Test("A page whose cursor is not of the collection's kind fails with the page named")
    func cursorOfAnotherKind() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "one")
        var collection = NotesAPI.collection(at: fixture.backend.baseURL)
        collection.changes.page = collection.changes.page.map { page in
            var page = page
            page.cursor = .token("opaque")
            return page
        }
        let mirror = try SyncedCollection(collection, store: fixture.store, client: NotesAPI.client())
        let error = await #expect(throws: SyncError.self) { try await mirror.sync() }
        #expect(error?.code == .undecodablePage)
        #expect(error?.message.contains("ChangePage.cursor") == true)
        #expect(try fixture.local().isEmpty)
    }
}
