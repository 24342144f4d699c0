import FetchKit
import Foundation
import Persistence
import SyncHarness
import TestSupport
import Testing

@testable import Sync

/// A record with a creation and a change stamp, and a revision.
nonisolated struct StampedRecord: StoredEntity, Hashable {
    var id: String
    var created: String
    var updated: String?
    var revision: Int64
    var title: String
}

/// A note with a local-only count of the server versions stored over it.
nonisolated struct CountedNote: StoredEntity, Hashable {
    var id: String
    var title: String
    var body = ""
    var updated: String?
    /// Not in the server's JSON: 0 until counted.
    var versionsSeen = 0

    static let versionsSeen = Field<CountedNote, Int>("versionsSeen")

    enum CodingKeys: String, CodingKey { case id, title, body, updated, versionsSeen }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        body = try container.decodeIfPresent(String.self, forKey: .body) ?? ""
        updated = try container.decodeIfPresent(String.self, forKey: .updated)
        versionsSeen = try container.decodeIfPresent(Int.self, forKey: .versionsSeen) ?? 0
    }
}

@Suite("A pull compares versions in its upserts when the version is one stored property")
struct VersionColumnTests {
    let record = StampedRecord(
        id: "a", created: "2026-11-25 10:00:00.000Z", updated: "2026-11-25 10:00:00.000Z", revision: 7, title: "7")

    @Test("The probe finds the property the version reads, among others with the same value")
    func findsTheProperty() {
        #expect(VersionColumn.probe(record, { $0.updated.map(RecordVersion.init) }, keeping: []) == .column("updated"))
        #expect(
            VersionColumn.probe(record, { $0.created.isEmpty ? nil : RecordVersion($0.created) }, keeping: [])
                == .column("created"))
        #expect(VersionColumn.probe(record, { RecordVersion($0.revision) }, keeping: []) == .column("revision"))
    }

    @Test("A version computed from several properties, transformed, or kept from the stored row is read instead")
    func otherwiseReads() {
        // Two properties: no one property is the version.
        #expect(
            VersionColumn.probe(record, { RecordVersion($0.created + $0.title) }, keeping: []) == VersionColumn.none)
        // The revision's text (it equals the title), not the revision itself: the number column would
        // not order as the text does.
        #expect(VersionColumn.probe(record, { RecordVersion(String($0.revision)) }, keeping: []) == VersionColumn.none)
        #expect(VersionColumn.probe(record, { $0.updated.map(RecordVersion.init) }, keeping: ["updated"]) == .none)
        // One property or, when it is missing, another: the stored row's other property could be
        // the newer version.
        #expect(VersionColumn.probe(record, { RecordVersion($0.updated ?? $0.created) }, keeping: []) == .none)
        // The larger of two, a transformed text, a clamped number: each fails a trial value.
        #expect(VersionColumn.probe(record, { RecordVersion(max($0.updated ?? "", $0.created)) }, keeping: []) == .none)
        #expect(
            VersionColumn.probe(record, { $0.updated.map { RecordVersion($0.lowercased()) } }, keeping: []) == .none)
        #expect(VersionColumn.probe(record, { RecordVersion(min($0.revision, 1_000_000)) }, keeping: []) == .none)
        #expect(VersionColumn.probe(record, { RecordVersion(max($0.revision, 0)) }, keeping: []) == .none)
        // An empty text read as no version still names the property (`""` orders first in SQL too).
        #expect(
            VersionColumn.probe(record, { $0.updated.flatMap { $0.isEmpty ? nil : RecordVersion($0) } }, keeping: [])
                == .column("updated"))
        // No version on the record: not known yet.
        var unstamped = record
        unstamped.updated = nil
        #expect(VersionColumn.probe(unstamped, { $0.updated.map(RecordVersion.init) }, keeping: []) == .unprobed)
    }

    @Test("A collection whose kept rules the store cannot combine with a version test reads the stored versions")
    func fallsBackWhenTheStoreRefusesTheTest() async throws {
        let backend = NotesBackend()
        try backend.start()
        defer { backend.server.stop() }
        let folder = try TemporaryDirectory(prefix: "VersionColumn")
        defer { folder.remove() }
        let store = try ObjectStore(at: folder.file("notes.sqlite"), entities: [CountedNote.self] + SyncSchema.entities)
        defer { store.close() }
        var notes = RemoteCollection<CountedNote>.rest(
            "notes", at: backend.baseURL.appendingPathComponent("notes"), version: \.updated, pageSize: 2)
        // An addition on conflict: the store refuses it beside a version test.
        notes.keeping = [.assign(CountedNote.versionsSeen += 1)]
        let mirror = try SyncedCollection(notes, store: store, client: NotesAPI.client())
        backend.put("a", title: "one")
        try await mirror.sync()
        backend.put("a", title: "two")
        let report = try await mirror.sync()
        #expect(report.recordsApplied == 1)
        let stored = try store.context.readAndWait { tx in try tx.fetch(CountedNote.self, id: "a") }
        #expect(stored?.title == "two")
        #expect(stored?.versionsSeen == 1)
        #expect(mirror.versionColumn.withLock { $0 } == VersionColumn.none)
        // The same version again (a re-read) is still not applied.
        let again = try await mirror.sync()
        #expect(again.recordsApplied == 0)
        #expect(try store.context.readAndWait { tx in try tx.fetch(CountedNote.self, id: "a") }?.versionsSeen == 1)
    }

    @Test("Once found, a pull stores a newer version and never moves a row back, with no read before")
    func usesTheColumn() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "one")
        fixture.backend.put("b", title: "two")
        let mirror = try fixture.mirror()
        try await mirror.sync()
        fixture.backend.put("a", title: "one, changed")
        let report = try await mirror.sync()
        #expect(report.recordsApplied == 1)
        #expect(mirror.versionColumn.withLock { $0 } == .column("updated"))
        #expect(try fixture.local()["a"]?.title == "one, changed")
    }
}
