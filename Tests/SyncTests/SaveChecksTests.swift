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

/// A record whose own property is sent under an operator key (`"count+"`): what the REST preset
/// would send as it is.
nonisolated struct TallyNote: StoredEntity, Hashable {
    var id: String
    var count: Int
    var updated: String?

    enum CodingKeys: String, CodingKey {
        case id, updated
        case count = "count+"
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

    @Test("A record whose own key ends in an operator is refused when saved, created or updated")
    func aRecordsOwnOperatorKeyIsRefused() async throws {
        let device = try Device()
        let mirror = try SyncedCollection(
            RemoteCollection<TallyNote>.rest("notes", at: device.url, version: \.updated),
            store: device.store, client: NotesAPI.client())
        for operation in [PendingWrite.Operation.create, .update] {
            let error = #expect(throws: SyncError.self) {
                try device.store.context.persistAndWait { tx in
                    try mirror.save(TallyNote(id: "t", count: 1), as: operation, in: tx)
                }
            }
            #expect(error?.code == .refusedWrite)
            #expect(error?.message.contains("count+") == true)
        }
        #expect(try device.outboxCount() == 0)
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
        let keys = try device.store.context.readAndWait { tx in try tx.fetch(Query<PendingWrite>()).map(\.id) }
        #expect(keys.count == 200)
        #expect(Set(keys).count == 200)
        for key in keys {
            #expect(key.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil, "\(key)")
            #expect(UUID(uuidString: key) != nil)
        }
    }
}
