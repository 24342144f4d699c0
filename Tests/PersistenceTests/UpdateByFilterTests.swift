import Foundation
import TestSupport
import Testing

@testable import Persistence

struct Gauge: StoredEntity, Equatable {
    var id: Int
    var level: Float

    static let level = Field<Gauge, Float>("level")
}

/// A reading that refuses a negative value when decoded.
struct Reading: StoredEntity, Equatable {
    var id: Int
    var value: Int
    var group: Int

    static let value = Field<Reading, Int>("value")
    static let group = Field<Reading, Int>("group")

    init(id: Int, value: Int, group: Int) {
        self.id = id
        self.value = value
        self.group = group
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        value = try container.decode(Int.self, forKey: .value)
        group = try container.decode(Int.self, forKey: .group)
        guard value >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .value, in: container, debugDescription: "negative")
        }
    }
}

@Suite struct UpdateByFilterTests {
    let fixture: StoreFixture
    let store: ObjectStore

    init() throws {
        fixture = try StoreFixture()
        store = try fixture.open([Novel.self, Item.self])
        try store.context.persistAndWait { tx in try tx.insert(contentsOf: AggregateTests.novels) }
    }

    func novels() throws -> [Novel] {
        try store.context.readAndWait { tx in try tx.fetch(Query<Novel>(sortedBy: [Novel.pages.ascending()])) }
            .sorted { $0.id < $1.id }
    }

    @Test func updateSetsFieldsOnEveryMatchingRowAndReturnsTheCount() throws {
        let changed = try store.context.persistAndWait { tx in
            try tx.update(
                Query<Novel>(where: Novel.year > 1900),
                set: [Novel.pages += 10, Novel.rating.set(nil), Novel.shelf.set(.done)])
        }
        #expect(changed == 4)
        var expected = AggregateTests.novels
        for index in expected.indices where expected[index].year > 1900 {
            expected[index].pages += 10
            expected[index].rating = nil
            expected[index].shelf = .done
        }
        #expect(try novels() == expected)
        let lowered = try store.context.persistAndWait { tx in
            try tx.update(Query<Novel>(where: Novel.id == 5), set: [Novel.pages -= 300, Novel.rating += 1])
        }
        #expect(lowered == 1)
        #expect(try novels()[4].pages == 0)
        #expect(try novels()[4].rating == 4.0)
        // `nil` stays `nil` under +=.
        try store.context.persistAndWait { tx in _ = try tx.update(Query<Novel>(), set: [Novel.rating += 1]) }
        #expect(try novels().filter { $0.rating == nil }.map(\.id) == [1, 2, 3, 4, 6])
        #expect(try store.context.persistAndWait { tx in try tx.update(Query<Novel>(where: .nothing), set: []) } == 0)
    }

    @Test func settingAPropertyStoredAsJSONStoresWhatAnUpsertStores() throws {
        for edition in [Int??.some(nil), .some(3), .none] {
            try store.context.persistAndWait { tx in
                _ = try tx.update(Query<Novel>(where: Novel.id == 1), set: [Novel.edition.set(edition)])
                var upserted = AggregateTests.novels[1]
                upserted.edition = edition
                try tx.upsert(upserted)
            }
            let rows = try store.context.readAndWait { tx in
                try tx.rows("SELECT edition FROM Novel WHERE id <= 2 ORDER BY id").map(\.values)
            }
            #expect(rows[0] == rows[1], "\(String(describing: edition))")
            #expect(try novels()[0].edition == edition)
        }
    }

    @Test func settingCaseInsensitiveTextKeepsItsFoldedColumnInSync() throws {
        try store.context.persistAndWait { tx in
            _ = try tx.update(Query<Novel>(where: Novel.id <= 2), set: [Novel.author.set("Ángel Herbért")])
        }
        let found = try store.context.readAndWait { tx in
            try tx.fetch(Query<Novel>(where: Novel.author.equals("angel HERBERT"))).map(\.id).sorted()
        }
        #expect(found == [1, 2])
        let folds = try store.context.readAndWait { tx in
            try tx.rows("SELECT fk_fold_author FROM Novel WHERE id <= 2").map(\.values)
        }
        #expect(folds == [[.text("angel herbert")], [.text("angel herbert")]])
    }

    @Test func aNaNOrOutOfRangeValueRefusesTheWholeUpdateNamingTheProperty() throws {
        let cases: [(Assignment<Novel>, String)] = [
            (Novel.rating.set(.nan), "rating"),
            (Novel.year += 31_000, "year"),
            (Novel.pages += .max, "pages"),
            (Novel.pages -= .min, "pages"),
        ]
        for (assignment, property) in cases {
            let error = #expect(throws: PersistenceError.self) {
                try store.context.persistAndWait { tx in
                    try tx.update(Query<Novel>(), set: [Novel.title.set("Changed"), assignment])
                }
            }
            #expect(error?.code == .unsupportedValue)
            #expect(error?.property == property)
            #expect(error?.message.contains("Novel.\(property)") == true)
            #expect(try novels() == AggregateTests.novels)
        }
        // Infinity minus infinity is NaN: refused before anything is written.
        try store.context.persistAndWait { tx in
            _ = try tx.update(Query<Novel>(where: Novel.id == 1), set: [Novel.rating.set(.infinity)])
        }
        let nan = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in
                try tx.update(Query<Novel>(where: Novel.rating != nil), set: [Novel.rating += -.infinity])
            }
        }
        #expect(nan?.code == .unsupportedValue)
        #expect(nan?.property == "rating")
    }

    @Test func anUpdateThatViolatesAUniqueKeyAppliesNothingAndTheBlockGoesOn() throws {
        let result = try store.context.persistAndWait { tx -> (PersistenceError?, Int) in
            var caught: PersistenceError?
            do {
                try tx.update(Query<Novel>(where: Novel.isbn != nil), set: [Novel.isbn.set("same"), Novel.pages += 1])
            } catch let error as PersistenceError {
                caught = error
            }
            // The failed statement applied nothing; the block's other writes still commit.
            let rest = try tx.update(Query<Novel>(where: Novel.id == 3), set: [Novel.pages.set(1)])
            return (caught, rest)
        }
        #expect(result.0?.code == .uniqueKeyViolation)
        #expect(result.0?.entity == "Novel")
        #expect(result.0?.property == "isbn")
        #expect(result.0?.message.contains("Novel.isbn") == true)
        #expect(result.1 == 1)
        var expected = AggregateTests.novels
        expected[2].pages = 1
        #expect(try novels() == expected)
    }

    @Test func updateInAReadBlockOrAssigningTwiceIsMisuse() throws {
        let read = #expect(throws: PersistenceError.self) {
            try store.context.readAndWait { tx in try tx.update(Query<Novel>(), set: [Novel.pages += 1]) }
        }
        #expect(read?.code == .misuse)
        let twice = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in
                try tx.update(Query<Novel>(), set: [Novel.pages += 1, Novel.pages.set(3)])
            }
        }
        #expect(twice?.code == .misuse)
        #expect(twice?.property == "pages")
    }

    @Test func addingToAFloatPropertyIsRefusedNamingIt() throws {
        let fixture = try StoreFixture("floats.sqlite")
        let store = try fixture.open([Gauge.self])
        try store.context.persistAndWait { tx in try tx.insert(Gauge(id: 1, level: 0.5)) }
        let error = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in
                try tx.update(Query<Gauge>(), set: [Gauge.level += 0.1])
            }
        }
        #expect(error?.code == .unsupportedValue)
        #expect(error?.property == "level")
        #expect(try store.context.readAndWait { tx in try tx.fetch(Gauge.self, id: 1)?.level } == 0.5)
        #expect(
            try store.context.persistAndWait { tx in try tx.update(Query<Gauge>(), set: [Gauge.level.set(2)]) }
                == 1)
    }

    /// Observers of several queries get, after each update by filter, the change set a full diff of
    /// their results gives, and they get it incrementally.
    @Test func observersReceiveTheExactChangeSetOfAnUpdateIncrementally() throws {
        try store.context.persistAndWait { tx in
            for id in 0..<200 {
                try tx.insert(
                    Item(
                        id: id, name: IncrementalObservationTests.names[id % 12],
                        score: id % 9 == 0 ? nil : Double(id % 13) / 4, group: id % 5))
            }
        }
        let watched = [
            Watched(
                "by-score", Query(sortedBy: [Item.score.descending(), Item.name.ascending(caseInsensitive: true)])),
            Watched("filtered", Query(where: Item.score > 1.5, sortedBy: [Item.name.ascending()])),
            Watched("unsorted", Query(where: Item.group != 1)),
        ]
        let tokens = watched.map { $0.observe(in: store) }
        defer { tokens.forEach { $0.cancel() } }
        for item in watched { #expect(item.deliveries.wait { !$0.isEmpty }) }
        store.observerContext.waitUntilIdle()
        let updates: [(Filter<Item>, [Assignment<Item>])] = [
            (Item.group == 2, [Item.score += 0.5]),
            (Item.score > 2, [Item.score.set(nil), Item.name.set("Zed")]),
            (Item.name.hasPrefix("a"), [Item.group.set(1)]),
            (Item.score == nil, [Item.score.set(3)]),
            (.nothing, [Item.group.set(4)]),
        ]
        let before = store.core.center.refreshCounts
        for (step, (filter, assignments)) in updates.enumerated() {
            try store.context.persistAndWait { tx in _ = try tx.update(Query<Item>(where: filter), set: assignments) }
            for item in watched {
                #expect(try item.waitForCurrentResults(in: store), "step \(step): \(item.label)")
            }
        }
        store.observerContext.waitUntilIdle()
        for item in watched { #expect(item.deliveriesUnlikeAFullDiff() == [], "\(item.label)") }
        let after = store.core.center.refreshCounts
        #expect(after.full == before.full)
        #expect(after.incremental > before.incremental)
    }

    /// An update of more rows than the store records one by one reaches an observer as the exact
    /// change set of a full diff, applied to the rows it holds (no full refresh), rows moving
    /// where the update changes their sort key.
    @Test func aLargeUpdateReachesObserversIncrementallyWithTheExactChangeSet() throws {
        try store.context.persistAndWait { tx in
            for id in 0..<24_000 {
                try tx.insert(
                    Item(
                        id: id, name: IncrementalObservationTests.names[id % 12],
                        score: id % 11 == 0 ? nil : Double(id % 997) / 4, group: id % 3))
            }
        }
        let watched = [
            Watched(
                "by-score", Query(where: Item.group != 1, sortedBy: [Item.score.descending(), Item.name.ascending()])),
            Watched("unsorted", Query(where: Item.group == 2)),
        ]
        let tokens = watched.map { $0.observe(in: store) }
        defer { tokens.forEach { $0.cancel() } }
        for item in watched { #expect(item.deliveries.wait { !$0.isEmpty }) }
        store.observerContext.waitUntilIdle()
        let before = store.core.center.refreshCounts
        let updates: [(Filter<Item>?, [Assignment<Item>])] = [
            // 14,000 rows, every one moving up in the sorted query.
            (Item.score < 150, [Item.score += 100]),
            // Every row, one property that no query sorts by or filters on.
            (nil, [Item.name.set("same")]),
        ]
        for (step, (filter, assignments)) in updates.enumerated() {
            let changed = try store.context.persistAndWait { tx in
                try tx.update(Query<Item>(where: filter), set: assignments)
            }
            #expect(changed > ChangeLog.limit)
            for item in watched {
                #expect(try item.waitForCurrentResults(in: store), "step \(step): \(item.label)")
            }
        }
        store.observerContext.waitUntilIdle()
        for item in watched {
            #expect(item.deliveriesUnlikeAFullDiff() == [], "\(item.label)")
            let deliveries = item.deliveries.values
            #expect(deliveries.count == updates.count + 1, "\(item.label)")
            #expect(deliveries.dropFirst().allSatisfy { !$0.changes.updated.isEmpty }, "\(item.label)")
        }
        #expect(!watched[0].deliveries.values[1].changes.moved.isEmpty)
        let after = store.core.center.refreshCounts
        #expect(after.full == before.full)
        #expect(after.incremental == before.incremental + updates.count * watched.count)
    }

    /// Updates by filter and other writes committed while the observer refreshes (each refresh
    /// reads a newer state than the commits it folded) still end in the query's results, through
    /// change sets that each equal a full diff.
    @Test func updatesCommittedDuringRefreshesEndInTheQuerysResults() throws {
        try store.context.persistAndWait { tx in
            for id in 0..<3_000 {
                try tx.insert(
                    Item(
                        id: id, name: IncrementalObservationTests.names[id % 12], score: Double(id % 50), group: id % 4)
                )
            }
        }
        let item = Watched("by-score", Query(where: Item.group != 3, sortedBy: [Item.score.ascending()]))
        let token = item.observe(in: store)
        defer { token.cancel() }
        #expect(item.deliveries.wait { !$0.isEmpty })
        var random = SeededGenerator(seed: 29)
        for round in 0..<150 {
            let id = Int.random(in: 0..<3_000, using: &random)
            let group = Int.random(in: 0..<4, using: &random)
            try store.context.persistAndWait { tx in
                switch round % 3 {
                case 0: try tx.update(Query<Item>(where: Item.group == group), set: [Item.score += 1])
                case 1:
                    try tx.upsert(Item(id: id, name: "w", score: Double(round), group: group))
                    try tx.update(Query<Item>(where: Item.score < Double(round % 40)), set: [Item.score += 2])
                default: try tx.update(Query<Item>(where: Item.group == group), set: [Item.name.set("n\(round)")])
                }
            }
        }
        #expect(try item.waitForCurrentResults(in: store))
        store.observerContext.waitUntilIdle()
        #expect(item.deliveriesUnlikeAFullDiff() == [])
    }

    /// An update that gives rows new identities reaches observers as the full diff's change set:
    /// the old identities leave, the new ones enter.
    @Test func anUpdateOfTheIdentityReachesObserversAsLeavingAndEnteringRows() throws {
        try store.context.persistAndWait { tx in
            for id in 0..<40 {
                try tx.insert(
                    Item(id: id, name: IncrementalObservationTests.names[id % 12], score: Double(id), group: id % 4))
            }
        }
        let item = Watched("by-score", Query(where: Item.group != 3, sortedBy: [Item.score.ascending()]))
        let token = item.observe(in: store)
        defer { token.cancel() }
        #expect(item.deliveries.wait { !$0.isEmpty })
        try store.context.persistAndWait { tx in
            try tx.update(Query<Item>(where: Item.group == 1), set: [Field<Item, Int>("id") += 1_000])
        }
        #expect(try item.waitForCurrentResults(in: store))
        #expect(item.deliveriesUnlikeAFullDiff() == [])
        let last = item.deliveries.values.last
        #expect(last?.results.contains { $0.id == 1_001 } == true)
        #expect(last?.changes.inserted.count == 10 && last?.changes.deleted.count == 10)
    }

    /// A refresh that fails (a row another program stored in a form the entity cannot decode)
    /// reports the error and keeps the results it delivered: once the row is mended, the next
    /// delivery is a change from them, not a new first delivery.
    @Test func aRefreshThatFailsKeepsItsResultsAndTheNextOneDiffsFromThem() throws {
        try store.context.persistAndWait { tx in
            for id in 0..<20 {
                try tx.insert(Item(id: id, name: "n\(id)", score: Double(id), group: id == 7 ? 1 : 2))
            }
            // Not matched by the query below, so the first delivery never reads it.
            try tx.execute("UPDATE Item SET score = 'not a number' WHERE id = 7")
        }
        let item = Watched("group-2", Query(where: Item.group == 2, sortedBy: [Item.score.ascending()]))
        let errors = Collector<PersistenceError>()
        let token = store.observe(
            .query(item.query), on: item.queue,
            onError: { if let error = $0 as? PersistenceError { errors.append(error) } }
        ) { change in
            item.deliveries.append(change)
        }
        defer { token.cancel() }
        #expect(item.deliveries.wait { $0.count == 1 })
        // The row now matches: the observer reads it and cannot decode it.
        try store.context.persistAndWait { tx in
            try tx.update(Query<Item>(where: Field<Item, Int>("id") == 7), set: [Item.group.set(2)])
        }
        #expect(errors.wait { !$0.isEmpty })
        // Mended by a typed update: the observer applies it and diffs from what it delivered.
        try store.context.persistAndWait { tx in
            try tx.update(Query<Item>(where: Field<Item, Int>("id") == 7), set: [Item.score.set(7.5)])
        }
        #expect(try item.waitForCurrentResults(in: store))
        item.queue.sync {}
        let deliveries = item.deliveries.values
        #expect(deliveries.last?.results.count == 20)
        #expect(deliveries.count == 2, "errors: \(errors.values)")
        #expect(deliveries.last?.isInitial == false)
        #expect(deliveries.last?.changes == ChangeSet(inserted: [7]))
    }

    /// An update the observer applies to the rows it holds, in place, whose values the entity
    /// refuses to decode (its `init(from:)` checks a rule the update breaks) fails the refresh and
    /// leaves the held rows as they were: set back to what was delivered, the row changes nothing,
    /// and nothing more is delivered.
    @Test func anUpdateAppliedInPlaceThatCannotBeDecodedLeavesTheHeldRowsAsTheyWere() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Reading.self])
        try store.context.persistAndWait { tx in
            for id in 0..<20 { try tx.insert(Reading(id: id, value: id, group: 2)) }
        }
        let query = Query<Reading>(where: Reading.group == 2, sortedBy: [Reading.value.ascending()])
        let deliveries = Collector<QueryChange<Reading>>()
        let errors = Collector<PersistenceError>()
        let queue = DispatchQueue(label: "readings")
        let token = store.observe(
            .query(query), on: queue, onError: { if let error = $0 as? PersistenceError { errors.append(error) } }
        ) { change in
            deliveries.append(change)
        }
        defer { token.cancel() }
        #expect(deliveries.wait { $0.count == 1 })
        let seven = Query<Reading>(where: Field<Reading, Int>("id") == 7)
        try store.context.persistAndWait { tx in _ = try tx.update(seven, set: [Reading.value.set(-7)]) }
        #expect(errors.wait { !$0.isEmpty })
        try store.context.persistAndWait { tx in _ = try tx.update(seven, set: [Reading.value.set(7)]) }
        store.observerContext.waitUntilIdle()
        queue.sync {}
        #expect(deliveries.values.count == 1, "errors: \(errors.values)")
        // Still observed: a real change is delivered as the change it is.
        try store.context.persistAndWait { tx in _ = try tx.update(seven, set: [Reading.value.set(70)]) }
        #expect(deliveries.wait { $0.count == 2 })
        #expect(deliveries.values.last?.changes == ChangeSet(updated: [19], moved: [ChangeSet.Move(from: 7, to: 19)]))
    }

    /// A fetch that stops at a row it cannot decode leaves no snapshot behind: the context's next
    /// reads, of another query too, see the commits made since.
    @Test func aFetchThatFailsToDecodeLeavesLaterReadsCurrent() throws {
        try store.context.persistAndWait { tx in
            for id in 0..<5 { try tx.insert(Item(id: id, name: "n\(id)", score: Double(id), group: 1)) }
            try tx.execute("UPDATE Item SET score = 'not a number' WHERE id = 3")
        }
        // A context of its own: its connection only reads.
        let reader = store.makeContext(label: "reader")
        #expect(throws: PersistenceError.self) {
            try reader.readAndWait { tx in try tx.fetch(Query<Item>(sortedBy: [Item.score.ascending()])) }
        }
        try store.context.persistAndWait { tx in
            try tx.update(Query<Item>(where: Field<Item, Int>("id") == 3), set: [Item.score.set(3.5)])
            try tx.insert(Item(id: 9, name: "new", score: 9, group: 2))
        }
        let later = try reader.readAndWait { tx in try tx.fetch(Query<Item>(where: Item.group >= 1)) }
        #expect(later.count == 6)
        #expect(later.first { $0.id == 3 }?.score == 3.5)
    }
}
