import Foundation
import Persistence
import TestSupport
import Testing

/// The entity the crash writer stores (same table and shape as in `PersistenceCrashWriter`).
struct Entry: StoredEntity {
    var id: Int64
    var payload: String

    static func payload(for id: Int64) -> String {
        String(repeating: String(id % 10), count: Int(id % 700) + 1)
    }
}

enum CrashWriter {
    static let name = "PersistenceCrashWriter"

    static func binary() throws -> URL {
        do {
            return try BuiltProducts.executable(named: name)
        } catch {
            Issue.record(Comment(rawValue: error.description))
            throw Boom()
        }
    }
}

/// A child's stdout, collected in chunks as it arrives.
extension Collector<Data> {
    /// The complete lines so far (a partial last line is not a report).
    var lines: [String] {
        // Appended in place: `reduce(Data(), +)` copied everything so far for every chunk, which
        // made each poll quadratic in a long-running writer's output (minutes of CPU on a loaded
        // machine, starving the tests running beside it).
        var all = Data()
        for chunk in values { all.append(chunk) }
        var parts = String(decoding: all, as: UTF8.self).components(separatedBy: "\n")
        parts.removeLast()
        return parts
    }
}

@Suite(.serialized) struct CrashSafetyTests {
    /// Runs the crash writer in `mode` on `fixture`'s store, lets it report a random number of
    /// commits in `afterReports` (and a few milliseconds more), kills it with SIGKILL, and
    /// returns the complete lines it printed.
    static func killWhileWriting(
        _ binary: URL, _ fixture: StoreFixture, mode: String, afterReports: ClosedRange<Int>, round: Int,
        using generator: inout SystemRandomNumberGenerator
    ) async throws -> [String] {
        let process = try ChildProcess(
            executable: binary, [fixture.url.path, mode], standardOutput: .pipe, standardError: .inherited)
        let output = Collector<Data>()
        let reader = try PipeReader(#require(process.standardOutput)) { output.append($0) }
        let wanted = Int.random(in: afterReports, using: &generator)
        do {
            try await waitUntil("round \(round): the writer to start committing") {
                output.lines.count >= wanted || !process.isRunning
            }
        } catch {
            await process.kill()
            throw error
        }
        try await Task.sleep(for: .milliseconds(Int.random(in: 0...30, using: &generator)))
        process.send(SIGKILL)
        #expect(await reader.waitForEnd(timeout: Patience.hang), "round \(round): the output never ended")
        let ending = await process.exit()
        #expect(ending?.signalled == true, "round \(round): the writer stopped on its own")
        return output.lines
    }

    @Test func everyReportedCommitSurvivesSIGKILLAndTheFileStaysIntact() async throws {
        let binary = try CrashWriter.binary()
        let fixture = try StoreFixture()
        var generator = SystemRandomNumberGenerator()
        var reported: Set<Int64> = []
        for round in 0..<5 {
            let lines = try await Self.killWhileWriting(
                binary, fixture, mode: "loop", afterReports: 5...60, round: round, using: &generator)
            let ids = lines.compactMap { Int64($0) }
            #expect(ids.count == lines.count, "round \(round): unexpected output \(lines.suffix(3))")
            reported.formUnion(ids)

            let store = try fixture.open([Entry.self])
            let (check, stored) = try store.context.readAndWait { tx in
                (try tx.rows("PRAGMA integrity_check").map { $0[0] }, try tx.fetch(Query<Entry>()))
            }
            store.close()
            #expect(check == [.text("ok")], "round \(round): integrity_check failed")
            let storedIDs = Set(stored.map(\.id))
            let missing = reported.subtracting(storedIDs)
            #expect(
                missing.isEmpty,
                "round \(round): reported commits missing after SIGKILL: \(missing.sorted().prefix(10))")
            #expect(stored.allSatisfy { $0.payload == Entry.payload(for: $0.id) }, "round \(round): a row is damaged")
        }
        #expect(reported.count >= 25)
    }

    /// The cascade writer's entities (same tables and shape as in `PersistenceCrashWriter`).
    struct CrashParent: StoredEntity {
        var id: Int64
        var name: String
    }

    struct CrashChild: StoredEntity {
        var id: Int64
        var parentID: Int64
        var payload: String

        static let parent = ToOne<CrashChild, CrashParent>(Field("parentID"), onDelete: .cascade)
        static let relations: [any Relation<CrashChild>] = [parent]
    }

    @Test func aSIGKILLDuringCascadingDeletesLosesNothingAndLeavesNoOrphan() async throws {
        let binary = try CrashWriter.binary()
        let fixture = try StoreFixture()
        var generator = SystemRandomNumberGenerator()
        for round in 0..<4 {
            let lines = try await Self.killWhileWriting(
                binary, fixture, mode: "cascade", afterReports: 5...40, round: round, using: &generator)
            let last = try #require(lines.compactMap { Int64($0) }.last)

            let store = try fixture.open([Entry.self, CrashParent.self, CrashChild.self])
            let (check, keys, parents, children) = try store.context.readAndWait { tx in
                (
                    try tx.rows("PRAGMA integrity_check").map { $0[0] }, try tx.rows("PRAGMA foreign_key_check"),
                    try tx.fetch(Query<CrashParent>()).map(\.id).sorted(), try tx.fetch(Query<CrashChild>())
                )
            }
            store.close()
            #expect(check == [.text("ok")], "round \(round): integrity_check failed")
            #expect(keys.isEmpty, "round \(round): orphaned children after SIGKILL")
            // The last reported commit holds, and at most one more (committed, not yet reported).
            #expect(
                parents == [last - 1, last] || parents == [last, last + 1],
                "round \(round): parents \(parents), last \(last)")
            var perParent: [Int64: Int] = [:]
            for child in children { perParent[child.parentID, default: 0] += 1 }
            #expect(Set(perParent.keys) == Set(parents), "round \(round): children of deleted parents survived")
            #expect(perParent.values.allSatisfy { $0 == 50 }, "round \(round): a cascade was half applied")
            #expect(children.allSatisfy { $0.payload == Entry.payload(for: $0.id % 1_000) })
        }
    }

    @Test func anotherProcessWritingAtTheSameTimeMakesWritersTakeTurns() async throws {
        let binary = try CrashWriter.binary()
        let fixture = try StoreFixture()
        let store = try fixture.open([Entry.self, Counter.self])
        let process = try ChildProcess(
            executable: binary, [fixture.url.path, "loop"], standardOutput: .pipe, standardError: .inherited)
        let output = Collector<Data>()
        let reader = try PipeReader(#require(process.standardOutput)) { output.append($0) }
        defer {
            process.send(SIGKILL)
            _ = process.waitBlocking()
        }
        try await waitUntil("output.lines.count >= 5 || !process.isRunning") {
            output.lines.count >= 5 || !process.isRunning
        }
        // While the child commits in a loop, this process commits too: BEGIN IMMEDIATE and the
        // busy timeout make the two take turns instead of failing.
        for index in 1...200 {
            try store.context.persistAndWait { tx in try tx.insert(Counter(id: Int64(index), value: index)) }
        }
        let before = output.lines.count
        try await waitUntil("output.lines.count > before + 5 || !process.isRunning") {
            output.lines.count > before + 5 || !process.isRunning
        }
        #expect(process.isRunning, "the writer process died while sharing the store")
        process.send(SIGKILL)
        #expect(await reader.waitForEnd(timeout: Patience.hang), "the writer's output never ended")
        _ = await process.exit()
        let reported = Set(output.lines.compactMap { Int64($0) })
        let (counters, entries) = try store.context.readAndWait { tx in
            (try tx.count(Query<Counter>()), Set(try tx.fetch(Query<Entry>()).map(\.id)))
        }
        #expect(counters == 200)
        #expect(reported.isSubset(of: entries))
    }

    @Test(arguments: ["enqueue-then-close", "enqueue-then-exit"])
    func blocksAcceptedBeforeExit(mode: String) async throws {
        // Closing runs every accepted block; exiting without closing runs none that had not
        // started (there is no exit hook), and those that ran are committed whole.
        let binary = try CrashWriter.binary()
        let fixture = try StoreFixture()
        let process = try ChildProcess(
            executable: binary, [fixture.url.path, mode, "300"], standardOutput: .inherited, standardError: .inherited)
        do {
            try await waitUntil("the writer to exit") { !process.isRunning }
        } catch {
            await process.kill()
            throw error
        }
        #expect(process.ending == ChildProcess.Termination(status: 0, signalled: false))
        let store = try fixture.open([Entry.self])
        let (check, stored) = try store.context.readAndWait { tx in
            (try tx.rows("PRAGMA integrity_check").map { $0[0] }, try tx.fetch(Query<Entry>()))
        }
        #expect(check == [.text("ok")])
        #expect(stored.allSatisfy { $0.payload == Entry.payload(for: $0.id) })
        // Blocks run in order: what is stored is a prefix of what was queued.
        #expect(stored.map(\.id).sorted() == Array(1..<Int64(stored.count) + 1))
        if mode == "enqueue-then-close" { #expect(stored.count == 300) }
    }
}
