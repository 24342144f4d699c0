import Foundation
import Locking
import TestSupport
import Testing
import FetchKitOperations

@testable import FetchKit

/// These run on the platform's real `OperationQueue`: swift-corelibs-foundation's on Linux.
@Suite struct AsyncOperationTests {
    struct Boom: Error {}

    /// Counts how often `execute()` runs, and finishes twice to prove the second call is inert.
    final class CountingOperation: AsyncOperation, @unchecked Sendable {
        // @unchecked Sendable: `executions` is guarded by an Locked.
        let executions = Locked(0)
        let cancelledEarly = Locked(false)

        override func execute() {
            executions.withLock { $0 += 1 }
            DispatchQueue.global().async {
                self.finish()
                self.finish()
            }
        }

        override func cancelledBeforeStart() {
            cancelledEarly.withLock { $0 = true }
        }
    }

    /// An operation that runs until it is let go.
    final class HeldOperation: AsyncOperation, @unchecked Sendable {
        // @unchecked Sendable: a semaphore is thread-safe.
        let release = DispatchSemaphore(value: 0)

        override func execute() {
            DispatchQueue.global().async {
                self.release.wait()
                self.finish()
            }
        }
    }

    /// `mustc refresh --operations` crashed on Ctrl-C: the queue, cancelled, let the refresh's
    /// completion operation go while a fetch it depends on was running, and the fetch then told
    /// the released operation it had finished. The completion now lives until its fetches end.
    @Test func aQueueCancelledWhileADependencyRunsNeverReleasesItsDependentTooSoon() async throws {
        for _ in 0..<20 {
            let queue = OperationQueue()
            let running = HeldOperation()
            let reported = Arrival<RefreshOutcome>()
            weak var completion: RefreshCompletionOperation?
            do {
                completion = queue.addRefresh([running]) { reported.fulfill($0) }
            }
            try await waitUntil("the operation to start") { running.isExecuting }
            queue.cancelAllOperations()
            #expect(try await reported.value("the cancelled refresh's outcome") == .failed)
            // The queue has let the cancelled completion go; the running operation keeps it.
            #expect(completion != nil)
            running.release.signal()
            try await waitUntil("the held operation to finish") { running.isFinished && queue.operationCount == 0 }
            try await waitUntil("the completion to be released") { completion == nil }
        }
    }

    @Test func manyFetchOperationsRespectMaxConcurrentOperationCountAndReportOnce() async throws {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 4
        let counter = InFlightCounter()
        let outcome = Arrival<RefreshOutcome>()
        let operations = (0..<200).map { item in
            FetchOperation(changed: { $0 == 150 }) {
                counter.enter()
                defer { counter.leave() }
                try await Task.sleep(nanoseconds: 100_000)
                return item
            }
        }
        let completion = queue.addRefresh(operations) { outcome.fulfill($0) }
        #expect(try await outcome.value("the refresh outcome") == .newData)
        try await waitUntil("the completion operation to finish") { completion.isFinished }
        #expect(counter.startedCount == 200)
        #expect(counter.maximum <= 4)
        #expect(operations.allSatisfy { $0.isFinished && !$0.isExecuting })
        #expect(operations[150].itemOutcome == .changed)
        #expect(operations[3].value == 3)
        #expect(completion.outcome == .newData)
        #expect(outcome.count == 1)
    }

    @Test func allUnchangedDependenciesGiveNoDataAndOneFailureGivesFailed() async throws {
        let queue = OperationQueue()
        let unchanged = Arrival<RefreshOutcome>()
        queue.addRefresh((0..<5).map { item in FetchOperation(changed: { _ in false }) { item } }) {
            unchanged.fulfill($0)
        }
        #expect(try await unchanged.value() == .noData)

        let failing = Arrival<RefreshOutcome>()
        let operations = (0..<5).map { item in
            FetchOperation(changed: { _ in false }) { () async throws -> Int in
                if item == 2 { throw Boom() }
                return item
            }
        }
        queue.addRefresh(operations) { failing.fulfill($0) }
        #expect(try await failing.value() == .failed)
        #expect(operations[2].result.map { (try? $0.get()) == nil } == true)
    }

    @Test func anOperationCancelledBeforeStartNeverRunsAndCountsAsFailed() async throws {
        let queue = OperationQueue()
        let ran = InFlightCounter()
        let cancelled = FetchOperation(changed: { _ in true }) {
            ran.enter()
            return 1
        }
        cancelled.cancel()
        let unchanged = FetchOperation(changed: { _ in false }) { 2 }
        let outcome = Arrival<RefreshOutcome>()
        queue.addRefresh([cancelled, unchanged], failureRule: .tolerant) { outcome.fulfill($0) }
        #expect(try await outcome.value() == .noData)
        #expect(ran.startedCount == 0)
        #expect(cancelled.isFinished)
        #expect(cancelled.result?.isCancellation == true)
        #expect(cancelled.itemOutcome == .failed)
    }

    @Test func aCompletionOperationCancelledBeforeStartReportsFailedOnce() async throws {
        let queue = OperationQueue()
        let outcome = Arrival<RefreshOutcome>()
        let gate = Gate()
        let slow = FetchOperation { () async throws -> Int in
            await gate.wait()
            return 1
        }
        let completion = queue.addRefresh([slow]) { outcome.fulfill($0) }
        completion.cancel()
        gate.open()
        #expect(try await outcome.value() == .failed)
        try await waitUntil("the queue to drain") { queue.operationCount == 0 }
        #expect(outcome.count == 1)
        #expect(slow.value == 1)
    }

    @Test func cancellingARunningFetchOperationCancelsItsJob() async throws {
        let queue = OperationQueue()
        let started = Arrival<Void>()
        let operation = FetchOperation { () async throws -> Int in
            started.fulfill(())
            try await Task.sleep(for: Patience.beyondTheTest)
            return 1
        }
        queue.addOperation(operation)
        try await started.value("the job to start")
        operation.cancel()
        try await waitUntil("the cancelled operation to finish") { operation.isFinished }
        #expect(operation.result?.isCancellation == true)
        #expect(!operation.isExecuting)
    }

    @Test func startingTwiceExecutesOnceAndFinishingTwiceIsHarmless() async throws {
        let operation = CountingOperation()
        #expect(operation.isAsynchronous)
        #expect(!operation.isExecuting && !operation.isFinished)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in operation.start() }
        try await waitUntil("the operation to finish") { operation.isFinished }
        #expect(operation.executions.withLock { $0 } == 1)
        #expect(!operation.isExecuting)
    }

    @Test func queueCancellationBeforeStartFinishesWithoutExecuting() async throws {
        let queue = OperationQueue()
        queue.isSuspended = true
        let operations = (0..<50).map { _ in CountingOperation() }
        for operation in operations { queue.addOperation(operation) }
        queue.cancelAllOperations()
        queue.isSuspended = false
        try await waitUntil("every cancelled operation to finish") { operations.allSatisfy(\.isFinished) }
        #expect(operations.allSatisfy { $0.executions.withLock { $0 } == 0 })
        #expect(operations.allSatisfy { $0.cancelledEarly.withLock { $0 } })
        try await waitUntil("the queue to drain") { queue.operationCount == 0 }
    }

    @Test func dependentsStartOnlyAfterTheirDependenciesFinish() async throws {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 3
        let order = Locked([String]())
        let first = FetchOperation { () async throws -> Int in
            try await Task.sleep(nanoseconds: 2_000_000)
            order.withLock { $0.append("first") }
            return 1
        }
        let second = FetchOperation { () async throws -> Int in
            order.withLock { $0.append("second") }
            return 2
        }
        second.addDependency(first)
        let outcome = Arrival<RefreshOutcome>()
        queue.addRefresh([second, first]) { outcome.fulfill($0) }
        #expect(try await outcome.value() == .newData)
        #expect(order.withLock { $0 } == ["first", "second"])
    }
}
