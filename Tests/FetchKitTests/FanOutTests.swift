import Foundation
import Locking
import TestSupport
import Testing

@testable import FetchKit

@Suite struct FanOutTests {
    struct Boom: Error {}

    @Test func allUnchangedItemsGiveNoData() async {
        let report = await FanOut().run(Array(1...20), changed: { _, _ in false }) { $0 * 2 }
        #expect(report.outcome == .noData)
        #expect(report.values == (1...20).map { $0 * 2 })
        #expect(report.unchangedCount == 20)
        #expect(!report.wasCancelled)
    }

    @Test func oneChangedItemGivesNewDataEvenBesideFailures() async {
        let report = await FanOut().run(Array(0..<10), changed: { item, _ in item == 7 }) { item in
            if item.isMultiple(of: 2) { throw Boom() }
            return item
        }
        #expect(report.outcome == .newData)
        #expect(report.changedCount == 1)
        #expect(report.failedCount == 5)
        #expect(report.itemOutcomes[7] == .changed)
        #expect(report.itemOutcomes[0] == .failed)
    }

    @Test func failureWithoutChangeIsFailedUnderStrictAndNoDataUnderTolerant() async {
        let job: @Sendable (Int) async throws -> Int = { item in
            if item == 3 { throw Boom() }
            return item
        }
        let strict = await FanOut(failureRule: .strict).run(Array(0..<5), changed: { _, _ in false }, transform: job)
        let tolerant = await FanOut(failureRule: .tolerant).run(
            Array(0..<5), changed: { _, _ in false }, transform: job)
        #expect(strict.outcome == .failed)
        #expect(tolerant.outcome == .noData)
    }

    @Test func everyItemFailingIsFailedUnderEitherRule() async {
        for rule in [FailureRule.strict, .tolerant] {
            let report = await FanOut(failureRule: rule).run(Array(0..<4), changed: { _, _ in true }) {
                (_: Int) -> Int in throw Boom()
            }
            #expect(report.outcome == .failed)
            #expect(report.errors.count == 4)
        }
    }

    @Test func aConcurrencyLimitBelowOneStillRunsEveryItem() async {
        var fanOut = FanOut(maximumConcurrency: -3)
        #expect(fanOut.maximumConcurrency == 1)
        fanOut.maximumConcurrency = 0
        let report = await fanOut.run(Array(0..<5), changed: { _, _ in false }) { $0 }
        #expect(report.values == [0, 1, 2, 3, 4])
        #expect(!report.wasCancelled)
    }

    @Test func anEmptyFanOutHasNoData() async {
        let report = await FanOut().run([Int](), changed: { _, _ in true }) { $0 }
        #expect(report.outcome == .noData)
        #expect(report.results.isEmpty)
    }

    @Test func resultsKeepInputOrderWhenItemsFinishOutOfOrder() async {
        let report = await FanOut(maximumConcurrency: 5).run(Array(0..<25), changed: { _, _ in false }) { item in
            // Later items finish sooner.
            for _ in 0..<(25 - item) { await Task.yield() }
            return "item \(item)"
        }
        #expect(report.values == (0..<25).map { "item \($0)" })
    }

    @Test(arguments: [1, 3, 6])
    func theConcurrencyLimitIsNeverExceeded(limit: Int) async {
        let counter = InFlightCounter()
        let report = await FanOut(maximumConcurrency: limit).run(Array(0..<60), changed: { _, _ in false }) { item in
            counter.enter()
            defer { counter.leave() }
            try await Task.sleep(nanoseconds: 200_000)
            return item
        }
        #expect(report.outcome == .noData)
        #expect(counter.startedCount == 60)
        #expect(counter.maximum <= limit)
        #expect(counter.maximum >= 1)
    }

    @Test func tenThousandItemsNeverHoldMoreThanTheLimitInFlight() async {
        let counter = InFlightCounter()
        let report = await FanOut().run(0..<10_000, changed: { item, _ in item == 9_999 }) { item in
            counter.enter()
            defer { counter.leave() }
            await Task.yield()
            return item
        }
        #expect(report.outcome == .newData)
        #expect(report.results.count == 10_000)
        #expect(counter.startedCount == 10_000)
        #expect(counter.maximum <= FanOut.defaultMaximumConcurrency)
    }

    @Test func progressCountsUpToTheTotalInOrder() async {
        let seen = Arrival<FanOutProgress>()
        _ = await FanOut(maximumConcurrency: 3).run(
            Array(0..<12), changed: { item, _ in item < 4 }, progress: { seen.fulfill($0) }
        ) { item in
            if item == 11 { throw Boom() }
            return item
        }
        let progress = seen.all
        #expect(progress.map(\.completed) == Array(1...12))
        #expect(progress.allSatisfy { $0.total == 12 })
        #expect(progress.last?.changed == 4)
        #expect(progress.last?.failed == 1)
        #expect(progress.last?.unchanged == 7)
        #expect(progress.last?.fractionCompleted == 1)
    }

    @Test func theCallbackFormDeliversExactlyOnceAfterAllProgress() async throws {
        let queue = DispatchQueue(label: "FanOutTests.callback")
        let progressCount = Arrival<Int>()
        let done = Arrival<(outcome: RefreshOutcome, progressSeen: Int)>()
        FanOut(maximumConcurrency: 4, callbackQueue: queue).run(
            Array(0..<30), changed: { _, value in value == 29 },
            progress: { progressCount.fulfill($0.completed) },
            transform: { (item: Int) in item },
            completion: { report in done.fulfill((report.outcome, progressCount.count)) }
        )
        let delivered = try await done.value("the fan-out's completion")
        #expect(delivered.outcome == .newData)
        #expect(delivered.progressSeen == 30)
        queue.sync {}  // Anything else scheduled on the queue has run by now.
        #expect(done.count == 1)
    }

    @Test func jobsRunLikeElements() async {
        let jobs: [@Sendable () async throws -> Int] = [{ 1 }, { 2 }, { throw Boom() }]
        let report = await FanOut().run(jobs: jobs, changed: { $0 == 2 })
        #expect(report.outcome == .newData)
        #expect(report.itemOutcomes == [.unchanged, .changed, .failed])
    }

    @Test func cancellingMidWayStartsNothingNewAndReportsOnce() async throws {
        let counter = InFlightCounter()
        let done = Arrival<FanOutReport<Int>>()
        let handle = FanOut(maximumConcurrency: 2).run(
            Array(0..<50), changed: { _, _ in true },
            transform: { (item: Int) in
                counter.enter()
                defer { counter.leave() }
                if item < 4 { return item }
                // Items from 4 on wait until they are cancelled (bounded, so nothing hangs).
                try await Task.sleep(for: Patience.beyondTheTest)
                return item
            },
            completion: { done.fulfill($0) }
        )
        try await waitUntil("two blocked items") { counter.startedCount >= 6 && counter.inFlight == 2 }
        handle.cancel()
        let report = try await done.value("the cancelled fan-out's report")
        #expect(handle.isCancelled)
        #expect(report.wasCancelled)
        #expect(report.changedCount == 4)
        #expect(report.outcome == .newData)
        #expect(counter.startedCount == 6)
        #expect(report.failedCount == 46)
        #expect(report.results[10].isCancellation)
        #expect(done.count == 1)
    }

    @Test func cancellingBeforeAnythingChangesIsFailed() async {
        let task = Task {
            await FanOut(maximumConcurrency: 2).run(Array(0..<10), changed: { _, _ in true }) { item in
                try await Task.sleep(for: Patience.beyondTheTest)
                return item
            }
        }
        task.cancel()
        let report = await task.value
        #expect(report.outcome == .failed)
        #expect(report.wasCancelled)
    }
}

extension Result {
    var isCancellation: Bool {
        if case .failure(let error) = self { return error is CancellationError }
        return false
    }
}

extension FanOutTests {
    @Test func resultsYieldEveryItemOnceThenTheReportLast() async {
        var items: [Int: Int] = [:]
        var progress: [Int] = []
        var report: FanOutReport<Int>?
        var eventsAfterReport = 0
        for await event in FanOut(maximumConcurrency: 3).results(Array(0..<50), changed: { item, _ in item == 7 }, transform: {
            item in
            if item == 13 { throw Boom() }
            return item * 2
        }) {
            if report != nil { eventsAfterReport += 1 }
            switch event {
            case .item(let index, let result, _, let current):
                #expect(items[index] == nil, "item \(index) came twice")
                items[index] = (try? result.get()) ?? -1
                progress.append(current.completed)
            case .finished(let finished):
                report = finished
            }
        }
        #expect(items.count == 50)
        #expect(items[13] == -1 && items[7] == 14)
        #expect(progress == Array(1...50))
        #expect(eventsAfterReport == 0)
        #expect(report?.outcome == .newData)
        #expect(report?.failedCount == 1)
    }

    @Test func aReaderThatLeavesTheResultsEarlyStopsTheRun() async throws {
        let started = Locked(0)
        let reader = Task {
            var count = 0
            let events = FanOut(maximumConcurrency: 2).results(Array(0..<1_000), changed: { _, _ in false }) {
                item -> Int in
                started.withLock { $0 += 1 }
                try await Task.sleep(for: .milliseconds(5))
                return item
            }
            for await event in events {
                if case .item = event { count += 1 }
                if count == 4 { break }
            }
        }
        await reader.value
        // Each item sleeps 5 ms, two at a time: a run that went on would start all 1,000 in
        // about 2.5 s; one that stopped starts none after the reader left.
        var before = started.current
        for _ in 0..<100 {
            try await Task.sleep(for: .milliseconds(50))
            if started.current == before { break }
            before = started.current
        }
        #expect(started.current < 1_000)
    }
}
