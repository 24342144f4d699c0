import Foundation
import Locking
@testable import Persistence
import TestSupport
import Testing

struct Boom: Error {}

@Suite struct PersistTests {
    @Test func aThrowingBlockRollsBackEverything() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        #expect(throws: Boom.self) {
            try store.context.persistAndWait { tx in
                try tx.insert(Counter(id: 1, value: 1))
                throw Boom()
            }
        }
        #expect(try store.context.readAndWait { try $0.count(Query<Counter>()) } == 0)
    }

    @Test func completionFormCommitsThenCallsBackOnce() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let results = Collector<Int>()
        let other = store.makeContext()
        store.context.persist({ tx in
            try tx.insert(Counter(id: 1, value: 42))
            return 7
        }) { result in
            // Committed before the completion runs: another context sees it.
            let seen = (try? other.readAndWait { try $0.fetch(Counter.self, id: 1) })??.value
            results.append((try? result.get()) == 7 && seen == 42 ? 1 : -1)
        }
        #expect(results.wait { $0.count == 1 })
        // The completion runs on the context's queue: once it is idle, a second call would have come.
        store.context.waitUntilIdle()
        #expect(results.values == [1])
    }

    @Test func completionFormReportsTheBlocksError() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let errors = Collector<Bool>()
        // From code isolated to no actor, the completion runs on the context's own queue.
        store.context.persist({ _ in throw Boom() }) { result in
            let onQueue = store.context.isOnQueue
            if case .failure(let error) = result, error is Boom, onQueue {
                errors.append(true)
            } else {
                errors.append(false)
            }
        }
        #expect(errors.wait { $0.count == 1 })
        #expect(errors.values == [true])
    }

    @Test func asyncFormReturnsTheBlocksValue() async throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let count = try await store.context.persist { tx in
            try tx.insert(Counter(id: 1, value: 1))
            return try tx.count(Query<Counter>())
        }
        #expect(count == 1)
        let value = try await store.context.read { tx in try tx.fetch(Counter.self, id: 1)?.value }
        #expect(value == 1)
        await #expect(throws: Boom.self) { try await store.context.persist { _ in throw Boom() } }
    }

    @Test func asyncFormDoesNotRunWhenAlreadyCancelled() async throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.context.persist { tx in try tx.insert(Counter(id: 1, value: 1)) }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try store.context.readAndWait { try $0.count(Query<Counter>()) } == 0)
    }

    @Test func nestedPersistAndWaitRunsAsASavepointWithoutDeadlock() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let context = store.context
        try context.persistAndWait { tx in
            try tx.insert(Counter(id: 1, value: 1))
            // A nested block that throws undoes only its own changes.
            #expect(throws: Boom.self) {
                try context.persistAndWait { inner in
                    try inner.insert(Counter(id: 2, value: 2))
                    throw Boom()
                }
            }
            // A nested block that returns joins the outer transaction.
            try context.persistAndWait { inner in try inner.insert(Counter(id: 3, value: 3)) }
            // Reads inside see the block's own uncommitted writes.
            #expect(try context.readAndWait { try $0.count(Query<Counter>()) } == 2)
        }
        let ids = try context.readAndWait {
            try $0.fetch(Query<Counter>(sortedBy: [Field<Counter, Int64>("id").ascending()]))
        }
        #expect(ids.map(\.id) == [1, 3])
    }

    @Test func nestedBlockCommitsOnlyWithTheOuterBlock() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let context = store.context
        #expect(throws: Boom.self) {
            try context.persistAndWait { _ in
                try context.persistAndWait { inner in try inner.insert(Counter(id: 1, value: 1)) }
                throw Boom()
            }
        }
        #expect(try context.readAndWait { try $0.count(Query<Counter>()) } == 0)
    }

    @Test func completionPersistInsideABlockIsQueuedAfterIt() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let context = store.context
        let seen = Collector<Int>()
        try context.persistAndWait { tx in
            context.persist({ inner in try inner.count(Query<Counter>()) }) { result in
                seen.append((try? result.get()) ?? -1)
            }
            try tx.insert(Counter(id: 1, value: 1))
        }
        #expect(seen.wait { $0.count == 1 })
        #expect(seen.values == [1])
    }

    @Test func persistOnAnotherContextInsideABlockFailsInsteadOfDeadlocking() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let other = store.makeContext()
        try store.context.persistAndWait { _ in
            let misuse = #expect(throws: PersistenceError.self) {
                try other.persistAndWait { tx in try tx.insert(Counter(id: 1, value: 1)) }
            }
            #expect(misuse?.code == .misuse)
        }
    }

    @Test func aTransactionUsedAfterItsBlockThrowsMisuse() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let escaped = try store.context.persistAndWait { tx in tx }
        let misuse = #expect(throws: PersistenceError.self) { try escaped.insert(Counter(id: 1, value: 1)) }
        #expect(misuse?.code == .misuse)
    }

    @Test func sixteenThreadsIncrementingOneCounterReachExactlyEightThousand() async throws {
        let fixture = try StoreFixture()
        // Sixteen threads take turns at one writer lock, which is not first come, first served:
        // on a busy machine one of them may wait longer than the 5 s default.
        let store = try fixture.open { $0.busyTimeout = Patience.hang }
        try store.context.persistAndWait { tx in try tx.insert(Counter(id: 1, value: 0)) }
        let contexts = [store.context] + (0..<3).map { _ in store.makeContext() }
        let failures = Collector<String>()
        let group = DispatchGroup()
        for thread in 0..<16 {
            group.enter()
            let context = contexts[thread % contexts.count]
            Thread.detachNewThread {
                defer { group.leave() }
                for _ in 0..<500 {
                    do {
                        try context.persistAndWait { tx in
                            guard var counter = try tx.fetch(Counter.self, id: 1) else { throw Boom() }
                            counter.value += 1
                            try tx.update(counter)
                        }
                    } catch {
                        failures.append("\(error)")
                    }
                }
            }
        }
        #expect(await Blocking.run { group.wait(timeout: Patience.hangDeadline) } == .success)
        #expect(failures.values.isEmpty)
        #expect(try store.context.readAndWait { try $0.fetch(Counter.self, id: 1) }?.value == 8_000)
    }

    @Test func readersProceedWhileAWriterHoldsItsTransaction() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        try store.context.persistAndWait { tx in try tx.insert(Counter(id: 1, value: 1)) }
        let writerInside = DispatchSemaphore(value: 0)
        let releaseWriter = DispatchSemaphore(value: 0)
        store.context.persist(
            { tx in
                try tx.insert(Counter(id: 2, value: 2))
                writerInside.signal()
                _ = releaseWriter.wait(timeout: Patience.hangDeadline)
            }, completion: nil)
        #expect(writerInside.wait(timeout: Patience.hangDeadline) == .success)
        let readers = (0..<3).map { _ in store.makeContext() }
        for reader in readers {
            // Readers see the last committed state, not the writer's uncommitted row.
            #expect(try reader.readAndWait { try $0.count(Query<Counter>()) } == 1)
        }
        releaseWriter.signal()
        store.context.waitUntilIdle()
        #expect(try readers[0].readAndWait { try $0.count(Query<Counter>()) } == 2)
    }

    @Test func closedStoreRefusesWork() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        try store.context.persistAndWait { tx in try tx.insert(Counter(id: 1, value: 1)) }
        store.close()
        let closed = #expect(throws: PersistenceError.self) {
            try store.context.readAndWait { try $0.count(Query<Counter>()) }
        }
        #expect(closed?.code == .closed)
        let reopened = try fixture.open()
        #expect(try reopened.context.readAndWait { try $0.count(Query<Counter>()) } == 1)
    }

    @Test func releasingAStoreAndItsContextRunsTheQueuedBlocksThenClosesTheFile() throws {
        let fixture = try StoreFixture()
        let inside = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let results = Locked<[Bool]>([])
        do {
            let store = try fixture.open()
            let context = store.makeContext()
            context.persist(
                { (tx: ObjectTransaction) -> Void in
                    inside.signal()
                    _ = proceed.wait(timeout: Patience.hangDeadline)
                    try tx.insert(Counter(id: 1, value: 1))
                },
                completion: { (result: Result<Void, any Error>) in
                    results.withLock { $0.append((try? result.get()) != nil) }
                })
            for id in 2...5 {
                context.persist(
                    { (tx: ObjectTransaction) -> Void in try tx.insert(Counter(id: Int64(id), value: id)) },
                    completion: { (result: Result<Void, any Error>) in
                        results.withLock { $0.append((try? result.get()) != nil) }
                        if id == 5 { finished.signal() }
                    })
            }
            #expect(inside.wait(timeout: Patience.hangDeadline) == .success)
        }
        // The store and the context are released with five blocks accepted: each still runs and
        // commits, then the context goes and its connection closes the file.
        proceed.signal()
        #expect(finished.wait(timeout: Patience.hangDeadline) == .success)
        #expect(results.current == [true, true, true, true, true])
        #if os(Linux)
            let deadline = Patience.hangDeadline
            while Self.openDescriptors(to: fixture.url.path) > 0, DispatchTime.now() < deadline { usleep(1_000) }
            #expect(Self.openDescriptors(to: fixture.url.path) == 0, "the released store still holds its file open")
        #endif
        let reopened = try fixture.open()
        #expect(try reopened.context.readAndWait { try $0.count(Query<Counter>()) } == 5)
    }

    @Test func closingOneStoreLeavesAnotherStoresContextsWorking() throws {
        let first = try StoreFixture()
        let second = try StoreFixture()
        let one = try first.open()
        let other = try second.open()
        let otherContext = other.makeContext()
        one.close()
        try otherContext.persistAndWait { tx in try tx.insert(Counter(id: 1, value: 1)) }
        #expect(try other.context.readAndWait { try $0.count(Query<Counter>()) } == 1)
        let closed = #expect(throws: PersistenceError.self) {
            try one.makeContext().readAndWait { try $0.count(Query<Counter>()) }
        }
        #expect(closed?.code == .closed)
    }

    #if os(Linux)
        /// How many of this process's file descriptors are open on `path` (the database file itself).
        static func openDescriptors(to path: String) -> Int {
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return names.filter { name in
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)")
                return target == path || target == resolved
            }.count
        }
    #endif
}
