import Foundation
import Persistence
import TestSupport
import Testing

// Entities for the key-path spelling of filters and sorts through a to-one relation.

struct RFWriter: StoredEntity, Equatable {
    var id: Int64
    var name: String
    var born: Int?
    var country: String?

    static let name = Field<RFWriter, String>("name")
    static let born = Field<RFWriter, Int?>("born")
    static let country = Field<RFWriter, String?>("country")
    static let indexes = [EntityIndex(name), EntityIndex(born)]
}

struct RFNovel: StoredEntity, Equatable {
    var id: Int64
    var title: String
    var writerID: Int64?

    static let title = Field<RFNovel, String>("title")
    static let writer = ToOne<RFNovel, RFWriter>(Field("writerID"), onDelete: .nullify)
    static let relations: [any Relation<RFNovel>] = [writer]
}

@Suite struct RelatedFieldTests {
    func seeded() throws -> (StoreFixture, ObjectStore) {
        let fixture = try StoreFixture()
        let store = try fixture.open([RFWriter.self, RFNovel.self])
        try store.context.persistAndWait { tx in
            try tx.insert(RFWriter(id: 1, name: "Ursula K. Le Guin", born: 1929, country: "US"))
            try tx.insert(RFWriter(id: 2, name: "Frank Herbert", born: 1920, country: nil))
            try tx.insert(RFWriter(id: 3, name: "Stanisław Lem", born: nil, country: "PL"))
            try tx.insert(RFNovel(id: 10, title: "The Dispossessed", writerID: 1))
            try tx.insert(RFNovel(id: 11, title: "A Wizard of Earthsea", writerID: 1))
            try tx.insert(RFNovel(id: 20, title: "Dune", writerID: 2))
            try tx.insert(RFNovel(id: 30, title: "Solaris", writerID: 3))
            try tx.insert(RFNovel(id: 40, title: "Anonymous", writerID: nil))
        }
        return (fixture, store)
    }

    /// The ids of the novels `filter` selects, in insertion order.
    func ids(_ store: ObjectStore, _ filter: Filter<RFNovel>) throws -> [Int64] {
        try store.context.readAndWait { tx in try tx.fetch(Query<RFNovel>(where: filter)).map(\.id) }
    }

    @Test func theKeyPathSpellingSelectsWhatHasSelectsForEveryOperator() throws {
        let (fixture, store) = try seeded()
        defer { withExtendedLifetime(fixture) {} }
        let pairs: [(spelled: Filter<RFNovel>, has: Filter<RFNovel>, expected: [Int64])] = [
            (
                RFNovel.writer.name == "Ursula K. Le Guin", RFNovel.writer.has(RFWriter.name == "Ursula K. Le Guin"),
                [10, 11]
            ),
            (
                RFNovel.writer.name != "Ursula K. Le Guin", RFNovel.writer.has(RFWriter.name != "Ursula K. Le Guin"),
                [20, 30]
            ),
            (RFNovel.writer.born < 1925, RFNovel.writer.has(RFWriter.born < 1925), [20]),
            (RFNovel.writer.born <= 1929, RFNovel.writer.has(RFWriter.born <= 1929), [10, 11, 20]),
            (RFNovel.writer.born > 1920, RFNovel.writer.has(RFWriter.born > 1920), [10, 11]),
            (RFNovel.writer.born >= 1920, RFNovel.writer.has(RFWriter.born >= 1920), [10, 11, 20]),
            (RFNovel.writer.idField > 1, RFNovel.writer.has(RFWriter.idField > 1), [20, 30]),
            (RFNovel.writer.idField <= 1, RFNovel.writer.has(RFWriter.idField <= 1), [10, 11]),
            (
                RFNovel.writer.name.isIn(["Frank Herbert", "Stanisław Lem"]),
                RFNovel.writer.has(RFWriter.name.isIn(["Frank Herbert", "Stanisław Lem"])), [20, 30]
            ),
            (RFNovel.writer.name.contains("LE GUIN"), RFNovel.writer.has(RFWriter.name.contains("LE GUIN")), [10, 11]),
            (RFNovel.writer.name.hasPrefix("STANIS"), RFNovel.writer.has(RFWriter.name.hasPrefix("STANIS")), [30]),
            (
                RFNovel.writer.name.equals("frank herbert"), RFNovel.writer.has(RFWriter.name.equals("frank herbert")),
                [20]
            ),
            (RFNovel.writer.born.isNil, RFNovel.writer.has(RFWriter.born.isNil), [30]),
            (RFNovel.writer.country != nil, RFNovel.writer.has(RFWriter.country.isNotNil), [10, 11, 30]),
            (RFNovel.writer.country == nil, RFNovel.writer.has(RFWriter.country == nil), [20]),
            (RFNovel.writer.country == "PL", RFNovel.writer.has(RFWriter.country == "PL"), [30]),
        ]
        for (spelled, has, expected) in pairs {
            #expect(try ids(store, spelled) == expected)
            #expect(try ids(store, has) == expected)
        }
        // Combined with the source's own filters and negated: a nil reference never matches.
        #expect(try ids(store, RFNovel.writer.name == "Ursula K. Le Guin" && RFNovel.title.hasPrefix("The")) == [10])
        #expect(try ids(store, !(RFNovel.writer.name == "Frank Herbert")) == [10, 11, 30])
        #expect(try ids(store, RFNovel.writer.name.isIn([String]())) == [])
    }

    @Test func theKeyPathSpellingCompilesToTheSamePlanAsHasUsingTheIndexes() throws {
        let (fixture, store) = try seeded()
        defer { withExtendedLifetime(fixture) {} }
        try store.context.readAndWait { tx in
            let spelled = try tx.queryPlan(for: Query(where: RFNovel.writer.name == "Frank Herbert"))
            let has = try tx.queryPlan(for: Query(where: RFNovel.writer.has(RFWriter.name == "Frank Herbert")))
            #expect(spelled == has)
            #expect(spelled.contains { $0.contains("USING INDEX fk_relation_RFNovel_writerID") }, "\(spelled)")
            #expect(spelled.contains { $0.contains("fk_index_RFWriter_name") }, "\(spelled)")
            let range = try tx.queryPlan(for: Query(where: RFNovel.writer.born > 1925))
            #expect(range.contains { $0.contains("fk_index_RFWriter_born") }, "\(range)")
            #expect(range == (try tx.queryPlan(for: Query(where: RFNovel.writer.has(RFWriter.born > 1925)))))
        }
    }

    @Test func sortsThroughTheKeyPathSpellingMatchTheRelationsSorts() throws {
        let (fixture, store) = try seeded()
        defer { withExtendedLifetime(fixture) {} }
        try store.context.readAndWait { tx in
            let ascending = try tx.fetch(
                Query<RFNovel>(sortedBy: [RFNovel.writer.name.ascending(), RFNovel.title.ascending()]))
            // A nil reference first, then Frank Herbert, Stanisław Lem, Ursula K. Le Guin.
            #expect(ascending.map(\.id) == [40, 20, 30, 11, 10])
            #expect(
                ascending
                    == (try tx.fetch(
                        Query<RFNovel>(sortedBy: [RFNovel.writer.ascending(RFWriter.name), RFNovel.title.ascending()])))
            )
            let descending = try tx.fetch(
                Query<RFNovel>(sortedBy: [RFNovel.writer.born.descending(), RFNovel.title.ascending()]))
            // 1929, 1920, then no year (the writer without one, the nil reference) by title.
            #expect(descending.map(\.id) == [11, 10, 20, 40, 30])
            let folded = try tx.fetch(
                Query<RFNovel>(
                    where: RFNovel.writer.has(.all),
                    sortedBy: [RFNovel.writer.name.descending(caseInsensitive: true)]))
            #expect(folded.map(\.id) == [10, 11, 30, 20])
            #expect(
                folded
                    == (try tx.fetch(
                        Query<RFNovel>(
                            where: RFNovel.writer.has(.all),
                            sortedBy: [RFNovel.writer.descending(RFWriter.name, caseInsensitive: true)]))))
        }
    }
}
