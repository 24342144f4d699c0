import FetchKit
import Foundation
import Persistence
import Sync
import SyncHarness
import Testing

/// Kill points and faults, each run in a child process (`SyncWorker`) so that a kill is a real
/// SIGKILL and a removed guarantee stays inside that process. Each scenario runs twice: as
/// built, where the oracle must hold, and with the guarantee that covers it removed, where it
/// must fail (the proof that the scenario can fail at all).
@Suite("Fault harness: kill points and faults against the oracle", .serialized)
struct FaultHarnessTests {
    /// One scenario: what to set up, how the first (faulty or killed) run goes, and what the
    /// server must hold at the end.
    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        var hardDeletes = false
        /// Called after the standard preparation, before the first run.
        var arrange: @Sendable (SyncFixture, SyncedCollection<Note>) async throws -> Void = { _, _ in }
        /// The first run's kill point, if any.
        var killAt: String?
        /// The overlap of the runs, in milliseconds.
        var overlap = 5000
        /// Writes sent at once.
        var concurrency = 1
        /// The guarantee that covers the scenario, by name (`SyncWeakening`), or `nil` when the
        /// server's own deduplication covers it (`disableServerKeys`).
        var weakening: String?
        var disableServerKeys = false
        /// Changes to the expected final state.
        var expect: @Sendable (inout [String: String]) -> Void = { _ in }
        var testDescription: String { name }
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "kill before send", killAt: "beforeSend", weakening: "dropSendingWrites"),
        Scenario(
            name: "kill after send, before the response (the server kills the client once it applied)",
            arrange: { fixture, _ in fixture.backend.failWrites(.dropAfterApply(then: Worker.killRunning)) },
            weakening: "freshKeyPerAttempt"),
        Scenario(name: "kill after the response, before the acknowledgement", killAt: "afterResponse", weakening: "freshKeyPerAttempt"),
        Scenario(
            name: "kill mid-page",
            arrange: { fixture, _ in
                for index in 20..<28 { fixture.backend.put("n\(index)", title: "s\(index)") }
            },
            killAt: "midPage:2", overlap: 0, weakening: "cursorBeforePage"),
        Scenario(
            name: "connection dropped after the server applied",
            arrange: { fixture, _ in fixture.backend.failWrites(.dropAfterApply(then: nil)) },
            weakening: "freshKeyPerAttempt"),
        Scenario(
            name: "duplicated delivery",
            arrange: { fixture, _ in fixture.backend.failWrites(.duplicate) },
            disableServerKeys: true),
        Scenario(
            name: "5xx", arrange: { fixture, _ in fixture.backend.failWrites(.status(500, retryAfter: nil)) },
            weakening: "dropFailedWrites"),
        Scenario(
            name: "429 with Retry-After",
            arrange: { fixture, _ in fixture.backend.failWrites(.status(429, retryAfter: "1")) },
            weakening: "dropFailedWrites"),
        Scenario(
            name: "429 without Retry-After",
            arrange: { fixture, _ in fixture.backend.failWrites(.status(429, retryAfter: nil)) },
            weakening: "dropFailedWrites"),
        Scenario(
            name: "401 mid-queue",
            arrange: { fixture, _ in
                fixture.backend.failWrites(.delay(.zero), .status(401, retryAfter: nil))
            },
            weakening: "rejectUnauthorized"),
        Scenario(
            name: "cursor expired, with hard deletes", hardDeletes: true,
            arrange: { fixture, _ in
                fixture.backend.remove("n5")
                fixture.backend.expireCursors()
            },
            weakening: "resyncWithoutPrune"),
        Scenario(
            name: "clock jumps back",
            arrange: { fixture, _ in
                // A new note stamped two seconds behind the cursor. (An update of a note the
                // mirror holds stamped behind the version it has is taken as older and skipped:
                // the rule that keeps a lagging server from moving rows back.)
                fixture.backend.jumpClock(by: -2_000)
                fixture.backend.put("n30", title: "s30")
            },
            weakening: "noOverlap"),
        Scenario(
            name: "reordered responses",
            arrange: { fixture, mirror in
                // Two writes of n1 in the outbox (the first was tried once and failed), the first
                // answered late.
                fixture.backend.failWrites(.status(503, retryAfter: nil))
                _ = try? await mirror.sync()
                try fixture.save(Note(id: "n1", title: "update-2"), through: mirror)
                fixture.backend.delayWrites(titled: "update-1", by: .milliseconds(300))
            },
            concurrency: 4, weakening: "concurrentPerRecord",
            expect: { $0["n1"] = "update-2|" }),
    ]

    /// The standard preparation: twelve notes on the server, mirrored; then locally an update
    /// of n1, a create of c1 and a delete of n2; on the server a change of n3 and a tombstone of n4.
    private func prepare(_ fixture: SyncFixture, _ scenario: Scenario) async throws -> SyncedCollection<Note> {
        for index in 0..<12 { fixture.backend.put("n\(index)", title: "s\(index)") }
        let mirror = fixture.mirror(overlap: .time(.milliseconds(scenario.overlap)), concurrency: 1)
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
    private func run(_ scenario: Scenario, weakened: Bool) async throws -> [String] {
        let fixture = try SyncFixture(hardDeletes: scenario.hardDeletes)
        let mirror = try await prepare(fixture, scenario)
        try await scenario.arrange(fixture, mirror)
        // The server as it is, with the local writes on top.
        var expected = fixture.serverContents()
        expected["n1"] = "update-1|"
        expected["c1"] = "create-1|"
        expected["n2"] = nil
        scenario.expect(&expected)
        if weakened, scenario.disableServerKeys { fixture.backend.honourKeys(false) }
        let weaken = weakened ? scenario.weakening.map { [$0] } ?? [] : []
        let first = try await Worker.sync(
            fixture, killAt: scenario.killAt, weaken: weaken, overlap: scenario.overlap,
            concurrency: scenario.concurrency)
        if scenario.killAt != nil { #expect(first.killed, "\(scenario.name): \(first)") }
        for _ in 0..<4 {
            let next = try await Worker.sync(fixture, weaken: weaken, overlap: scenario.overlap)
            #expect(!next.killed && next.status == 0, "\(scenario.name): \(next)")
            if try fixture.outbox().filter({ $0.state != .rejected }).isEmpty { break }
            try await Task.sleep(for: .milliseconds(1100))  // a Retry-After: 1
        }
        return try violations(fixture, expected: expected)
    }

    @Test("As built, the oracle holds: nothing lost, doubled or resurrected", arguments: scenarios)
    func holds(_ scenario: Scenario) async throws {
        let found = try await run(scenario, weakened: false)
        #expect(found.isEmpty, "\(scenario.name): \(found)")
    }

    @Test("Without the guarantee that covers it, the same scenario fails the oracle", arguments: scenarios)
    func failsWhenWeakened(_ scenario: Scenario) async throws {
        let found = try await run(scenario, weakened: true)
        #expect(!found.isEmpty, "\(scenario.name) held without its guarantee")
    }
}
