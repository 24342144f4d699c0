import Foundation
import Persistence
import TestSupport
import Testing

/// A row with a server's version, for ``ConflictRule/onlyIfNewer(_:)``.
struct VersionedNote: StoredEntity, Equatable {
    var id: String
    var title: String
    var updated: String?
    var revision: Int64 = 0
    var rating: Int?
    var attachment: Data?

    static let entityName = "VersionedNote"
    static let updated = Field<VersionedNote, String?>("updated")
    static let revision = Field<VersionedNote, Int64>("revision")
    static let rating = Field<VersionedNote, Int?>("rating")
    static let attachment = Field<VersionedNote, Data?>("attachment")
}

/// Upserts that compare a version in the statement: a row is never moved back, nor written again
/// at the version it has.
@Suite struct VersionedUpsertTests {
    private func open(_ fixture: StoreFixture) throws -> ObjectStore {
        try fixture.open([VersionedNote.self])
    }

    private func stored(_ store: ObjectStore) throws -> VersionedNote? {
        try store.context.readAndWait { tx in try tx.fetch(VersionedNote.self, id: "a") }
    }

    @Test func aNewerVersionUpdatesTheRowAndAnOlderOrEqualOneLeavesItWhole() throws {
        let fixture = try StoreFixture()
        let store = try open(fixture)
        let rule: [ConflictRule<VersionedNote>] = [.onlyIfNewer(VersionedNote.updated)]
        let outcomes = try store.context.persistAndWait { tx in
            [
                try tx.upsert(
                    VersionedNote(id: "a", title: "one", updated: "2026-11-25 10:00:00.000Z"), onConflict: rule),
                try tx.upsert(
                    VersionedNote(id: "a", title: "two", updated: "2026-11-25 10:00:01.000Z"), onConflict: rule),
                // Older, then equal: nothing written, not even the title.
                try tx.upsert(
                    VersionedNote(id: "a", title: "old", updated: "2026-11-25 09:59:59.999Z"), onConflict: rule),
                try tx.upsert(
                    VersionedNote(id: "a", title: "same", updated: "2026-11-25 10:00:01.000Z"), onConflict: rule),
            ]
        }
        #expect(outcomes == [.inserted, .updated, .kept, .kept])
        #expect(try stored(store) == VersionedNote(id: "a", title: "two", updated: "2026-11-25 10:00:01.000Z"))
    }

    @Test func aMissingVersionOnEitherSideUpdates() throws {
        let fixture = try StoreFixture()
        let store = try open(fixture)
        let rule: [ConflictRule<VersionedNote>] = [.onlyIfNewer(VersionedNote.updated)]
        let outcomes = try store.context.persistAndWait { tx in
            [
                try tx.upsert(VersionedNote(id: "a", title: "unversioned", updated: nil), onConflict: rule),
                try tx.upsert(VersionedNote(id: "a", title: "versioned", updated: "2026-01-01"), onConflict: rule),
                try tx.upsert(VersionedNote(id: "a", title: "unversioned again", updated: nil), onConflict: rule),
            ]
        }
        #expect(outcomes == [.inserted, .updated, .updated])
        #expect(try stored(store)?.title == "unversioned again")
    }

    @Test func numbersCompareByValueAndKeptPropertiesStayKept() throws {
        let fixture = try StoreFixture()
        let store = try open(fixture)
        let rules: [ConflictRule<VersionedNote>] = [.keep(VersionedNote.rating), .onlyIfNewer(VersionedNote.revision)]
        let outcomes = try store.context.persistAndWait { tx in
            [
                try tx.upsert(VersionedNote(id: "a", title: "r9", revision: 9, rating: 5), onConflict: rules),
                // 10 > 9 as numbers (as texts "10" < "9").
                try tx.upsert(VersionedNote(id: "a", title: "r10", revision: 10, rating: nil), onConflict: rules),
                try tx.upsert(VersionedNote(id: "a", title: "r2", revision: 2, rating: 1), onConflict: rules),
            ]
        }
        #expect(outcomes == [.inserted, .updated, .kept])
        #expect(try stored(store) == VersionedNote(id: "a", title: "r10", revision: 10, rating: 5))
    }

    @Test func aKeptRowIsNotAChangeForObserversNorTheCommit() async throws {
        let fixture = try StoreFixture()
        let store = try open(fixture)
        try await store.context.persist { tx in try tx.insert(VersionedNote(id: "a", title: "new", revision: 2)) }
        let seen = Collector<[String]>()
        let token = store.observe(.query(Query<VersionedNote>())) { change in seen.append(change.results.map(\.title)) }
        defer { token.cancel() }
        try await waitUntil("the first delivery") { seen.count == 1 }
        try await store.context.persist { tx in
            try tx.upsert(
                VersionedNote(id: "a", title: "stale", revision: 1), onConflict: [.onlyIfNewer(VersionedNote.revision)])
        }
        try await store.context.persist { tx in
            try tx.upsert(
                VersionedNote(id: "a", title: "newer", revision: 3), onConflict: [.onlyIfNewer(VersionedNote.revision)])
        }
        try await waitUntil("the newer row's delivery") { seen.values.last == ["newer"] }
        #expect(seen.values == [["new"], ["newer"]])
    }

    @Test func aVersionThatDoesNotOrderOrIsCombinedWithAnAdditionIsRefusedBeforeAnythingIsWritten() throws {
        let fixture = try StoreFixture()
        let store = try open(fixture)
        let note = VersionedNote(id: "a", title: "one", revision: 1)
        let cases: [(rules: [ConflictRule<VersionedNote>], property: String)] = [
            ([.onlyIfNewer(VersionedNote.attachment)], "attachment"),
            ([.onlyIfNewer(VersionedNote.revision), .onlyIfNewer(VersionedNote.updated)], "updated"),
            ([.onlyIfNewer(VersionedNote.revision), .assign(VersionedNote.rating += 1)], "revision"),
        ]
        for (rules, property) in cases {
            let error = #expect(throws: PersistenceError.self) {
                try store.context.persistAndWait { tx in try tx.upsert(note, onConflict: rules) }
            }
            #expect(error?.code == .misuse)
            #expect(error?.property == property)
        }
        #expect(try stored(store) == nil, "nothing was written")
    }
}
