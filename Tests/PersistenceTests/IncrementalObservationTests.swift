import Foundation
import TestSupport
import Testing

@testable import Persistence

struct Item: StoredEntity, Equatable {
    var id: Int
    var name: String
    var score: Double?
    var group: Int

    static let name = Field<Item, String>("name")
    static let score = Field<Item, Double?>("score")
    static let group = Field<Item, Int>("group")
    static let indexes = [EntityIndex(name, caseInsensitive: true), EntityIndex(score)]

    /// The item's column values, as the store compares rows.
    var row: [DatabaseValue] {
        [.integer(Int64(id)), .text(name), score.map { .real($0) } ?? .null, .integer(Int64(group))]
    }
}

/// An entity whose column values the randomized test compares.
protocol HasRow: StoredEntity, Equatable {
    var row: [DatabaseValue] { get }
}

extension Item: HasRow {
    static let notes = ToMany<Item, ItemNote>(inverse: ItemNote.item)
}

/// A note on an item: the related table of the randomized test.
struct ItemNote: HasRow {
    var id: Int
    var itemID: Int
    var weight: Int

    static let weight = Field<ItemNote, Int>("weight")
    static let item = ToOne<ItemNote, Item>(Field("itemID"), onDelete: .cascade)
    static let relations: [any Relation<ItemNote>] = [item]

    var row: [DatabaseValue] { [.integer(Int64(id)), .integer(Int64(itemID)), .integer(Int64(weight))] }
}

/// One observer of the randomized test: its query and every delivery it made.
final class Watched<E: HasRow>: Sendable {
    let label: String
    let query: Query<E>
    let deliveries = Collector<QueryChange<E>>()
    let queue: DispatchQueue

    init(_ label: String, _ query: Query<E>) {
        self.label = label
        self.query = query
        queue = DispatchQueue(label: "IncrementalObservationTests." + label)
    }
}

@Suite struct IncrementalObservationTests {
    static let names = [
        "apple", "Apple", "éclair", "Éclair", "zebra", "Zorro", "Ångström", "alien", "émile", "b", "B", "",
    ]

    /// After every step, each observer's latest results equal a fresh query, and every change set
    /// it delivered equals the full diff of the two result lists it connects.
    @Test func incrementalChangeSetsMatchAFullDiffAfterEveryRandomStep() async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        let fixture = try StoreFixture()
        let store = try fixture.open([Item.self, ItemNote.self])
        defer { store.close() }
        try store.context.persistAndWait { tx in
            for id in 0..<150 {
                try tx.insert(
                    Item(
                        id: id, name: Self.names[id % Self.names.count], score: id % 7 == 0 ? nil : Double(id % 13) / 4,
                        group: id % 5))
            }
        }
        var watched = [
            Watched<Item>(
                "score-desc-name",
                Query(
                    where: Item.group != 3,
                    sortedBy: [Item.score.descending(), Item.name.ascending(caseInsensitive: true)])),
            Watched("name-folded", Query(sortedBy: [Item.name.ascending(caseInsensitive: true)])),
            Watched("unsorted-filtered", Query(where: Item.score > 1.5)),
            Watched("window", Query(sortedBy: [Item.group.ascending(), Item.score.ascending()], limit: 10, offset: 3)),
            Watched(
                "prefix", Query(where: Item.name.hasPrefix("a") || Item.group == 1, sortedBy: [Item.name.descending()])),
        ]
        // Queries through the relation: a change to the related table refreshes them in full.
        watched += [
            Watched(
                "noted",
                Query(
                    where: Item.notes.any(ItemNote.weight > 2), sortedBy: [Item.name.ascending(caseInsensitive: true)])),
            Watched("note-count", Query(where: Item.notes.count >= 2 || Item.group == 4)),
        ]
        let notes = [
            Watched<ItemNote>(
                "note-by-item",
                Query(
                    where: ItemNote.item.has(Item.group != 3),
                    sortedBy: [ItemNote.item.ascending(Item.name, caseInsensitive: true), ItemNote.weight.descending()])
            ),
            Watched<ItemNote>(
                "heavy-notes", Query(where: ItemNote.weight >= 3, sortedBy: [ItemNote.weight.ascending()])),
        ]
        let tokens =
            watched.map { item in
                store.observe(.query(item.query), on: item.queue) { change in item.deliveries.append(change) }
            }
            + notes.map { item in
                store.observe(.query(item.query), on: item.queue) { change in item.deliveries.append(change) }
            }
        defer { tokens.forEach { $0.cancel() } }
        // The steps block their thread while they wait for the store and the observers: they run
        // on a thread of their own, never on the cooperative pool (one thread per core), which
        // the observers' deliveries and the suite's other tests need.
        let watchedItems = watched
        let failure: String? = await Blocking.run {
            do {
                return try Self.steps(store: store, watched: watchedItems, notes: notes, seed: seed)
            } catch {
                return "seed \(seed): \(error)"
            }
        }
        #expect(failure == nil, "\(failure ?? "")")
        guard failure == nil else { return }
        let counts = store.core.center.refreshCounts
        #expect(counts.incremental > 5_000, "seed \(seed): only \(counts.incremental) refreshes were incremental")
        #expect(counts.full > 2_000)
    }

    /// The randomized steps; the first thing found wrong, or `nil`.
    static func steps(
        store: ObjectStore, watched: [Watched<Item>], notes: [Watched<ItemNote>], seed: UInt64
    ) throws -> String? {
        var random = SeededGenerator(seed: seed)
        var nextID = 1_000
        var nextNote = 0
        var seen = [Int](repeating: 0, count: watched.count)
        var seenNotes = [Int](repeating: 0, count: notes.count)

        for step in 0..<2_000 {
            let existing = try store.context.readAndWait { tx in try tx.fetch(Query<Item>()).map(\.id) }
            let existingNotes = try store.context.readAndWait { tx in try tx.fetch(Query<ItemNote>()).map(\.id) }
            func randomItem(id: Int) -> Item {
                Item(
                    id: id, name: Self.names[Int.random(in: 0..<Self.names.count, using: &random)],
                    score: Int.random(in: 0..<6, using: &random) == 0
                        ? nil : Double(Int.random(in: -4...12, using: &random)) / 4,
                    group: Int.random(in: 0..<5, using: &random))
            }
            let kind = Int.random(in: 0..<100, using: &random)
            try store.context.persistAndWait { tx in
                // Mostly one row; sometimes a few; sometimes 40 (the merge that rebuilds the arrays).
                // Kinds 80-82 are an update by filter alone (observers apply it in place).
                let count =
                    (80..<83).contains(kind)
                    ? 0 : kind < 85 ? 1 : (kind < 95 ? Int.random(in: 2...6, using: &random) : 40)
                for _ in 0..<count {
                    let target = existing.randomElement(using: &random) ?? 0
                    switch Int.random(in: 0..<14, using: &random) {
                    case 10, 11:
                        // A note on an item this step has not deleted.
                        if try tx.fetch(Item.self, id: target) != nil {
                            try tx.insert(
                                ItemNote(id: nextNote, itemID: target, weight: Int.random(in: 0..<6, using: &random)))
                            nextNote += 1
                        }
                    case 12:
                        if let note = existingNotes.randomElement(using: &random) {
                            try tx.delete(ItemNote.self, id: note)
                        }
                    case 13:
                        if let id = existingNotes.randomElement(using: &random),
                            var note = try tx.fetch(ItemNote.self, id: id)
                        {
                            note.weight = Int.random(in: 0..<6, using: &random)
                            try tx.update(note)
                        }
                    case 0..<3:
                        try tx.insert(randomItem(id: nextID))
                        nextID += 1
                    case 3..<6: try tx.upsert(randomItem(id: target))
                    case 6..<8: try tx.delete(Item.self, id: target)
                    default:
                        if var item = try tx.fetch(Item.self, id: target) {
                            item.score = item.score.map { $0 + 0.25 }
                            try tx.update(item)
                        }
                    }
                }
                if (75..<85).contains(kind) {
                    // An update by filter beside the step's other write: observers apply its
                    // new values to the rows they hold when it assigns nothing their filter reads.
                    let group = Int.random(in: 0..<5, using: &random)
                    let name = Self.names[Int.random(in: 0..<Self.names.count, using: &random)]
                    let filters: [Filter<Item>?] = [
                        Item.group == group, Item.score > 1, Item.name.hasPrefix("a"), nil, Item.group != group,
                    ]
                    let assignments: [[Assignment<Item>]] = [
                        [Item.score += 0.25], [Item.score += -0.5], [Item.group.set(group)], [Item.name.set(name)],
                        [Item.score.set(nil)], [Item.score.set(2.5), Item.name.set(name)],
                    ]
                    let filter = filters[Int.random(in: 0..<filters.count, using: &random)]
                    let assignment = assignments[Int.random(in: 0..<assignments.count, using: &random)]
                    if kind == 84 {
                        // Undone by a nested block that fails: nothing of it may reach an observer.
                        _ = try? store.context.persistAndWait { inner in
                            try inner.update(Query<Item>(where: filter), set: assignment)
                            throw CancellationError()
                        }
                    } else {
                        try tx.update(Query<Item>(where: filter), set: assignment)
                    }
                    if kind == 83, let target = existing.randomElement(using: &random) {
                        // A row the update changed, written again after it in the same commit.
                        try tx.upsert(randomItem(id: target))
                    }
                }
                if kind == 98 { try tx.execute("UPDATE Item SET score = -score WHERE \"group\" = 2") }
                if kind == 99 { try tx.delete(Query<Item>(where: Item.group == Int.random(in: 0..<5, using: &random))) }
            }
            for (index, item) in watched.enumerated() {
                if let wrong = try Self.verify(item, store: store, seen: &seen[index], seed: seed, step: step) {
                    return wrong
                }
            }
            for (index, item) in notes.enumerated() {
                if let wrong = try Self.verify(item, store: store, seen: &seenNotes[index], seed: seed, step: step) {
                    return wrong
                }
            }
        }
        return nil
    }

    /// Checks that `item`'s latest results equal a fresh query and that every change set it
    /// delivered since `seen` equals the full diff of the two result lists it connects.
    static func verify<E: HasRow>(
        _ item: Watched<E>, store: ObjectStore, seen: inout Int, seed: UInt64, step: Int
    ) throws -> String? {
        let truth = try store.context.readAndWait { tx in try tx.fetch(item.query) }
        // Without a sort the order is unspecified (an observer keeps row-id order).
        let ordered = !item.query.sort.isEmpty
        let reached = item.deliveries.wait { deliveries in
            guard let results = deliveries.last?.results else { return false }
            return ordered
                ? results == truth
                : results.map(\.row).sorted { "\($0)" < "\($1)" } == truth.map(\.row).sorted { "\($0)" < "\($1)" }
        }
        if !reached { return "seed \(seed), step \(step): \(item.label) never delivered the query's results" }
        store.observerContext.waitUntilIdle()
        item.queue.sync {}
        let deliveries = item.deliveries.values
        for position in max(1, seen)..<max(1, deliveries.count) {
            let before = deliveries[position - 1].results
            let after = deliveries[position].results
            let full = ChangeSet.diff(
                old: before.map(\.id), oldRows: before.map(\.row), new: after.map(\.id), newRows: after.map(\.row))
            if deliveries[position].changes != full {
                return "seed \(seed), step \(step): \(item.label) delivered \(deliveries[position].changes), a full diff gives \(full)"
            }
        }
        seen = deliveries.count
        return nil
    }
}
