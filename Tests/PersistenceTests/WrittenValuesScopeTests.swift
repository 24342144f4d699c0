import Foundation
import TestSupport
import Testing

@testable import Persistence

/// An update by filter reads its new values back only for a table some query observer applies
/// them to; any other table's changed rows are recorded one by one, as any write's are.
@Suite struct WrittenValuesScopeTests {
    let fixture: StoreFixture
    let store: ObjectStore

    init() throws {
        fixture = try StoreFixture()
        store = try fixture.open([Item.self, ItemNote.self])
        try store.context.persistAndWait { tx in
            for id in 0..<40 {
                try tx.insert(Item(id: id, name: IncrementalObservationTests.names[id % 12], score: nil, group: id % 4))
            }
            for id in 0..<8 { try tx.insert(ItemNote(id: id, itemID: id, weight: id)) }
        }
    }

    var valueTables: Set<String> { store.core.center.recording.valueTables }

    @Test("Only the tables of query observers that apply rows one by one have their updates read back")
    func theTablesReadBackFollowTheObservers() {
        #expect(valueTables.isEmpty)
        let counting = store.observe(.value(tracking: Item.self) { tx in try tx.count(Query<Item>()) }) { _ in }
        let windowed = store.observe(.query(Query<Item>(sortedBy: [Item.name.ascending()], limit: 3))) { _ in }
        let related = store.observe(.query(Query<Item>(where: Item.notes.any(ItemNote.weight > 2)))) { _ in }
        #expect(store.core.center.recording.observed)
        #expect(valueTables.isEmpty)
        let all = store.observe(.query(Query<Item>())) { _ in }
        let some = store.observe(.query(Query<Item>(where: Item.group == 1))) { _ in }
        let notes = store.observe(.query(Query<ItemNote>())) { _ in }
        #expect(valueTables == ["Item", "ItemNote"])
        all.cancel()
        #expect(valueTables == ["Item", "ItemNote"])
        some.cancel()
        notes.cancel()
        #expect(valueTables.isEmpty)
        counting.cancel()
        windowed.cancel()
        related.cancel()
        #expect(!store.core.center.recording.observed)
    }

    @Test("An update of a table not read back reaches an observer that started during its transaction, and later ones")
    func anUpdateNotReadBackReachesItsObservers() throws {
        // The store is observed (rows are recorded), but not the items.
        let notes = Watched("notes", Query<ItemNote>(sortedBy: [ItemNote.weight.ascending()]))
        let notesToken = notes.observe(in: store)
        defer { notesToken.cancel() }
        #expect(notes.deliveries.wait { !$0.isEmpty })
        let items = Watched("items", Query<Item>(sortedBy: [Item.name.ascending(), Item.group.ascending()]))
        var itemsToken: ObservationToken?
        try store.context.persistAndWait { tx in
            _ = try tx.update(Query<Item>(where: Item.group == 2), set: [Item.score.set(9)])
            // Starts while the transaction is open: its first delivery cannot hold the update.
            itemsToken = items.observe(in: store)
            #expect(items.deliveries.wait { !$0.isEmpty })
            _ = try tx.update(Query<Item>(where: Item.group == 3), set: [Item.name.set("Zed")])
            // Not read back: the 20 rows are recorded as any write's.
            #expect(tx.connection.changeLog.written["Item"] == nil)
            #expect(tx.connection.changeLog.rowids["Item"]?.count == 20)
        }
        defer { itemsToken?.cancel() }
        #expect(items.deliveries.values.first?.results.contains { $0.score == 9 } == false)
        #expect(try items.waitForCurrentResults(in: store))
        // Now read back for the items' observer: the next update is applied from its values.
        #expect(valueTables == ["Item", "ItemNote"])
        try store.context.persistAndWait { tx in
            _ = try tx.update(Query<Item>(where: Item.group == 1), set: [Item.score.set(4)])
            #expect(tx.connection.changeLog.written["Item"]?.first?.rowids.count == 10)
            #expect(tx.connection.changeLog.rowids["Item"]?.isEmpty == true)
        }
        #expect(try items.waitForCurrentResults(in: store))
        #expect(items.deliveriesUnlikeAFullDiff() == [])
        #expect(try notes.waitForCurrentResults(in: store))
        let final = try #require(items.deliveries.values.last?.results)
        #expect(final.filter { $0.group == 2 }.allSatisfy { $0.score == 9 })
        #expect(final.filter { $0.group == 3 }.allSatisfy { $0.name == "Zed" })
        #expect(final.filter { $0.group == 1 }.allSatisfy { $0.score == 4 })
    }
}
