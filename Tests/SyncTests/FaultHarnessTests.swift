import FetchKit
import Foundation
import Persistence
import Sync
import SyncHarness
import Testing

/// Kills and faults, each run in a child process (`SyncWorker`) so that a kill is a real
/// SIGKILL, sent by the backend as the request it watches for arrives. Each scenario runs twice:
/// as built, where the oracle must hold, and with the guarantee that covers it taken away from
/// outside the product (a collection described without idempotency keys, a store edited as a
/// careless client would leave it, no keyset overlap), where it must fail: the proof that the
/// scenario can fail at all.
@Suite("Fault harness: kills and faults against the oracle", .serialized)
struct FaultHarnessTests {
    /// How a scenario's guarantee is taken away, from outside the product.
    enum Sabotage: Sendable {
        /// The collection sends no idempotency keys, and the server deduplicates nothing.
        case withoutKeys
        /// The store, after the first run, edited as a client without the guarantee would have left it.
        case store(@Sendable (SyncFixture) throws -> Void)
        /// The keyset overlap, in milliseconds.
        case overlap(Int)
    }

    /// One scenario: what to set up, how the first (faulty or killed) run goes, and what the
    /// server must hold at the end.
    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        var hardDeletes = false
        /// Called after the standard preparation, before the first run.
        var arrange: @Sendable (SyncFixture, SyncedCollection<Note>) async throws -> Void = { _, _ in }
        /// Whether the backend kills the first run.
        var killed = false
        /// The overlap of the runs, in milliseconds.
        var overlap = 5000
        /// Writes sent at once.
        var concurrency = 1
        /// What takes the covering guarantee away, or `nil` when nothing outside the product can.
        var sabotage: Sabotage?
        /// Changes to the expected final state.
        var expect: @Sendable (inout [String: String]) -> Void = { _ in }
        var testDescription: String { name }
    }

    /// A client that loses the writes a kill left mid-send.
    static let dropSending = Sabotage.store { (fixture: SyncFixture) throws in
        try fixture.store.context.persistAndWait { tx in
            _ = try tx.delete(Query<PendingWrite>(where: PendingWrite.state == .sending))
        }
    }

    /// A client that drops a write whose send failed on the way.
    static let dropFailed = Sabotage.store { (fixture: SyncFixture) throws in
        try fixture.store.context.persistAndWait { tx in
            _ = try tx.delete(
                Query<PendingWrite>(where: PendingWrite.state == .pending && PendingWrite.nextAttempt.isNotNil))
        }
    }

    /// A client that moved its cursor past a page it did not keep: the first page's rows lost.
    static let losePage = Sabotage.store { (fixture: SyncFixture) throws in
        try fixture.store.context.persistAndWait { tx in
            _ = try tx.execute(#"DELETE FROM "Note" WHERE "id" LIKE 'n2_'"#)
        }
    }

    /// A client that takes a 401 for a refusal of the write.
    static let rejectUnauthorized = Sabotage.store { (fixture: SyncFixture) throws in
        try fixture.store.context.persistAndWait { tx in
            _ = try tx.execute(#"UPDATE "SyncPendingWrite" SET "state" = 'rejected' WHERE "lastError" IS NOT NULL"#)
        }
    }

    /// A client whose resync does not prune: the row deleted on the server is still there.
    static let keepPruned = Sabotage.store { (fixture: SyncFixture) throws in
        try fixture.store.context.persistAndWait { tx in
            _ = try tx.execute(
                #"INSERT OR IGNORE INTO "Note" ("id", "title", "body", "updated") VALUES ('n5', 's5', '', '')"#)
        }
    }

    static let scenarios: [Scenario] = [
        Scenario(
            name: "kill before send",
            arrange: { fixture, _ in fixture.backend.failWrites(.dropBeforeApply(then: Worker.killRunning)) },
            killed: true, sabotage: dropSending),
        Scenario(
            name: "kill after send, before the response (the server kills the client once it applied)",
            arrange: { fixture, _ in fixture.backend.failWrites(.dropAfterApply(then: Worker.killRunning)) },
            killed: true, sabotage: .withoutKeys),
        Scenario(
            name: "kill after the response, before the acknowledgement (killed as the next write arrives)",
            arrange: { fixture, _ in
                fixture.backend.failWrites(.delay(.zero), .dropBeforeApply(then: Worker.killRunning))
            },
            killed: true, sabotage: .withoutKeys),
        Scenario(
            // The pull asks for a page as soon as it knows where it starts, before the page before
            // it is applied: at the third page's request, the first has been applied.
            name: "kill mid-pull (killed as the third page is asked for)",
            arrange: { fixture, _ in
                for index in 20..<34 { fixture.backend.put("n\(index)", title: "s\(index)") }
                fixture.backend.failLists(.delay(.zero), .delay(.zero), .dropBeforeApply(then: Worker.killRunning))
            },
            killed: true, overlap: 0,
            sabotage: losePage),
        Scenario(
            name: "connection dropped after the server applied",
            arrange: { fixture, _ in fixture.backend.failWrites(.dropAfterApply(then: nil)) },
            sabotage: .withoutKeys),
        Scenario(
            name: "duplicated delivery",
            arrange: { fixture, _ in fixture.backend.failWrites(.duplicate) },
            sabotage: .withoutKeys),
        Scenario(
            name: "5xx", arrange: { fixture, _ in fixture.backend.failWrites(.status(500, retryAfter: nil)) },
            sabotage: dropFailed),
        Scenario(
            name: "429 with Retry-After",
            arrange: { fixture, _ in fixture.backend.failWrites(.status(429, retryAfter: "1")) },
            sabotage: dropFailed),
        Scenario(
            name: "429 without Retry-After",
            arrange: { fixture, _ in fixture.backend.failWrites(.status(429, retryAfter: nil)) },
            sabotage: dropFailed),
        Scenario(
            name: "401 mid-queue",
            arrange: { fixture, _ in
                // The write after the first refused: the run stops there (no pull after refused
                // credentials), every write kept for the next run.
                fixture.backend.failWrites(.delay(.zero), .status(401, retryAfter: nil))
            },
            sabotage: rejectUnauthorized),
        Scenario(
            name: "cursor expired, with hard deletes", hardDeletes: true,
            arrange: { fixture, _ in
                fixture.backend.remove("n5")
                fixture.backend.expireCursors()
            },
            sabotage: keepPruned),
        Scenario(
            name: "clock jumps back",
            arrange: { fixture, _ in
                // A new note stamped two seconds behind the cursor. (An update of a note the
                // mirror holds stamped behind the version it has is taken as older and skipped:
                // the rule that keeps a lagging server from moving rows back.)
                fixture.backend.jumpClock(by: -2_000)
                fixture.backend.put("n30", title: "s30")
            },
            sabotage: .overlap(0)),
        Scenario(
            name: "reordered responses",
            arrange: { fixture, mirror in
                // Two writes of n1 in the outbox (the first was tried once and failed), the first
                // answered late. (Nothing outside the product sends one record's writes at once:
                // this scenario has no sabotaged run.)
                fixture.backend.failWrites(.status(503, retryAfter: nil))
                _ = try? await mirror.sync()
                try fixture.save(Note(id: "n1", title: "update-2"), through: mirror)
                fixture.backend.delayWrites(titled: "update-1", by: .milliseconds(300))
            },
            concurrency: 4,
            expect: { $0["n1"] = "update-2|" }),
    ]

    /// The standard preparation: twelve notes on the server, mirrored; then locally an update
    /// of n1, a create of c1 and a delete of n2; on the server a change of n3 and a tombstone of n4.
    private func prepare(_ fixture: SyncFixture, _ scenario: Scenario) async throws -> SyncedCollection<Note> {
        for index in 0..<12 { fixture.backend.put("n\(index)", title: "s\(index)") }
        let mirror = try fixture.mirror(overlap: .time(.milliseconds(scenario.overlap)), concurrency: 1)
        try await mirror.sync()
        try fixture.save(Note(id: "n1", title: "update-1"), Note(id: "c1", title: "create-1"), through: mirror)
        try fixture.delete("n2", through: mirror)
        fixture.backend.put("n3", title: "s3 changed")
        fixture.backend.remove("n4")
        return mirror
    }

    /// What the oracle finds wrong: the server against the expected state, the store against
    /// the server, and writes applied more than once.
    private func violations(_ fixture: SyncFixture, expected: [String: String]) throws -> [String] {
        var found: [String] = []
        let server = fixture.serverContents()
        if server != expected { found.append("server \(server.sorted { $0.key < $1.key }) != expected") }
        let local = try fixture.localContents()
        if local != server {
            let ids = Set(local.keys).union(server.keys).filter { local[$0] != server[$0] }.sorted()
            found.append("store != server at \(ids.map { "\($0): \(local[$0] ?? "-") vs \(server[$0] ?? "-")" })")
        }
        for (write, count) in fixture.backend.applications where count > 1 {
            found.append("\(write) applied \(count) times")
        }
        return found
    }

    /// Runs a scenario: the first run (faulty or killed), then runs until the outbox is empty
    /// (each in a child process), then the oracle.
    private func run(_ scenario: Scenario, sabotaged: Bool) async throws -> [String] {
        let fixture = try SyncFixture(hardDeletes: scenario.hardDeletes)
        let mirror = try await prepare(fixture, scenario)
        try await scenario.arrange(fixture, mirror)
        // The server as it is, with the local writes on top.
        var expected = fixture.serverContents()
        expected["n1"] = "update-1|"
        expected["c1"] = "create-1|"
        expected["n2"] = nil
        scenario.expect(&expected)
        var withoutKeys = false
        var overlap = scenario.overlap
        var edit: (@Sendable (SyncFixture) throws -> Void)?
        if sabotaged {
            switch scenario.sabotage {
            case .withoutKeys?:
                withoutKeys = true
                fixture.backend.honourKeys(false)
            case .store(let change)?: edit = change
            case .overlap(let milliseconds)?: overlap = milliseconds
            case nil: break
            }
        }
        let first = try await Worker.sync(
            fixture, withoutKeys: withoutKeys, overlap: overlap, concurrency: scenario.concurrency)
        if scenario.killed { #expect(first.killed, "\(scenario.name): \(first)") }
        try edit?(fixture)
        for _ in 0..<4 {
            let next = try await Worker.sync(fixture, withoutKeys: withoutKeys, overlap: overlap)
            #expect(!next.killed && next.status == 0, "\(scenario.name): \(next)")
            if try fixture.outbox().filter({ $0.state != .rejected }).isEmpty { break }
            try await Task.sleep(for: .milliseconds(1100))  // a Retry-After: 1
        }
        return try violations(fixture, expected: expected)
    }

    @Test("As built, the oracle holds: nothing lost, doubled or resurrected", arguments: scenarios)
    func holds(_ scenario: Scenario) async throws {
        let found = try await run(scenario, sabotaged: false)
        #expect(found.isEmpty, "\(scenario.name): \(found)")
    }

    @Test(
        "Without the guarantee that covers it, the same scenario fails the oracle",
        arguments: scenarios.filter { $0.sabotage != nil })
    func failsWhenSabotaged(_ scenario: Scenario) async throws {
        let found = try await run(scenario, sabotaged: true)
        #expect(!found.isEmpty, "\(scenario.name) held without its guarantee")
    }
}
