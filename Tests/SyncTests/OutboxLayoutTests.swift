import Foundation
import Persistence
import SyncHarness
import TestSupport
import Testing

@testable import Sync

/// The outbox's table: in sending order (the sequence is its rowid), one index by record, and
/// writes told apart by their keys where a number may be given again.
@Suite("The outbox's layout")
struct OutboxLayoutTests {
    /// The outbox as stores made it before it was kept in order: keyed by the idempotency key.
    static let olderOutbox =
        #"CREATE TABLE "SyncPendingWrite" ("id" TEXT NOT NULL PRIMARY KEY, "collection" TEXT NOT NULL, "#
        + #""recordID" TEXT NOT NULL, "operation" TEXT NOT NULL, "state" TEXT NOT NULL, "#
        + #""sequence" INTEGER NOT NULL, "attempts" INTEGER NOT NULL, "nextAttempt" REAL, "lastError" TEXT, "#
        + #""reason" TEXT, "schemaVersion" INTEGER NOT NULL, "createdAt" REAL NOT NULL, "#
        + #""identity" BLOB NOT NULL, "payload" BLOB, "base" BLOB, "remote" BLOB, "origin" BLOB)"#

    /// Runs `body` with the file of a store whose outbox was made in the older layout, `fill`
    /// having written in the same transaction; the store's folder is removed afterwards.
    static func withOlderStore(_ fill: (ObjectTransaction) throws -> Void, _ body: (URL) throws -> Void) throws {
        let folder = try TemporaryDirectory(prefix: "OutboxLayoutTests")
        defer { folder.remove() }
        let url = folder.file("old.sqlite")
        let old = try ObjectStore(at: url, entities: [Note.self])
        try old.context.persistAndWait { tx in
            try tx.execute(Self.olderOutbox)
            try fill(tx)
        }
        old.close()
        try body(url)
    }

    @Test("A store whose outbox was made in the older layout does not open, names the table, and keeps its writes")
    func olderLayoutRefused() throws {
        try Self.withOlderStore { tx in
            try tx.execute(
                #"INSERT INTO "SyncPendingWrite" VALUES ('k1', 'notes', 'a', 'create', 'pending', 1, 0, NULL, NULL, "#
                    + #"NULL, 1, 0, X'2261', X'7B7D', NULL, NULL, NULL)"#)
        } _: { url in
            let error = #expect(throws: PersistenceError.self) {
                try ObjectStore(at: url, entities: [Note.self] + SyncSchema.entities).close()
            }
            #expect(error?.code == .incompatibleSchema)
            #expect(error?.entity == "SyncPendingWrite")
            let kept = try ObjectStore(at: url, entities: [Note.self])
            defer { kept.close() }
            #expect(
                try kept.context.readAndWait { tx in try tx.rows(#"SELECT "id" FROM "SyncPendingWrite""#).count } == 1)
        }
    }

    @Test("A store whose outbox was made in the older layout and holds no write opens, the outbox made again")
    func emptyOlderLayoutRebuilt() throws {
        try Self.withOlderStore { tx in
            try tx.insert(Note(id: "a", title: "kept", body: "", updated: ""))
        } _: { url in
            let store = try ObjectStore(at: url, entities: [Note.self] + SyncSchema.entities)
            defer { store.close() }
            let (primaryKey, notes) = try store.context.readAndWait { tx in
                (
                    try tx.rows(#"SELECT name FROM pragma_table_info('SyncPendingWrite') WHERE pk = 1"#).first?[0],
                    try tx.fetch(Query<Note>())
                )
            }
            #expect(primaryKey == .text("sequence"))
            #expect(notes.map(\.title) == ["kept"])
        }
    }

    @Test("A record's writes and a push's windows are read in the table's order: nothing is sorted")
    func readInOrder() throws {
        let fixture = try SyncFixture()
        let plans = try fixture.store.context.readAndWait { tx in
            try [
                (OutboxTable.recordWritesSQL, [DatabaseValue.text("notes"), .text("a")]),
                (OutboxTable.windowSQL, [.text("notes"), .integer(0), .integer(64)]),
            ].map { sql, arguments in
                try tx.rows("EXPLAIN QUERY PLAN " + sql, arguments).compactMap { $0[3].textValue }.joined(
                    separator: "; ")
            }
        }
        #expect(plans[0].contains("fk_index_SyncPendingWrite_collection_recordID"), "\(plans[0])")
        #expect(plans[1].contains("PRIMARY KEY") || plans[1].hasPrefix("SCAN"), "\(plans[1])")
        for plan in plans { #expect(!plan.contains("TEMP B-TREE"), "\(plan)") }
    }

    @Test("A record's writes come in sending order whatever their states")
    func aRecordsWritesInOrder() throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror()
        try fixture.save(Note(id: "a", title: "one"), through: mirror)
        // The first write on its way (set from outside, in the file): the next save queues behind it.
        try fixture.store.context.persistAndWait { tx in
            try tx.execute(#"UPDATE "SyncPendingWrite" SET "state" = 'sending', "attempts" = 1"#)
        }
        try fixture.save(Note(id: "a", title: "two"), through: mirror)
        let writes = try fixture.store.context.readAndWait { tx in try mirror.outbox.writes(of: "a", in: tx) }
        #expect(writes.map(\.sequence) == [1, 2])
        #expect(writes.map(\.state) == [.sending, .pending])
    }

    @Test(
        "A save joining a write stores the columns it changed: the outbox's index is written only when the state moves")
    func aJoinedSaveWritesWhatChanged() throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror()
        try fixture.save(Note(id: "a", title: "one"), through: mirror)
        // Counts, from outside, each statement that assigns a column of the outbox's index.
        func countIndexedWrites(_ tx: ObjectTransaction) throws {
            try tx.execute(
                #"CREATE TRIGGER "countIndexedWrites" AFTER UPDATE OF "collection", "recordID", "state", "nextAttempt" "#
                    + #"ON "SyncPendingWrite" BEGIN INSERT INTO "IndexedWrites" VALUES (NEW."sequence"); END"#)
        }
        try fixture.store.context.persistAndWait { tx in
            try tx.execute(#"CREATE TABLE "IndexedWrites" ("sequence" INTEGER NOT NULL)"#)
            try countIndexedWrites(tx)
        }
        func indexedWrites() throws -> Int64? {
            let rows = try fixture.store.context.readAndWait { tx in
                try tx.rows(#"SELECT count(*) FROM "IndexedWrites""#)
            }
            return rows.first?[0].integerValue
        }
        let queued = try #require(try fixture.outbox().first)
        try fixture.save(Note(id: "a", title: "two"), through: mirror)
        try fixture.save(Note(id: "a", title: "three"), through: mirror)
        #expect(try indexedWrites() == 0)
        let joined = try #require(try fixture.outbox().first)
        #expect(try fixture.outbox().count == 1)
        #expect(try joined.local(as: Note.self)?.title == "three")
        #expect(joined.key == queued.key)  // never sent: the same request
        #expect(joined.createdAt == queued.createdAt && joined.identity == queued.identity)
        // A refused write (set from outside, in the file) fixed by a save: pending again, and its
        // index entry moves with it.
        try fixture.store.context.persistAndWait { tx in
            try tx.execute(#"DROP TRIGGER "countIndexedWrites""#)
            try tx.execute(#"UPDATE "SyncPendingWrite" SET "state" = 'rejected', "attempts" = 1, "reason" = 'no'"#)
            try countIndexedWrites(tx)
        }
        try fixture.save(Note(id: "a", title: "four"), through: mirror)
        #expect(try indexedWrites() == 1)
        let fixed = try #require(try fixture.outbox().first)
        #expect(fixed.state == .pending && fixed.attempts == 0 && fixed.reason == nil)
        #expect(fixed.key != queued.key)  // sent once: a new request
        let pending = try fixture.store.context.readAndWait { tx in
            try tx.fetch(Query<PendingWrite>(where: PendingWrite.state == .pending))
        }
        #expect(pending == [fixed])
    }

    @Test("Writes are queued in one order across collections, and a write is the next after the outbox's last")
    func oneOrder() throws {
        let fixture = try SyncFixture()
        let notes = try fixture.mirror()
        var described = NotesAPI.collection(at: fixture.backend.baseURL)
        described.name = "others"
        let others = try SyncedCollection(described, store: fixture.store, client: NotesAPI.client())
        try fixture.save(Note(id: "a", title: "one"), through: notes)
        try fixture.save(Note(id: "b", title: "two"), through: others)
        try fixture.save(Note(id: "c", title: "three"), through: notes)
        let writes = try fixture.store.context.readAndWait { tx in
            try tx.fetch(Query<PendingWrite>(sortedBy: [PendingWrite.sequence.ascending()]))
        }
        #expect(writes.map(\.recordID) == ["a", "b", "c"])
        #expect(writes.map(\.sequence) == [1, 2, 3])
        #expect(writes.map(\.id) == [1, 2, 3])
        #expect(Set(writes.map(\.key)).count == 3)
    }

    @Test("A write given the number of a discarded one is not retried or discarded through the older write's value")
    func aNumberGivenAgainIsNotTheSameWrite() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror()
        try fixture.save(Note(id: "a", title: "one"), through: mirror)
        let held = try #require(try fixture.outbox().first)
        try await mirror.discard(held)
        try fixture.save(Note(id: "b", title: "two"), through: mirror)
        // The newer write refused (set from outside, in the file): a retry through it would
        // change it.
        try fixture.store.context.persistAndWait { tx in
            try tx.execute(#"UPDATE "SyncPendingWrite" SET "state" = 'rejected', "attempts" = 1, "reason" = 'no'"#)
        }
        let next = try #require(try fixture.outbox().first)
        #expect(next.sequence == held.sequence)  // the number is given again
        try await mirror.discard(held)
        try await mirror.retry(held)
        #expect(try fixture.outbox() == [next])
        #expect(try fixture.local()["b"]?.title == "two")
    }
}
