import Foundation
import TestSupport
import Testing

@testable import Persistence

final class BookListScreen: Sendable {
    let lists = Collector<[String]>()
    func receive(_ entities: [Book]) { lists.append(entities.map(\.title)) }
}

/// A screen isolated to the main actor, as a view controller or a SwiftUI model is: it observes
/// with a plain trailing closure, which runs on the main actor.
@MainActor final class MainActorScreen {
    /// Marks the main queue, whose thread runs the main actor's jobs (on Linux, after
    /// `dispatchMain()`, not always the process's first thread).
    nonisolated static let mainQueue = DispatchSpecificKey<Bool>()
    nonisolated let lists = Collector<[String]>()
    var calledOffTheMainQueue = false
    var token: ObservationToken?

    func start(_ store: ObjectStore, sortedBy sort: [Sort<Book>]) {
        token = store.observe(.query(Query<Book>(sortedBy: sort))) { change in
            if DispatchQueue.getSpecific(key: Self.mainQueue) != true { self.calledOffTheMainQueue = true }
            self.lists.append(change.results.map(\.title))
        }
    }
}

@Suite struct ObservationTests {
    let byTitle = [Book.title.ascending(caseInsensitive: true)]

    @Test func observerGetsCurrentResultsThenEachCommitsChangesOnItsQueue() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        try store.context.persistAndWait { tx in
            try tx.insert(Book(id: "1", title: "b"))
            try tx.insert(Book(id: "2", title: "d"))
        }
        let queue = DispatchQueue(label: "observer")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        let changes = Collector<QueryChange<Book>>()
        let wrongQueue = Collector<Bool>()
        let token = store.observe(.query(Query<Book>(sortedBy: byTitle)), on: queue) { change in
            if DispatchQueue.getSpecific(key: key) != 1 { wrongQueue.append(true) }
            changes.append(change)
        }
        #expect(changes.wait { $0.count == 1 })
        let initial = try #require(changes.values.first)
        #expect(initial.isInitial)
        #expect(initial.results.map(\.title) == ["b", "d"])
        #expect(initial.changes.inserted == [0, 1])

        try store.context.persistAndWait { tx in try tx.insert(Book(id: "3", title: "a")) }
        #expect(changes.wait { $0.count == 2 })
        let second = changes.values[1]
        #expect(!second.isInitial)
        #expect(second.results.map(\.title) == ["a", "b", "d"])
        #expect(second.changes == ChangeSet(inserted: [0]))

        try store.context.persistAndWait { tx in
            try tx.update(Book(id: "1", title: "e"))  // b moves from index 1 to the end and changes
            try tx.delete(Book.self, id: "3")
        }
        #expect(changes.wait { $0.count == 3 })
        let third = changes.values[2]
        #expect(third.results.map(\.title) == ["d", "e"])
        #expect(third.changes.deleted == [0])
        #expect(third.changes.updated == [1])
        #expect(third.changes.inserted.isEmpty)
        #expect(third.changes.moved.count == 1)
        #expect(wrongQueue.values.isEmpty)
        token.cancel()
    }

    @Test func rolledBackBlocksAndUnrelatedCommitsDeliverNothing() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let changes = Collector<QueryChange<Book>>()
        let queue = DispatchQueue(label: "o")
        let token = store.observe(.query(Query<Book>(where: Book.pages > 100)), on: queue) { changes.append($0) }
        #expect(changes.wait { $0.count == 1 })
        #expect(throws: Boom.self) {
            try store.context.persistAndWait { tx in
                try tx.insert(Book(id: "1", title: "x", pages: 500))
                throw Boom()
            }
        }
        try store.context.persistAndWait { tx in try tx.insert(Book(id: "2", title: "short", pages: 10)) }
        try store.context.persistAndWait { tx in try tx.insert(Counter(id: 1, value: 1)) }
        // A commit that does match proves the observer is alive; it must be the only delivery.
        try store.context.persistAndWait { tx in try tx.insert(Book(id: "3", title: "long", pages: 300)) }
        #expect(changes.wait { $0.count >= 2 })
        // Every delivery of those commits has been made once the observer and its queue are idle.
        store.observerContext.waitUntilIdle()
        queue.sync {}
        #expect(changes.count == 2)
        #expect(changes.values.last?.results.map(\.id) == ["3"])
        token.cancel()
    }

    @Test func aBurstOfCommitsIsCoalescedAndEndsAtTheLastState() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let changes = Collector<QueryChange<Counter>>()
        let token = store.observe(.query(Query<Counter>()), on: DispatchQueue(label: "o")) { changes.append($0) }
        #expect(changes.wait { $0.count == 1 })
        for index in 1...200 {
            try store.context.persistAndWait { tx in try tx.insert(Counter(id: Int64(index), value: index)) }
        }
        #expect(changes.wait { $0.last?.results.count == 200 })
        #expect(changes.count <= 201)
        // Change sets chain: applying every delivery's inserts adds up to the final count.
        let inserted = changes.values.reduce(0) { $0 + $1.changes.inserted.count }
        #expect(inserted == 200)
        token.cancel()
    }

    @Test func cancelledObservationStopsDelivering() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let changes = Collector<QueryChange<Counter>>()
        let queue = DispatchQueue(label: "o")
        let token = store.observe(.query(Query<Counter>()), on: queue) { changes.append($0) }
        #expect(changes.wait { $0.count == 1 })
        token.cancel()
        try store.context.persistAndWait { tx in try tx.insert(Counter(id: 1, value: 1)) }
        store.observerContext.waitUntilIdle()
        queue.sync {}
        #expect(changes.count == 1)
    }

    @Test func anObservationEndsWhenItsTokenIsCancelledOrReleased() async throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let screen = BookListScreen()
        var token: ObservationToken? = store.observe(.query(Query<Book>(sortedBy: byTitle))) { [screen] change in
            screen.receive(change.results)
        }
        try await waitUntil("screen.lists.count == 1") { screen.lists.count == 1 }
        #expect(screen.lists.values == [[]])
        try await store.context.persist { tx in
            try tx.insert(Book(id: "1", title: "zebra"))
            try tx.insert(Book(id: "2", title: "Apple"))
        }
        try await waitUntil("screen.lists.count == 2") { screen.lists.count == 2 }
        #expect(screen.lists.values.last == ["Apple", "zebra"])

        let second = BookListScreen()
        let cancelled = store.observe(.query(Query<Book>())) { [second] change in second.receive(change.results) }
        try await waitUntil("second.lists.count == 1") { second.lists.count == 1 }
        cancelled.cancel()

        // An observation that stays, to know when the next commit has been delivered.
        let witness = BookListScreen()
        let kept = store.observe(.query(Query<Book>())) { [witness] change in witness.receive(change.results) }
        try await waitUntil("witness.lists.count == 1") { witness.lists.count == 1 }
        _ = token
        token = nil  // released: the observation ends
        try await store.context.persist { tx in try tx.insert(Book(id: "3", title: "m")) }
        try await waitUntil("witness.lists.count == 2") { witness.lists.count == 2 }
        #expect(screen.lists.count == 2, "a released observation delivered")
        #expect(second.lists.count == 1, "a cancelled observation delivered")
        kept.cancel()
    }

    @Test func aMainActorObserverIsCalledOnTheMainActorInCommitOrder() async throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        DispatchQueue.main.setSpecific(key: MainActorScreen.mainQueue, value: true)
        let screen = MainActorScreen()
        await screen.start(store, sortedBy: byTitle)
        for (index, title) in ["b", "a", "c"].enumerated() {
            try await store.context.persist { tx in try tx.insert(Book(id: "\(index)", title: title)) }
        }
        // Main-actor jobs wait while the test process's main thread is busy (XCTest runs its
        // tests there), so this bound is generous; nothing here measures time.
        try await waitUntil("the last list to hold every commit") { screen.lists.values.last == ["a", "b", "c"] }
        let lists = screen.lists.values
        // The first call tells the list as it was when the observation's first refresh ran (commits
        // made meanwhile are folded into it); the last holds every commit.
        #expect(!lists.isEmpty && lists.last == ["a", "b", "c"], "\(lists)")
        // In commit order: each list holds the one before it.
        for (earlier, later) in zip(lists, lists.dropFirst()) {
            #expect(Set(earlier).isSubset(of: Set(later)), "\(lists)")
        }
        #expect(await !screen.calledOffTheMainQueue)
        await screen.token?.cancel()
    }

    @Test func changesAreAnAsyncSequence() async throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let sequence = store.values(.query(Query<Counter>(sortedBy: [Field<Counter, Int>("value").descending()])))
        let writer = Task {
            for index in 1...3 {
                try await store.context.persist { tx in try tx.insert(Counter(id: Int64(index), value: index)) }
            }
        }
        var last: [Int] = []
        for try await change in sequence {
            last = change.results.map(\.value)
            if last.count == 3 { break }
        }
        try await writer.value
        #expect(last == [3, 2, 1])
    }

    @Test func inMemoryStoreObservationWorks() throws {
        let store = try ObjectStore.inMemory(entities: [Counter.self])
        let changes = Collector<QueryChange<Counter>>()
        let token = store.observe(.query(Query<Counter>()), on: DispatchQueue(label: "o")) { changes.append($0) }
        try store.context.persistAndWait { tx in try tx.insert(Counter(id: 1, value: 1)) }
        #expect(changes.wait { $0.last?.results.count == 1 })
        token.cancel()
    }

    @Test func rawSQLWritesAlsoNotifyObservers() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let changes = Collector<QueryChange<Counter>>()
        let token = store.observe(.query(Query<Counter>()), on: DispatchQueue(label: "o")) { changes.append($0) }
        #expect(changes.wait { $0.count == 1 })
        try store.context.persistAndWait { tx in
            try tx.execute(#"INSERT INTO "Counter" ("id", "value") VALUES (?, ?)"#, [.integer(5), .integer(6)])
        }
        #expect(changes.wait { $0.count == 2 })
        #expect(changes.values.last?.results == [Counter(id: 5, value: 6)])
        token.cancel()
    }
}

@Suite struct ChangeSetTests {
    @Test func diffFindsMovesWithTheLongestStableRun() {
        let rows: [[DatabaseValue]] = [[.integer(0)], [.integer(0)], [.integer(0)], [.integer(0)]]
        let changes = ChangeSet.diff(
            old: ["a", "b", "c", "d"], oldRows: rows, new: ["b", "c", "d", "a"], newRows: rows)
        #expect(changes.moved == [ChangeSet.Move(from: 0, to: 3)])
        #expect(changes.inserted.isEmpty && changes.deleted.isEmpty && changes.updated.isEmpty)
    }

    /// An identity type the diff has no specialized path for.
    struct Tag: Hashable { var value: Int }

    /// The specialized paths (Int, Int64, String, UUID) and the generic one give the same changes.
    @Test func diffIsTheSameForEveryIdentityType() {
        // Old rows 0...5; row 1 leaves, row 3 changes, row 0 moves to the end, row 6 enters.
        let old = [0, 1, 2, 3, 4, 5]
        let new = [2, 3, 6, 4, 5, 0]
        let oldRows = old.map { [DatabaseValue.integer(Int64($0))] }
        let newRows = new.map { [DatabaseValue.integer(Int64($0 == 3 ? 30 : $0))] }
        let expected = ChangeSet(
            inserted: [2], deleted: [1], updated: [1], moved: [ChangeSet.Move(from: 0, to: 5)])
        let uuids = (0...6).map { _ in UUID() }
        #expect(ChangeSet.diff(old: old, oldRows: oldRows, new: new, newRows: newRows) == expected)
        #expect(
            ChangeSet.diff(old: old.map { Int64($0) }, oldRows: oldRows, new: new.map { Int64($0) }, newRows: newRows)
                == expected)
        #expect(
            ChangeSet.diff(
                old: old.map { "row \($0)" }, oldRows: oldRows, new: new.map { "row \($0)" }, newRows: newRows)
                == expected)
        #expect(
            ChangeSet.diff(old: old.map { uuids[$0] }, oldRows: oldRows, new: new.map { uuids[$0] }, newRows: newRows)
                == expected)
        #expect(
            ChangeSet.diff(
                old: old.map { Tag(value: $0) }, oldRows: oldRows, new: new.map { Tag(value: $0) }, newRows: newRows)
                == expected)
    }
}
