import FetchKit
import Foundation
import Persistence
import Sync
import SyncHarness
import TestSupport
import Testing

@Suite("Triggers, shared runs, status and schema changes")
struct TriggerAndStateTests {
    @Test("Two concurrent sync() calls share one run")
    func sharedRun() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "one")
        fixture.backend.server.route(
            "GET", "/notes", respond: .json(#"{"items":[],"hasMore":false}"#).delayed(by: .milliseconds(300)))
        let mirror = try fixture.mirror()
        async let first = mirror.sync()
        async let second = mirror.sync()
        _ = try await (first, second)
        #expect(fixture.backend.server.requests(to: "/notes").count == 1)
    }

    @Test("Each record with its sync state, read in one request and observed as any read")
    func recordsWithTheirState() async throws {
        let fixture = try SyncFixture()
        fixture.backend.put("a", title: "synced")
        let mirror = try fixture.mirror(concurrency: 1)
        try await mirror.sync()
        let states = StoreObservation.value(tracking: Note.self, PendingWrite.self) { tx in
            try tx.fetch(mirror.records(Query<Note>(sortedBy: [Note.idField.ascending()]))).map {
                "\($0.record.id):\($0.state?.rawValue ?? "synced")"
            }
        }
        var observed = fixture.store.values(states).makeAsyncIterator()
        #expect(try await observed.next() == ["a:synced"])

        // b is refused for good, c goes through, d is written after the run.
        fixture.backend.failWrites(.status(422, retryAfter: nil))
        try fixture.save(Note(id: "b", title: "refused"), Note(id: "c", title: "sent"), through: mirror)
        _ = try? await mirror.sync()
        try fixture.save(Note(id: "d", title: "waiting"), through: mirror)
        let expected = ["a:synced", "b:rejected", "c:synced", "d:pending"]
        var last: [String]?
        for _ in 0..<20 where last != expected { last = try await observed.next() }
        #expect(last == expected)

        let read = try fixture.store.context.readAndWait { tx in
            try tx.fetch(
                mirror.records(Query<Note>(where: Note.idField.isIn(["b", "d"]), sortedBy: [Note.idField.ascending()])))
        }
        #expect(read.map(\.record.title) == ["refused", "waiting"])
        #expect(read[0].writes.count == 1)
        #expect(read[0].writes[0].reason?.contains("422") == true)
        #expect(read[1].writes.map(\.operation) == [.create])
    }

    @Test("A realtime hint triggers a pull: the server's records are applied, never the event's own data")
    func realtimeHint() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror()
        try await mirror.sync()
        // The realtime channel announces each change after the server made it; its payload is
        // a hint (it may be stale, reordered or lost), the pull is the truth.
        fixture.backend.server.route(
            "GET", "/events",
            respond: .stream(headers: ["Content-Type": "text/event-stream"]) { [backend = fixture.backend] writer in
                backend.put("a", title: "first")
                _ = writer.write("event: notes\ndata: {\"id\":\"a\",\"title\":\"stale\"}\n\n")
                _ = writer.pause(.milliseconds(50))
                backend.put("b", title: "second")
                backend.remove("a")
                _ = writer.write("event: notes\ndata: {\"id\":\"b\"}\n\n")
                _ = writer.pause(.seconds(60))
            })
        let hints = EventSource(
            NotesHintRequest(baseURL: fixture.backend.baseURL), client: NotesAPI.client(),
            reconnection: EventSource.Reconnection(delay: .milliseconds(10)))
        var seen = 0
        for try await _ in hints {
            try await mirror.sync()
            seen += 1
            if seen == 2 { break }
        }
        #expect(try fixture.local()["a"] == nil)
        #expect(try fixture.local()["b"]?.title == "second")
        #expect(try fixture.localContents() == fixture.serverContents())
    }

    @Test("A started mirror sends writes an earlier launch left, and each new write, without a sync() call")
    func startedMirror() async throws {
        let fixture = try SyncFixture()
        let before = try fixture.mirror()
        try fixture.save(Note(id: "a", title: "left over"), through: before)
        // A new launch: a new mirror of the same store.
        let mirror = try fixture.mirror()
        await mirror.start()
        #expect(await eventually { fixture.backend.notes["a"]?.title == "left over" })
        try fixture.save(Note(id: "b", title: "new"), through: mirror)
        #expect(await eventually { fixture.backend.notes["b"]?.title == "new" })
        await mirror.stop()
    }

    @Test("A started mirror retries a failed send when its backoff ends: no silent stall")
    func retryAfterBackoff() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror()
        fixture.backend.failWrites(.status(503, retryAfter: nil), .status(503, retryAfter: nil))
        await mirror.start()
        try fixture.save(Note(id: "a", title: "eventually"), through: mirror)
        #expect(await eventually { fixture.backend.notes["a"]?.title == "eventually" })
        #expect(fixture.backend.applications["create:eventually"] == 1)
        await mirror.stop()
    }

    @Test("A token refreshed mid-queue: the write is sent again with the same idempotency key")
    func tokenRefreshMidQueue() async throws {
        let fixture = try SyncFixture()
        let refreshes = Collector<Int>()
        let client = FetchClient {
            $0.authenticator = TokenAuthenticator(token: "old") {
                refreshes.append(1)
                return "new"
            }
        }
        let mirror = try SyncedCollection(NotesAPI.collection(at: fixture.backend.baseURL), store: fixture.store, client: client)
        fixture.backend.failWrites(.delay(.zero), .status(401, retryAfter: nil))
        try fixture.save(Note(id: "a", title: "one"), Note(id: "b", title: "two"), through: mirror)
        let keys = try fixture.outbox().map(\.key)
        try await mirror.sync()
        #expect(refreshes.values.count == 1)
        let sent = fixture.backend.server.receivedRequests.filter { $0.method == "POST" }
        #expect(sent.count == 3)
        #expect(Set(sent.compactMap { $0.headers["idempotency-key"] }) == Set(keys))
        #expect(sent.last?.headers["authorization"] == "Bearer new")
        #expect(fixture.serverContents().count == 2)
    }

    @Test("The status follows runs as an AsyncSequence and as an @Observable value")
    func statusUpdates() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror()
        try fixture.save(Note(id: "a", title: "one"), through: mirror)
        let collected = Collector<SyncStatus>()
        let following = Task {
            for await status in mirror.statusUpdates { collected.append(status) }
        }
        let monitor = await SyncMonitor(mirror)
        try await mirror.sync()
        #expect(await eventually { collected.values.contains { $0.isSyncing } })
        #expect(
            await eventually { collected.values.last?.lastPush != nil && collected.values.last?.isSyncing == false })
        #expect(await eventually { await monitor.status.lastPull != nil })
        following.cancel()
    }

    @Test("A migration upgrades pending writes made before a schema change")
    func upgradePendingWrites() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror()
        try fixture.save(Note(id: "a", title: "old shape"), through: mirror)
        let upgraded = try await fixture.store.context.persist { tx in
            try PendingWrite.upgrade(collection: "notes", from: 1, in: tx) { record in
                record["body"] = "added by the migration"
            }
        }
        #expect(upgraded == 1)
        let write = try #require(try fixture.outbox().first)
        #expect(write.schemaVersion == 2)
        #expect(try write.local(as: Note.self)?.body == "added by the migration")
    }

    @Test("A payload that no longer decodes is a typed error naming the record")
    func undecodablePayload() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror()
        try fixture.save(Note(id: "a", title: "x"), through: mirror)
        try await fixture.store.context.persist { tx in
            try PendingWrite.upgrade(collection: "notes", from: 1, in: tx) { record in record["title"] = nil }
        }
        let write = try #require(try fixture.outbox().first)
        let error = #expect(throws: SyncError.self) { try write.local(as: Note.self) }
        #expect(error?.code == .undecodableWrite)
        #expect(error?.record == "a")
        // Sent by a collection at that version, it is parked as rejected with that reason; the
        // queue goes on.
        var upgraded = NotesAPI.collection(at: fixture.backend.baseURL)
        upgraded.schemaVersion = 2
        let next = try SyncedCollection(upgraded, store: fixture.store, client: NotesAPI.client())
        try fixture.save(Note(id: "b", title: "fine"), through: next)
        try await next.sync()
        #expect(fixture.backend.notes["b"] != nil)
        #expect(try fixture.outbox().first?.state == .rejected)
    }

    @Test("The outbox is queryable and observable like any entity")
    func observableOutbox() async throws {
        let fixture = try SyncFixture()
        let mirror = try fixture.mirror()
        let counts = Collector<Int>()
        let token = fixture.store.observe(
            .value(tracking: PendingWrite.self) { tx in try tx.count(mirror.pendingWrites) }
        ) {
            counts.append($0)
        }
        try fixture.save(Note(id: "a", title: "one"), through: mirror)
        #expect(await eventually { counts.values.last == 1 })
        try await mirror.sync()
        #expect(await eventually { counts.values.last == 0 })
        token.cancel()
    }
}

/// Polls `condition` until it holds, or until ``Patience/hang`` passes (reached only when the
/// effect never comes): for effects of background triggers, never a timed assertion.
func eventually(_ condition: @Sendable () async -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + Patience.hang
    while clock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return await condition()
}

/// The notes backend's event stream.
private struct NotesHintRequest: Endpoint {
    var baseURL: URL
    var path = "/events"
}
