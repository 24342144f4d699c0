import FetchKit
import Foundation
import Persistence
import Sync
import SyncHarness
import Testing

@Suite("Pull: pages, cursors, tombstones, resync")
struct PullTests {
    @Test("A first sync mirrors every page; a later one brings changes and tombstones with one request")
    func incremental() async throws {
        let fixture = try SyncFixture()
        for index in 0..<12 { fixture.backend.put("n\(index)", title: "note \(index)") }
        let mirror = try fixture.mirror()
        let first = try await mirror.sync()
        #expect(first.pagesApplied == 3)
        #expect(try fixture.localContents() == fixture.serverContents())

        fixture.backend.put("n3", title: "changed")
        fixture.backend.remove("n5")
        fixture.backend.put("n99", title: "new")
        let second = try await mirror.sync()
        #expect(second.recordsDeleted == 1)
        #expect(try fixture.localContents() == fixture.serverContents())

        // Nothing changed: one request, which re-reads the overlap window (here every note,
        // stamped within five seconds of the last) in one page.
        let before = fixture.backend.listRequests
        let idle = try await fixture.mirror(pageSize: 50).sync()
        #expect(fixture.backend.listRequests - before == 1)
        #expect(idle.recordsDeleted == 0)
        #expect(try fixture.localContents() == fixture.serverContents())
    }

    @Test("A change stamped behind the cursor (a clock that jumps back) is found inside the overlap window")
    func clockJump() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "one")
        let mirror = try fixture.mirror(overlap: .time(.seconds(5)))
        try await mirror.sync()
        fixture.backend.jumpClock(by: -2_000)
        fixture.backend.put("b", title: "two")
        try await mirror.sync()
        #expect(try fixture.local()["b"]?.title == "two")
    }

    @Test("Without the overlap window the same jump loses the change (the guarantee can fail)")
    func clockJumpWithoutOverlap() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "one")
        let mirror = try fixture.mirror(overlap: .none)
        try await mirror.sync()
        fixture.backend.jumpClock(by: -2_000)
        fixture.backend.put("b", title: "two")
        try await mirror.sync()
        #expect(try fixture.local()["b"] == nil)
    }

    @Test("An expired cursor starts one full resync: hard deletes are pruned, unsent writes kept")
    func expiredCursor() async throws {
        let fixture = try SyncFixture(hardDeletes: true)
        for index in 0..<8 { fixture.backend.put("n\(index)", title: "note \(index)") }
        let mirror = try fixture.mirror()
        try await mirror.sync()
        fixture.backend.remove("n2")
        fixture.backend.put("n3", title: "changed")
        fixture.backend.expireCursors()
        fixture.backend.failWrites(.status(503, retryAfter: nil))
        try fixture.save(Note(id: "mine", title: "local"), through: mirror)
        await #expect(throws: SyncError.self) { try await mirror.sync() }
        let local = try fixture.local()
        #expect(local["n2"] == nil)
        #expect(local["n3"]?.title == "changed")
        #expect(local["mine"]?.title == "local")
        #expect(try fixture.outbox().map(\.recordID) == ["mine"])
        let report = try await mirror.sync()
        #expect(!report.resynced)
        #expect(try fixture.localContents() == fixture.serverContents())
    }

    @Test("A server that rejects the full listing as a cursor too ends the run with an error, not a loop")
    func rejectedListing() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "one")
        let mirror = try fixture.mirror()
        try await mirror.sync()
        fixture.backend.failLists(.status(410, retryAfter: nil), .status(410, retryAfter: nil))
        let error = await #expect(throws: SyncError.self) { try await mirror.sync() }
        #expect(error?.code == .cursorRejected)
        #expect(error?.collection == "notes")
        #expect(fixture.backend.listRequests <= 4)
        #expect(await mirror.status.error?.code == .cursorRejected)
    }

    @Test("A page that does not decode is a typed error naming the page; nothing of it is applied")
    func undecodablePage() async throws {
        let fixture = try SyncFixture()
        fixture.backend.server.route("GET", "/notes", respond: .json(#"{"items":[{"id":1}],"hasMore":false}"#))
        let mirror = try fixture.mirror()
        let error = await #expect(throws: SyncError.self) { try await mirror.sync() }
        #expect(error?.code == .undecodablePage)
        #expect(error?.page == "first")
        #expect(try fixture.local().isEmpty)
    }

    @Test("Reconciliation deletes rows the server deleted without a tombstone")
    func reconciliation() async throws {
        let fixture = try SyncFixture(hardDeletes: true)
        for index in 0..<7 { fixture.backend.put("n\(index)", title: "note \(index)") }
        let mirror = try fixture.mirror(reconcileEvery: .zero)
        try await mirror.sync()
        fixture.backend.remove("n4")
        let report = try await mirror.sync()
        #expect(report.reconciled)
        #expect(try fixture.local()["n4"] == nil)
        #expect(try fixture.localContents() == fixture.serverContents())
    }

    @Test("Reconciliation runs at its interval: not again before it has passed, the hard delete found when it has")
    func reconciliationInterval() async throws {
        let fixture = try SyncFixture(hardDeletes: true)
        for index in 0..<4 { fixture.backend.put("n\(index)", title: "note \(index)") }
        let hourly = try fixture.mirror(reconcileEvery: .seconds(3600))
        #expect(try await hourly.sync().reconciled)
        fixture.backend.remove("n1")
        let soon = try await hourly.sync()
        #expect(!soon.reconciled)
        #expect(try fixture.local()["n1"] != nil)
        // The last reconciliation is kept in the store: a mirror whose interval has passed
        // (here, one of zero) reconciles on its next run.
        let due = try await fixture.mirror(reconcileEvery: .zero).sync()
        #expect(due.reconciled)
        #expect(try fixture.local()["n1"] == nil)
        #expect(try fixture.localContents() == fixture.serverContents())
    }

    @Test("A pull never moves a row back to an older version")
    func neverBackwards() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "one")
        let mirror = try fixture.mirror()
        try await mirror.sync()
        let newer = try #require(try fixture.local()["a"])
        // A row stamped ahead of the server (raw SQL: the collection refuses typed writes made around it).
        try await fixture.store.context.persist { tx in
            try tx.execute(
                #"UPDATE "Note" SET "updated" = ?, "title" = ? WHERE "id" = ?"#,
                [.text("2999-01-01 00:00:00.000Z"), .text("from the future"), .text(newer.id)])
        }
        fixture.backend.put("a", title: "older")
        try await mirror.sync()
        #expect(try fixture.local()["a"]?.title == "from the future")
    }
    @Test("A first pull holds the store's page cache to 8 MiB while it writes; later pulls use the store's own")
    func firstPullPageCache() async throws {
        let fixture = try SyncFixture()
        // About 20 MB of records: more than the first pull's cache, less than the store's 64 MiB.
        let body = String(repeating: "b", count: 4_000)
        for index in 0..<5_000 { fixture.backend.put("n\(index)", title: "note \(index)", body: body) }
        let mirror = try fixture.mirror(pageSize: 1_000)
        func cache() throws -> (size: Int64?, used: Int) {
            try fixture.store.context.readAndWait { tx in
                (try tx.rows("PRAGMA cache_size").first?[0].integerValue, tx.pageCacheUsed)
            }
        }
        let first = try await mirror.sync()
        #expect(first.recordsApplied == 5_000)
        let afterFirst = try cache()
        #expect(afterFirst.size == -65_536)
        #expect(afterFirst.used <= 9 << 20)

        // A later pull (the first finished) of every record changed uses the store's cache.
        let changed = String(repeating: "c", count: 4_000)
        for index in 0..<5_000 { fixture.backend.put("n\(index)", title: "note \(index)", body: changed) }
        let again = try await mirror.sync()
        #expect(again.recordsApplied == 5_000)
        #expect(try cache().used > 16 << 20)
        #expect(try fixture.localContents() == fixture.serverContents())
    }
}
