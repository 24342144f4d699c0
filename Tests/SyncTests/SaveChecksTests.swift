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

/// A record with a property sent under an operator key (`"likes+"`): what the REST preset
/// would send as it is.
nonisolated struct TallyNote: StoredEntity, Hashable {
    var id: String
    var title = ""
    var likes: Int?
    var updated: String?

    enum CodingKeys: String, CodingKey {
        case id, title, updated
        case likes = "likes+"
    }
}

/// The REST preset's saves check the record's own keys (its bodies carry no others) rather than
/// building the request; a preset whose create or update the app replaced builds its request.
@Suite("Operator keys through the REST preset")
struct RESTPresetOperatorTests {
    /// A store and a backend, removed at the end.
    final class Device: Sendable {
        let folder: TemporaryDirectory
        let store: ObjectStore
        let backend = NotesBackend()

        init() throws {
            folder = try TemporaryDirectory(prefix: "RESTPresetOperator")
            store = try ObjectStore(
                at: folder.file("notes.sqlite"), entities: [TallyNote.self, RESTNote.self] + SyncSchema.entities)
        }

        deinit {
            store.close()
            folder.remove()
        }

        var url: URL { backend.baseURL.appendingPathComponent("notes") }

        func outboxCount() throws -> Int {
            try store.context.readAndWait { tx in try tx.count(Query<PendingWrite>()) }
        }
    }

    /// The preset's collection of tally notes on `device`, after storing `stored` as synced rows.
    static func tallies(_ device: Device, storing stored: [TallyNote] = []) throws -> SyncedCollection<TallyNote> {
        // Rows stored before the collection exists, as a pull would have left them.
        try device.store.context.persistAndWait { tx in for row in stored { try tx.upsert(row) } }
        return try SyncedCollection(
            RemoteCollection<TallyNote>.rest("notes", at: device.url, version: \.updated),
            store: device.store, client: NotesAPI.client())
    }

    /// Saves `note` through `mirror`, returning the error's code, or `nil` when the save went.
    static func save(
        _ note: TallyNote, as operation: PendingWrite.Operation? = nil, through mirror: SyncedCollection<TallyNote>,
        on device: Device
    ) -> SyncError.Code? {
        do {
            try device.store.context.persistAndWait { tx in try mirror.save(note, as: operation, in: tx) }
            return nil
        } catch let error as SyncError {
            return error.code
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test("A new record whose own key ends in an operator is refused, created or updated")
    func aNewRecordsOperatorKeyIsRefused() async throws {
        let device = try Device()
        let mirror = try Self.tallies(device)
        for operation in [PendingWrite.Operation.create, .update] {
            let code = Self.save(TallyNote(id: "t", likes: 1), as: operation, through: mirror, on: device)
            #expect(code == .refusedWrite)
        }
        #expect(try device.outboxCount() == 0)
    }

    @Test("An update of a stored row is checked by the fields it sends: a cleared operator key is refused")
    func anUpdateIsCheckedByTheFieldsItSends() async throws {
        let device = try Device()
        let mirror = try Self.tallies(device, storing: [TallyNote(id: "a", title: "x", likes: 3)])
        // The record no longer has the property: the body sends `"likes+": null`.
        #expect(Self.save(TallyNote(id: "a", title: "x"), through: mirror, on: device) == .refusedWrite)
        #expect(try device.outboxCount() == 0)
        // The operator key unchanged, another field edited: the body sends only the title.
        #expect(Self.save(TallyNote(id: "a", title: "y", likes: 3), through: mirror, on: device) == nil)
        #expect(try device.outboxCount() == 1)
    }

    @Test("A preset whose create the app replaced is checked by the body it builds")
    func aReplacedCreateIsCheckedByItsBody() async throws {
        let device = try Device()
        var notes = RemoteCollection<RESTNote>.rest("notes", at: device.url, version: \.updated)
        let url = device.url
        notes.writes.create = { _ in
            TestRequest(baseURL: url, path: "", method: .post, body: .json(["likes+": 1]))
        }
        let mirror = try SyncedCollection(notes, store: device.store, client: NotesAPI.client())
        let error = #expect(throws: SyncError.self) {
            try device.store.context.persistAndWait { tx in try mirror.save(RESTNote(id: "a", title: "x"), in: tx) }
        }
        #expect(error?.code == .refusedWrite)
        #expect(try device.outboxCount() == 0)
    }
}

@Suite("Idempotency keys")
struct IdempotencyKeyTests {
    @Test("Each write gets its own random key, a version 4 UUID in lowercase")
    func keysAreDistinctVersion4UUIDs() async throws {
        let device = try RESTPresetOperatorTests.Device()
        let mirror = try SyncedCollection(
            RemoteCollection<RESTNote>.rest("notes", at: device.url, version: \.updated), store: device.store,
            client: NotesAPI.client())
        try device.store.context.persistAndWait { tx in
            for index in 0..<200 { try mirror.save(RESTNote(id: "n\(index)", title: "t"), in: tx) }
        }
        let keys = try device.store.context.readAndWait { tx in try tx.fetch(Query<PendingWrite>()).map(\.key) }
        #expect(keys.count == 200)
        #expect(Set(keys).count == 200)
        for key in keys {
            #expect(key.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil, "\(key)")
            #expect(UUID(uuidString: key) != nil)
        }
    }
}
