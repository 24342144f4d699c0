import FetchKitTesting
import Foundation
import Locking
import TestSupport
import Testing

@testable import FetchKit

/// Every test drives a TestClock: nothing waits for real time to pass.
@Suite struct PeriodicFetcherTests {
    struct Boom: Error {}

    let clock = TestClock()
    let runs = Arrival<PeriodicRun<Int>>()

    func asleep(_ count: Int = 1) async throws {
        guard await clock.sleepers(count: count) else {
            throw TimedOut(what: "the fetcher to sleep on the clock")
        }
    }

    func waitForRuns(_ count: Int) async throws {
        try await waitUntil("\(count) runs") { runs.count >= count }
    }

    @Test func theFirstRunIsImmediateThenOneRunPerInterval() async throws {
        let fetcher = PeriodicFetcher(every: .seconds(60), clock: clock, job: { 7 }, onRun: runs.fulfill)
        fetcher.start()
        try await waitForRuns(1)
        try await asleep()
        await clock.advance(by: .seconds(59))
        #expect(clock.sleeperCount == 1)  // Still asleep: no tick yet.
        #expect(runs.count == 1)
        await clock.advance(by: .seconds(1))
        try await waitForRuns(2)
        try await asleep()
        await clock.advance(by: .seconds(60))
        try await waitForRuns(3)
        #expect(runs.all.map(\.number) == [1, 2, 3])
        #expect(runs.all.map(\.scheduledAt) == [.zero, .seconds(60), .seconds(120)])
        #expect(runs.all.allSatisfy { (try? $0.result.get()) == 7 && $0.skippedTicks == 0 })
        fetcher.stop()
    }

    @Test func theFirstRunCanWaitForADelay() async throws {
        let fetcher = PeriodicFetcher(
            every: .seconds(60), firstRunDelay: .seconds(10), clock: clock, job: { 1 }, onRun: runs.fulfill)
        fetcher.start()
        try await asleep()
        await clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 1)
        #expect(runs.count == 0)
        await clock.advance(by: .seconds(1))
        try await waitForRuns(1)
        #expect(runs.all.first?.scheduledAt == .seconds(10))
        fetcher.stop()
    }

    @Test func ticksDuringARunAreSkippedAndRunsNeverOverlap() async throws {
        let gate = Gate()
        let counter = InFlightCounter()
        let calls = Locked(0)
        let fetcher = PeriodicFetcher(
            every: .seconds(10), clock: clock,
            job: {
                counter.enter()
                defer { counter.leave() }
                let call = calls.withLock { value -> Int in
                    value += 1
                    return value
                }
                if call == 2 { await gate.wait() }
                return call
            }, onRun: runs.fulfill)
        fetcher.start()
        try await waitForRuns(1)
        try await asleep()
        await clock.advance(by: .seconds(10))  // Run 2 starts and blocks.
        try await waitUntil("run 2 to block") { gate.waiting == 1 }
        #expect(fetcher.isRunningJob)
        await clock.advance(by: .seconds(25))  // Ticks at 20 s and 30 s come during run 2.
        #expect(clock.sleeperCount == 0)
        gate.open()
        try await waitForRuns(2)
        try await asleep()
        #expect(runs.count == 2)
        await clock.advance(by: .seconds(5))  // Now 40 s: the next tick on the grid.
        try await waitForRuns(3)
        let third = try #require(runs.all.last)
        #expect(third.number == 3)
        #expect(third.skippedTicks == 2)
        #expect(third.scheduledAt == .seconds(40))
        #expect(counter.maximum == 1)
        fetcher.stop()
    }

    @Test func pausedTicksPassWithoutRunsUntilResumed() async throws {
        let fetcher = PeriodicFetcher(every: .seconds(10), clock: clock, job: { 1 }, onRun: runs.fulfill)
        fetcher.start()
        try await waitForRuns(1)
        fetcher.pause()
        #expect(fetcher.status == .paused)
        for _ in 0..<3 {
            try await asleep()
            await clock.advance(by: .seconds(10))
        }
        try await asleep()
        #expect(runs.count == 1)
        fetcher.resume()
        #expect(fetcher.status == .active)
        await clock.advance(by: .seconds(10))
        try await waitForRuns(2)
        #expect(runs.all.last?.scheduledAt == .seconds(40))
        #expect(runs.all.last?.skippedTicks == 0)
        fetcher.stop()
    }

    @Test func failuresAreReportedAndTheScheduleGoesOn() async throws {
        let calls = Locked(0)
        let fetcher = PeriodicFetcher(
            every: .seconds(10), clock: clock,
            job: { () async throws -> Int in
                let call = calls.withLock { value -> Int in
                    value += 1
                    return value
                }
                if call == 1 { throw Boom() }
                return call
            }, onRun: runs.fulfill)
        fetcher.start()
        try await waitForRuns(1)
        try await asleep()
        await clock.advance(by: .seconds(10))
        try await waitForRuns(2)
        #expect(runs.all.first.map { (try? $0.result.get()) == nil } == true)
        #expect((try? runs.all.last?.result.get()) == 2)
        fetcher.stop()
    }

    @Test func stopEndsTicksAndStartBeginsANewSchedule() async throws {
        let fetcher = PeriodicFetcher(every: .seconds(10), clock: clock, job: { 1 }, onRun: runs.fulfill)
        fetcher.start()
        fetcher.start()  // Already started: no second loop.
        try await waitForRuns(1)
        try await asleep()
        fetcher.stop()
        #expect(fetcher.status == .stopped)
        try await waitUntil("the stopped loop to leave the clock") { clock.sleeperCount == 0 }
        await clock.advance(by: .seconds(100))
        #expect(runs.count == 1)
        fetcher.start()
        try await waitForRuns(2)
        #expect(runs.all.map(\.number) == [1, 1])
        fetcher.stop()
    }

    @Test func stopCancelsTheRunGoingOnWithoutReportingIt() async throws {
        let started = Arrival<Void>()
        let fetcher = PeriodicFetcher(
            every: .seconds(10), clock: clock,
            job: { () async throws -> Int in
                started.fulfill(())
                try await clock.sleep(until: clock.now.advanced(by: .seconds(1_000)), tolerance: nil)
                return 1
            }, onRun: runs.fulfill)
        fetcher.start()
        try await started.value("the run to start")
        fetcher.stop()
        try await waitUntil("the cancelled run to end") { !fetcher.isRunningJob && clock.sleeperCount == 0 }
        #expect(runs.count == 0)
    }

    @Test func jitterDelaysARunByAtMostTheJitter() async throws {
        let fetcher = PeriodicFetcher(
            every: .seconds(60), jitter: .seconds(5), clock: clock, job: { 1 }, onRun: runs.fulfill)
        fetcher.start()
        try await asleep()
        await clock.advance(by: .seconds(5))
        try await waitForRuns(1)
        try await asleep()
        await clock.advance(by: .milliseconds(54_999))  // 59.999 s: before the second tick.
        #expect(clock.sleeperCount == 1)
        await clock.advance(by: .milliseconds(5_001))  // 65 s: the tick plus the whole jitter.
        try await waitForRuns(2)
        #expect(runs.all.last?.scheduledAt == .seconds(60))
        fetcher.stop()
    }

    @Test func releasingTheFetcherStopsIt() async throws {
        do {
            let fetcher = PeriodicFetcher(every: .seconds(10), clock: clock, job: { 1 }, onRun: runs.fulfill)
            fetcher.start()
            try await waitForRuns(1)
            try await asleep()
        }
        try await waitUntil("the released fetcher's loop to end") { clock.sleeperCount == 0 }
        await clock.advance(by: .seconds(100))
        #expect(runs.count == 1)
    }

    @Test func runNowRunsBetweenTicksAndKeepsTheGrid() async throws {
        let fetcher = PeriodicFetcher(every: .seconds(60), clock: clock, job: { 1 }, onRun: runs.fulfill)
        fetcher.start()
        try await waitForRuns(1)
        try await asleep()
        await clock.advance(by: .seconds(20))
        #expect(fetcher.runNow())
        try await waitForRuns(2)
        #expect(runs.all.last?.scheduledAt == .seconds(20))
        try await asleep()
        await clock.advance(by: .seconds(39))
        #expect(runs.count == 2)
        await clock.advance(by: .seconds(1))
        try await waitForRuns(3)
        #expect(runs.all.map(\.scheduledAt) == [.zero, .seconds(20), .seconds(60)])
        #expect(runs.all.map(\.number) == [1, 2, 3])
        fetcher.stop()
    }

    @Test func runNowIsRefusedDuringARunAndWhenNotActive() async throws {
        let gate = Gate()
        let calls = Locked(0)
        let fetcher = PeriodicFetcher(
            every: .seconds(60), clock: clock,
            job: {
                let call = calls.withLock { value -> Int in
                    value += 1
                    return value
                }
                if call == 1 { await gate.wait() }
                return call
            }, onRun: runs.fulfill)
        #expect(!fetcher.runNow())  // Stopped.
        fetcher.start()
        try await waitUntil("run 1 to block") { gate.waiting == 1 }
        #expect(!fetcher.runNow())  // A run is going.
        gate.open()
        try await waitForRuns(1)
        try await asleep()
        #expect(runs.count == 1)
        #expect(calls.withLock { $0 } == 1)
        fetcher.pause()
        #expect(!fetcher.runNow())  // Paused.
        fetcher.resume()
        #expect(fetcher.runNow())
        try await waitForRuns(2)
        fetcher.stop()
        #expect(!fetcher.runNow())
    }
}

extension PeriodicFetcherTests {
    @Test func runsYieldEachRunInOrderAndEndWhenTheFetcherStops() async throws {
        let fetcher = PeriodicFetcher(every: .seconds(60), clock: clock) { 7 }
        let followed = fetcher.runs()
        let stoppedRuns = await followed.reduce(into: 0) { count, _ in count += 1 }
        #expect(stoppedRuns == 0, "a sequence made while stopped ends at once")
        fetcher.start()
        let runs = fetcher.runs()
        let reader = Task { await runs.reduce(into: [Int]()) { $0.append($1.number) } }
        try await asleep()
        for _ in 0..<2 {
            await clock.advance(by: .seconds(60))
            try await asleep()
        }
        fetcher.stop()
        #expect(await reader.value == [1, 2, 3])
    }
}
