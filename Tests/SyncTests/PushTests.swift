import FetchKit
import Foundation
import Persistence
import Sync
import SyncHarness
import Testing

@Suite("Push: the outbox, idempotency, rejections, conflicts")
struct PushTests {
    @Test("A local write changes the row at once, is sent once, and the server's stamp comes back")
    func sendOnce() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror()
        try fixture.save(Note(id: "a", title: "first"), through: mirror)
        #expect(try fixture.local()["a"]?.title == "first")
        #expect(try fixture.outbox().map(\.operation) == [.create])
        let report = try await mirror.sync()
        #expect(report.writesSent == 1)
        #expect(fixture.backend.applications["create:first"] == 1)
        #expect(try fixture.outbox().isEmpty)
        #expect(try fixture.local()["a"]?.updated == fixture.backend.notes["a"]?.updated)
    }

    @Test("Writes to one record coalesce while unsent: create+update is one create, create+delete is nothing")
    func coalescing() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror()
        try fixture.save(Note(id: "a", title: "draft"), through: mirror)
        try fixture.save(Note(id: "a", title: "final"), through: mirror)
        try fixture.save(Note(id: "b", title: "gone"), through: mirror)
        try fixture.delete("b", through: mirror)
        #expect(try fixture.outbox().map(\.operation) == [.create])
        try await mirror.sync()
        #expect(fixture.backend.writeRequests == 1)
        #expect(fixture.backend.applications == ["create:final": 1])
    }

    @Test("Delete then save of the same id becomes an update, not a lost write")
    func deleteThenReinsert() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "server")
        let mirror = try fixture.mirror()
        try await mirror.sync()
        try fixture.delete("a", through: mirror)
        try fixture.save(Note(id: "a", title: "again"), through: mirror)
        try await mirror.sync()
        #expect(fixture.backend.notes["a"]?.title == "again")
        #expect(try fixture.localContents() == fixture.serverContents())
    }

    @Test("A write refused for good is parked with the server's reason; the queue goes on")
    func rejection() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "server title")
        let mirror = try fixture.mirror()
        try await mirror.sync()
        try fixture.save(Note(id: "a", title: "refused title"), Note(id: "b", title: "fine"), through: mirror)
        let report = try await mirror.sync()
        #expect(report.writesRejected == 1)
        #expect(report.writesSent == 1)
        #expect(fixture.backend.notes["b"]?.title == "fine")
        let rejected = try #require(try fixture.outbox().first)
        #expect(rejected.state == .rejected)
        #expect(rejected.reason?.contains("may not start with refuse") == true)
        #expect(await mirror.status.rejectedCount == 1)

        try await mirror.discard(rejected)
        #expect(try fixture.local()["a"]?.title == "server title")
        #expect(try fixture.outbox().isEmpty)
    }

    @Test("A rejected write edited by a new save is sent again with a new key")
    func editRejected() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "server title")
        let mirror = try fixture.mirror()
        try await mirror.sync()
        try fixture.save(Note(id: "a", title: "refused"), through: mirror)
        try await mirror.sync()
        let key = try #require(try fixture.outbox().first?.key)
        try fixture.save(Note(id: "a", title: "accepted"), through: mirror)
        #expect(try fixture.outbox().first?.key != key)
        try await mirror.sync()
        #expect(fixture.backend.notes["a"]?.title == "accepted")
    }

    @Test("A connection dropped after the server applied a write: the retry is deduplicated by its key")
    func droppedAfterApply() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror()
        fixture.backend.failWrites(.dropAfterApply(then: nil))
        try fixture.save(Note(id: "a", title: "once"), through: mirror)
        await #expect(throws: SyncError.self) { try await mirror.sync() }
        #expect(try fixture.outbox().first?.attempts == 1)
        try await mirror.sync()
        #expect(fixture.backend.applications["create:once"] == 1)
        #expect(try fixture.outbox().isEmpty)
    }

    @Test(
        "An update whose answer was lost is applied once: the retry finds its change on the server",
        arguments: [true, false])
    func updateDroppedAfterApply(serverHonoursKeys: Bool) async throws {
        let fixture = try SyncFixture()
        fixture.backend.honourKeys(serverHonoursKeys)
        // Client wins: a retry that took its own applied change for another client's would send it again.
        let mirror = try fixture.mirror(conflicts: .clientWins)
        try fixture.save(Note(id: "a", title: "first"), through: mirror)
        try await mirror.sync()
        try fixture.save(Note(id: "a", title: "second", body: "edited"), through: mirror)
        fixture.backend.failWrites(.dropAfterApply(then: nil))
        await #expect(throws: SyncError.self) { try await mirror.sync() }
        #expect(fixture.backend.applications["update:second"] == 1)
        let report = try await mirror.sync()
        #expect(fixture.backend.applications["update:second"] == 1)
        #expect(report.writesSent == 1)
        #expect(report.conflicts == 0)
        #expect(try fixture.outbox().isEmpty)
        let stored = try #require(fixture.backend.notes["a"])
        #expect(try fixture.local()["a"] == Note(id: "a", title: "second", body: "edited", updated: stored.updated))
    }

    @Test("Without idempotency keys on the server, a retried create is confirmed by its client-chosen id")
    func naturalIdempotency() async throws {
        let fixture = try SyncFixture()
        fixture.backend.honourKeys(false)
        let mirror = try fixture.mirror()
        fixture.backend.failWrites(.dropAfterApply(then: nil))
        try fixture.save(Note(id: "a", title: "created"), through: mirror)
        await #expect(throws: SyncError.self) { try await mirror.sync() }
        try await mirror.sync()  // the create meets "already exists", reads the record, counts it as applied
        #expect(fixture.backend.applications["create:created"] == 1)
        #expect(try fixture.outbox().isEmpty)
        #expect(try fixture.local()["a"]?.updated == fixture.backend.notes["a"]?.updated)

        fixture.backend.remove("a")  // another client deleted it first
        try fixture.delete("a", through: mirror)
        let report = try await mirror.sync()  // the delete meets 404: done
        #expect(report.writesSent == 1)
        #expect(fixture.backend.applications["delete:a"] == nil)
        #expect(try fixture.outbox().isEmpty)
    }

    @Test("5xx and 429 keep the write, with the error and the next retry in the status")
    func transientFailures() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror()
        fixture.backend.failWrites(.status(429, retryAfter: "7"))
        try fixture.save(Note(id: "a", title: "later"), through: mirror)
        let before = Date()
        await #expect(throws: SyncError.self) { try await mirror.sync() }
        let after = Date()
        let write = try #require(try fixture.outbox().first)
        #expect(write.state == .pending)
        // The server's seven seconds, counted from when the answer was settled.
        let next = try #require(write.nextAttempt)
        #expect(next >= before.addingTimeInterval(7) && next <= after.addingTimeInterval(7))
        let status = await mirror.status
        #expect(status.error?.code == .requestFailed)
        #expect(status.pendingCount == 1)
        fixture.backend.failWrites(.status(503, retryAfter: nil))
        await #expect(throws: SyncError.self) { try await mirror.sync() }
        try await mirror.sync()
        #expect(fixture.backend.applications["create:later"] == 1)
        #expect(await mirror.status.error == nil)
    }

    @Test("A 401 holds the queue without rejecting anything; the next run sends")
    func unauthorized() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror()
        fixture.backend.failWrites(.status(401, retryAfter: nil))
        try fixture.save(Note(id: "a", title: "one"), Note(id: "b", title: "two"), through: mirror)
        let error = await #expect(throws: SyncError.self) { try await mirror.sync() }
        #expect(error?.code == .unauthorized)
        #expect(try fixture.outbox().allSatisfy { $0.state == .pending })
        try await mirror.sync()
        #expect(fixture.serverContents().count == 2)
    }

    @Test("A write is queued after every write the outbox holds; the order starts again once it is empty")
    func sequenceFollowsTheOutbox() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror()
        try fixture.save(Note(id: "a", title: "one"), Note(id: "b", title: "two"), through: mirror)
        #expect(try fixture.outbox().map(\.sequence) == [1, 2])
        try await mirror.sync()
        #expect(try fixture.outbox().isEmpty)
        try fixture.save(Note(id: "c", title: "three"), through: mirror)
        try fixture.save(Note(id: "a", title: "one, edited"), through: mirror)
        try fixture.save(Note(id: "c", title: "three, edited"), through: mirror)
        // c's second save joins its first write: one write per record, in the order they were made.
        #expect(try fixture.outbox().map { "\($0.recordID)\($0.sequence)" } == ["c1", "a2"])
        try await mirror.sync()
        #expect(try fixture.outbox().isEmpty)
        #expect(fixture.backend.notes["a"]?.title == "one, edited")
        #expect(fixture.backend.notes["c"]?.title == "three, edited")
    }

    @Test("Non-idempotent operators are refused when the write is made")
    func nonIdempotentOperator() async throws {
        let fixture = try SyncFixture()
        let base = fixture.backend.baseURL
        var collection = NotesAPI.collection(at: base)
        collection.writes.create = { _ in CounterBump(baseURL: base) }
        let mirror = try SyncedCollection(collection, store: fixture.store, client: NotesAPI.client())
        #expect(throws: SyncError.self) { try fixture.save(Note(id: "a", title: "x"), through: mirror) }
        #expect(try fixture.outbox().isEmpty)
        #expect(try fixture.local().isEmpty)
    }

    @Test(
        "An operator key is refused however the body writes it; a plus or minus elsewhere is not an operator",
        arguments: [
            (#"{"count-":1}"#, true), (#"{ "tags+" : ["x"] }"#, true), (#"{"count\u002B":1}"#, true),
            (#"{"title":"a+b","body":"-\"quoted\"-"}"#, false), (#"{"title":"c++","n":-1}"#, false),
            ("utf16:" + #"{"count+":1}"#, true),
        ])
    func operatorSpellings(body: String, refused: Bool) async throws {
        let fixture = try SyncFixture()
        let base = fixture.backend.baseURL
        var collection = NotesAPI.collection(at: base)
        collection.writes.create = { _ in CounterBump(baseURL: base, json: body) }
        let mirror = try SyncedCollection(collection, store: fixture.store, client: NotesAPI.client())
        if refused {
            let error = #expect(throws: SyncError.self) { try fixture.save(Note(id: "a", title: "x"), through: mirror) }
            #expect(error?.code == .refusedWrite)
            #expect(try fixture.outbox().isEmpty)
        } else {
            try fixture.save(Note(id: "a", title: "x"), through: mirror)
            #expect(try fixture.outbox().count == 1)
        }
    }
}

/// A create whose body adds to a counter: applied again by every retry.
private struct CounterBump: Endpoint {
    var baseURL: URL
    /// The body's JSON, as the server would read it (UTF-16 with a byte-order mark after a
    /// `utf16:` prefix, else UTF-8).
    var json = #"{"count+":1}"#
    var path: String { "/notes" }
    var method: HTTPMethod { .post }
    var body: RequestBody? {
        let bytes =
            json.hasPrefix("utf16:") ? json.dropFirst(6).data(using: .utf16) ?? Data() : Data(json.utf8)
        return RequestBody(data: bytes, contentType: "application/json")
    }
}
