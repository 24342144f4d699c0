import Foundation
import Locking
import Observation
import TestSupport
import Testing

@testable import Persistence

/// Waits for the next change Observation reports in what `read` reads.
@MainActor private func nextChange(_ what: String, of read: @escaping @MainActor () -> Void) -> () async throws -> Void
{
    let arrival = Arrival<Bool>()
    withObservationTracking(read, onChange: { arrival.fulfill(true) })
    return { _ = try await arrival.value(what) }
}

@Suite @MainActor struct LiveQueryTests {
    let fixture: StoreFixture
    let store: ObjectStore

    init() throws {
        fixture = try StoreFixture()
        store = try fixture.open()
        try store.context.persistAndWait { tx in
            try tx.insert(Book(id: "1", title: "Dune", pages: 412))
            try tx.insert(Book(id: "2", title: "Emma", pages: 474))
        }
    }

    @Test func aCommitNotifiesObservationAndTheResultsFollow() async throws {
        let live = LiveValue(.query(Query<Book>(sortedBy: [Book.title.ascending()])), in: store)
        #expect(!live.isLoaded)
        let loaded = nextChange("the first fetch") { _ = live.value }
        try await loaded()
        #expect(live.isLoaded)
        #expect((live.value?.results ?? []).map(\.title) == ["Dune", "Emma"])
        #expect(live.value?.changes.inserted == [0, 1])

        let committed = nextChange("the commit's delivery") { _ = live.value }
        try await store.context.persist { tx in try tx.insert(Book(id: "3", title: "Beloved", pages: 324)) }
        try await committed()
        #expect((live.value?.results ?? []).map(\.title) == ["Beloved", "Dune", "Emma"])
        #expect(live.value?.changes == ChangeSet(inserted: [0]))
        #expect(live.error == nil)
    }

    @Test func changingTheQueryRefetches() async throws {
        let live = LiveValue(.query(Query<Book>(sortedBy: [Book.title.ascending()])), in: store)
        try await nextChange("the first fetch") { _ = live.value }()
        let refetched = nextChange("the refetch") { _ = live.value }
        live.observation = .query(Query(where: Book.pages > 420, sortedBy: [Book.title.descending()]))
        #expect(!live.isLoaded)
        try await refetched()
        #expect((live.value?.results ?? []).map(\.title) == ["Emma"])
        #expect(live.isLoaded)

        // Commits are judged by the new query: a short book is not among the results.
        let next = nextChange("a delivery for the new query") { _ = live.value }
        try await store.context.persist { tx in
            try tx.insert(Book(id: "4", title: "Ulysses", pages: 730))
            try tx.insert(Book(id: "5", title: "Candide", pages: 144))
        }
        try await next()
        #expect((live.value?.results ?? []).map(\.title) == ["Ulysses", "Emma"])
    }

    @Test func theOnChangeCallbackRunsAfterEachDelivery() async throws {
        let live = LiveValue(.query(Query<Book>(where: Book.title == "Dune")), in: store)
        let calls = Arrival<Int>()
        live.onChange = { calls.fulfill((live.value?.results ?? []).count) }
        #expect(try await calls.value("the first delivery") == 1)
        try await store.context.persist { tx in try tx.delete(Query<Book>(where: Book.title == "Dune")) }
        try await waitUntil("the delete's delivery") { calls.count == 2 }
        #expect(calls.all == [1, 0])
    }

    @Test func aReleasedLiveQueryStopsObserving() async throws {
        var live: LiveValue<QueryChange<Book>>? = LiveValue(.query(Query<Book>()), in: store)
        try await nextChange("the first fetch") { _ = live?.value }()
        #expect(store.core.center.hasObservers)
        live = nil
        #expect(!store.core.center.hasObservers)
        // A commit after the release reaches nobody, and nothing crashes.
        try await store.context.persist { tx in try tx.insert(Book(id: "6", title: "Kim", pages: 300)) }
    }

    @Test func closingTheStoreSetsAClosedErrorNamingIt() async throws {
        let live = LiveValue(.query(Query<Book>()), in: store)
        try await nextChange("the first fetch") { _ = live.value }()
        let failed = nextChange("the close") { _ = live.error }
        store.close()
        try await failed()
        let error = try #require(live.error as? PersistenceError)
        #expect(error.code == .closed)
        #expect(error.message.contains(fixture.url.path))
        #expect((live.value?.results ?? []).count == 2, "the last results stay")
        #expect(!store.core.center.hasObservers)
    }

    @Test func aLiveQueryOfAClosedStoreReportsItAtOnce() async throws {
        store.close()
        let live = LiveValue(.query(Query<Book>()), in: store)
        try await nextChange("the error") { _ = live.error }()
        #expect((live.error as? PersistenceError)?.code == .closed)
        #expect(!live.isLoaded)
    }

    @Test func aQueryThatFailsSetsTheErrorAndKeepsTheLastResults() async throws {
        let live = LiveValue(.query(Query<Book>()), in: store)
        try await nextChange("the first fetch") { _ = live.value }()
        let failed = nextChange("the error") { _ = live.error }
        live.observation = .query(Query(where: Field<Book, Int>("nonexistent") > 3))
        try await failed()
        #expect((live.error as? PersistenceError)?.code == .unknownProperty)
        #expect((live.value?.results ?? []).count == 2)
    }
}

@Suite @MainActor struct LiveValueTests {
    let fixture: StoreFixture
    let store: ObjectStore

    init() throws {
        fixture = try StoreFixture()
        store = try fixture.open([Novel.self, Book.self])
        try store.context.persistAndWait { tx in try tx.insert(contentsOf: AggregateTests.novels) }
    }

    @Test func aLiveCountFollowsCommits() async throws {
        let count = LiveValue(.value(tracking: Novel.self) { tx in try tx.count(Query<Novel>()) }, in: store)
        try await nextChange("the first read") { _ = count.value }()
        #expect(count.value == 6)
        let next = nextChange("the commit's read") { _ = count.value }
        try await store.context.persist { tx in try tx.delete(Query<Novel>(where: Novel.year < 1900)) }
        try await next()
        #expect(count.value == 4)
    }

    @Test func aLiveGroupedResultFollowsUpdatesByFilter() async throws {
        let perAuthor = LiveValue(
            .value(tracking: Novel.self) { tx in
                try tx.groups(
                    Query<Novel>(), by: Novel.author, aggregating: Aggregate.count(of: Novel.self), Novel.pages.sum()
                )
                .map { "\($0.0): \($0.1) books, \($0.2) pages" }
            }, in: store)
        try await nextChange("the first read") { _ = perAuthor.value }()
        #expect(perAuthor.value?.first == "Emile Zola: 2 books, 620 pages")
        let next = nextChange("the update's read") { _ = perAuthor.value }
        try await store.context.persist { tx in
            _ = try tx.update(Query<Novel>(where: Novel.author == "Émile Zola"), set: [Novel.pages += 10])
        }
        try await next()
        #expect(perAuthor.value?.first == "Emile Zola: 2 books, 630 pages")
    }

    @Test func aCommitToAnotherEntityDoesNotRunTheReadAgain() async throws {
        let reads = Locked(0)
        let count = LiveValue(
            .value(tracking: Novel.self) { tx in
                reads.withLock { $0 += 1 }
                return try tx.count(Query<Novel>())
            }, in: store)
        try await nextChange("the first read") { _ = count.value }()
        try await store.context.persist { tx in try tx.insert(Book(id: "9", title: "Kim", pages: 3)) }
        let next = nextChange("the novel's read") { _ = count.value }
        try await store.context.persist { tx in try tx.insert(AggregateTests.novels[0].with(id: 99, isbn: "z")) }
        try await next()
        #expect(count.value == 7)
        #expect(reads.withLock { $0 } == 2, "the Book commit did not run the read")
    }

    @Test func trackingAnEntityTheStoreDoesNotHaveIsATypedError() async throws {
        let count = LiveValue(.value(tracking: Photo.self) { tx in try tx.count(Query<Photo>()) }, in: store)
        try await nextChange("the error") { _ = count.error }()
        let error = try #require(count.error as? PersistenceError)
        #expect(error.code == .misuse)
        #expect(error.message.contains("Photo"))
        #expect(count.value == nil)
    }

    @Test func aFailedReadSetsTheErrorAndTheNextGoodReadClearsIt() async throws {
        let value = LiveValue(
            .value(tracking: Novel.self) { tx in
                let count = try tx.count(Query<Novel>())
                guard count < 7 else { throw TooMany() }
                return count
            }, in: store)
        try await nextChange("the first read") { _ = value.value }()
        let failed = nextChange("the failure") { _ = value.error }
        try await store.context.persist { tx in try tx.insert(AggregateTests.novels[0].with(id: 99, isbn: "z")) }
        try await failed()
        #expect(value.error is TooMany)
        #expect(value.value == 6)
        let recovered = nextChange("the recovery") { _ = value.value }
        try await store.context.persist { tx in try tx.delete(Query<Novel>(where: Novel.id == 99)) }
        try await recovered()
        #expect(value.error == nil)
        #expect(value.value == 6)
    }

    @Test func valuesIsAnAsyncSequenceOfReads() async throws {
        var iterator = store.values(.value(tracking: Novel.self, read: { tx in try tx.sum(Novel.pages) }))
            .makeAsyncIterator()
        #expect(try await iterator.next() == 1_858)
        try await store.context.persist { tx in try tx.delete(Query<Novel>(where: Novel.id == 1)) }
        #expect(try await iterator.next() == 1_446)
    }
}

extension Novel {
    func with(id: Int, isbn: String?) -> Novel {
        var copy = self
        copy.id = id
        copy.isbn = isbn
        return copy
    }
}

@Suite struct SectionedObservationTests {
    let fixture: StoreFixture
    let store: ObjectStore

    init() throws {
        fixture = try StoreFixture()
        store = try fixture.open([Novel.self])
        try store.context.persistAndWait { tx in try tx.insert(contentsOf: AggregateTests.novels) }
    }

    static let byAuthor = Query<Novel>(sortedBy: [Novel.author.ascending(), Novel.year.ascending()])

    @Test func sectionsFollowTheQueryOrder() async throws {
        let deliveries = Arrival<SectionedChange<String, Novel>>()
        let token = store.observe(.query(Self.byAuthor, sectionedBy: \.author)) { deliveries.fulfill($0) }
        defer { token.cancel() }
        let first = try await deliveries.value("the first delivery")
        #expect(first.isInitial)
        #expect(
            first.sections.map(\.key) == [
                "Emile Zola", "Frank Herbert", "Ursula Le Guin", "Ursula le Guin", "frank herbert", "Émile Zola",
            ])
        #expect(first.sections.map { $0.rows.map(\.id) } == [[6], [1], [3], [4], [2], [5]])
        #expect(first.sectionChanges.inserted == Array(0..<6))
        #expect(first.rowChanges == first.sections.map { ChangeSet(inserted: Array($0.rows.indices)) })
    }

    @Test func aRowThatChangesSectionIsDeletedFromOneAndInsertedIntoTheOther() async throws {
        let deliveries = Arrival<SectionedChange<String, Novel>>()
        let token = store.observe(.query(Self.byAuthor, sectionedBy: \.author)) { deliveries.fulfill($0) }
        defer { token.cancel() }
        _ = try await deliveries.value("the first delivery")
        // Dune Messiah (2) joins "Frank Herbert": its old section empties and goes.
        try await store.context.persist { tx in
            _ = try tx.update(Query<Novel>(where: Novel.id == 2), set: [Novel.author.set("Frank Herbert")])
            _ = try tx.update(Query<Novel>(where: Novel.id == 3), set: [Novel.pages += 1])
        }
        try await waitUntil("the commit's delivery") { deliveries.count == 2 }
        let change = deliveries.all[1]
        #expect(!change.isInitial)
        #expect(
            change.sections.map(\.key) == [
                "Emile Zola", "Frank Herbert", "Ursula Le Guin", "Ursula le Guin", "Émile Zola",
            ])
        #expect(change.sectionChanges.deleted == [4])
        #expect(change.sectionChanges.inserted.isEmpty)
        #expect(change.sectionChanges.updated == [1, 2])
        #expect(change.rowChanges[1] == ChangeSet(inserted: [1]))
        #expect(change.rowChanges[2] == ChangeSet(updated: [0]))
        #expect(change.rowChanges[0].isEmpty && change.rowChanges[3].isEmpty && change.rowChanges[4].isEmpty)
    }

    @Test func aNewKeyInsertsASection() async throws {
        let deliveries = Arrival<SectionedChange<String, Novel>>()
        let token = store.observe(.query(Self.byAuthor, sectionedBy: \.author)) { deliveries.fulfill($0) }
        defer { token.cancel() }
        _ = try await deliveries.value("the first delivery")
        try await store.context.persist { tx in
            try tx.insert(Novel(id: 7, title: "Kindred", author: "Octavia Butler", year: 1979, pages: 264))
        }
        try await waitUntil("the commit's delivery") { deliveries.count == 2 }
        let change = deliveries.all[1]
        #expect(change.sections.map(\.key)[2] == "Octavia Butler")
        #expect(change.sectionChanges == ChangeSet(inserted: [2]))
        #expect(change.rowChanges[2] == ChangeSet(inserted: [0]))
    }

    @Test @MainActor func theMainActorFormDeliversOnTheMainActor() async throws {
        let keys = Arrival<[String]>()
        let token = store.observe(.query(Self.byAuthor, sectionedBy: \.author)) { change in
            MainActor.assertIsolated()
            keys.fulfill(change.sections.map(\.key))
        }
        defer { token.cancel() }
        #expect(try await keys.value("the first delivery").count == 6)
    }
}

private struct TooMany: Error {}

@Suite struct ExternalCommitTests {
    @Test func anObservationSeesCommitsOfAnotherStoreOnTheSameFile() async throws {
        let fixture = try StoreFixture()
        let watching = try fixture.open([Book.self]) { $0.externalCommitPolling = .milliseconds(20) }
        let writing = try fixture.open([Book.self])
        let titles = Arrival<[String]>()
        let token = watching.observe(.query(Query<Book>(sortedBy: [Book.title.ascending()]))) { change in
            titles.fulfill(change.results.map(\.title))
        }
        defer { token.cancel() }
        #expect(try await titles.value("the first delivery") == [])
        // The other store's commit reaches `watching` only through the file.
        try await writing.context.persist { tx in try tx.insert(Book(id: "1", title: "Dune")) }
        try await waitUntil("the other store's commit") { titles.count == 2 }
        #expect(titles.all.last == ["Dune"])
        let count = Arrival<Int>()
        let counting = watching.observe(.value(tracking: Book.self, read: { tx in try tx.count(Query<Book>()) })) {
            count.fulfill($0)
        }
        defer { counting.cancel() }
        #expect(try await count.value("the first count") == 1)
        try await writing.context.persist { tx in try tx.insert(Book(id: "2", title: "Emma")) }
        try await waitUntil("the count after the other store's commit") { count.all.last == 2 }
        writing.close()
        watching.close()
    }
}
