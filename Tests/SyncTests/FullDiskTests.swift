import Foundation
import Persistence
import Sync
import SyncHarness
import Testing

/// A full disk (the store file capped at its size with `max_page_count`, as SQLite reports a
/// full disk): a typed error naming the collection and the page, nothing applied half, nothing
/// local lost, and the next sync after space is freed ends equal to the server.
@Suite("A full disk: typed errors, nothing half applied, nothing lost")
struct FullDiskTests {
    @Test("A page that does not fit fails the pull with the page named; the next sync brings it")
    func pullIntoAFullStore() async throws {
        let fixture = try SyncFixture()
        for index in 0..<3 { fixture.backend.put("n\(index)", title: "note \(index)") }
        let mirror = try fixture.mirror(pageSize: 2)
        try await mirror.sync()
        for index in 0..<4 {
            fixture.backend.put("big\(index)", title: "big \(index)", body: String(repeating: "z", count: 200_000))
        }
        try cap(fixture.store)
        do {
            try await mirror.sync()
            Issue.record("a page of 400 KB was stored in a full store")
        } catch {
            #expect(error.code == .storeFailed)
            #expect(error.collection == "notes")
            #expect(error.page != nil)
            #expect(error.persistenceError?.code == .diskFull)
        }
        #expect(await mirror.status.error?.persistenceError?.code == .diskFull)
        // The page's records and its cursor commit together: none of the large notes is stored.
        #expect(try fixture.local().keys.sorted() == ["n0", "n1", "n2"])

        try uncap(fixture.store)
        try await mirror.sync()
        #expect(try fixture.localContents() == fixture.serverContents())
        #expect(await mirror.status.error == nil)
    }

    @Test("A local write that does not fit is refused whole: no row and no outbox entry")
    func writeIntoAFullStore() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror()
        try fixture.save(Note(id: "kept", title: "kept"), through: mirror)
        try cap(fixture.store)
        #expect {
            try fixture.save(Note(id: "big", title: "big", body: String(repeating: "z", count: 400_000)), through: mirror)
        } throws: { error in
            (error as? PersistenceError)?.code == .diskFull
        }
        #expect(try fixture.local().keys.sorted() == ["kept"])
        #expect(try fixture.outbox().map(\.recordID) == ["kept"])

        try uncap(fixture.store)
        try await mirror.sync()
        #expect(fixture.backend.notes.keys.sorted() == ["kept"])
        #expect(try fixture.outbox().isEmpty)
    }

    /// Caps the store's file at its current size: a write that needs a new page fails with
    /// `SQLITE_FULL`.
    private func cap(_ store: ObjectStore) throws {
        try store.context.persistAndWait { tx in
            let pages = try tx.rows("PRAGMA page_count").first?[0].integerValue ?? 0
            _ = try tx.rows("PRAGMA max_page_count = \(pages)")
        }
    }

    private func uncap(_ store: ObjectStore) throws {
        try store.context.persistAndWait { tx in _ = try tx.rows("PRAGMA max_page_count = 1073741823") }
    }
}
