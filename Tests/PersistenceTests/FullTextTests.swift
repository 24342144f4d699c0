import Foundation
import Persistence
import TestSupport
import Testing

struct Volume: StoredEntity, Equatable {
    var id: Int
    var title: String
    var summary: String?
    var rating: Double?

    static let title = Field<Volume, String>("title")
    static let summary = Field<Volume, String?>("summary")
    static let rating = Field<Volume, Double?>("rating")
    static let fullTextIndex: FullTextIndex<Volume>? = FullTextIndex(title, summary)
}

/// The same table before it had a full-text index.
struct UnindexedVolume: StoredEntity, Equatable {
    static let entityName = "Volume"
    var id: Int
    var title: String
    var summary: String?
    var rating: Double?
}

@Suite struct FullTextTests {
    let fixture: StoreFixture
    let store: ObjectStore

    static let volumes = [
        Volume(id: 1, title: "Game Development with Unreal Engine 5", summary: "Blueprints and C++", rating: 4),
        Volume(id: 2, title: "Unreal Engine 4 Essentials", summary: "The editor, step by step", rating: 3),
        Volume(id: 3, title: "Unity in Action", summary: "An unreal amount of C#", rating: 5),
        Volume(id: 4, title: "L'Éclair de génie", summary: nil, rating: nil),
        Volume(id: 5, title: "Engine Room of the Unreal", summary: nil, rating: 2),
    ]

    init() throws {
        fixture = try StoreFixture()
        store = try fixture.open([Volume.self])
        try store.context.persistAndWait { tx in for volume in Self.volumes { try tx.insert(volume) } }
    }

    func ids(_ filter: Filter<Volume>, _ sort: [Sort<Volume>] = [Field<Volume, Int>("id").ascending()]) throws -> [Int]
    {
        try store.context.readAndWait { tx in try tx.fetch(Query<Volume>(where: filter, sortedBy: sort)).map(\.id) }
    }

    @Test func wordsMatchInAnyOrderIgnoringCaseAndDiacritics() throws {
        #expect(try ids(Volume.title.matches("unreal engine")) == [1, 2, 5])
        #expect(try ids(Volume.title.matches("ENGINE unreal")) == [1, 2, 5])
        #expect(try ids(Volume.title.matches("eclair genie")) == [4])
        #expect(try ids(Volume.summary.matches("unreal")) == [3])
    }

    @Test func aMatchOnTheWholeIndexFindsWordsSpreadOverItsFields() throws {
        #expect(try ids(Filter<Volume>.matches("unity unreal")) == [3])
        #expect(try ids(Filter<Volume>.matches("unreal")) == [1, 2, 3, 5])
        let ranked = try ids(Filter<Volume>.matches("unreal"), [Volume.title.relevance])
        #expect(Set(ranked) == [1, 2, 3, 5])
    }

    @Test func prefixesPhrasesAndOperators() throws {
        #expect(try ids(Volume.title.matches("unre* ess*")) == [2])
        #expect(try ids(Volume.title.matches("\"unreal engine\"")) == [1, 2])
        #expect(try ids(Volume.title.matches("unity OR essentials")) == [2, 3])
        #expect(try ids(Volume.title.matches("unreal NOT essentials")) == [1, 5])
    }

    @Test func aMatchComposesWithOtherFiltersCountsAndExists() throws {
        #expect(try ids(Volume.title.matches("unreal") && Volume.rating >= 3) == [1, 2])
        #expect(try ids(Volume.title.matches("unity") || Volume.summary.matches("editor")) == [2, 3])
        #expect(try ids(!Volume.title.matches("unreal")) == [3, 4])
        let counts = try store.context.readAndWait { tx in
            (
                try tx.count(Query<Volume>(where: Volume.title.matches("engine"))),
                try tx.exists(Query<Volume>(where: Volume.title.matches("cobol")))
            )
        }
        #expect(counts.0 == 3)
        #expect(counts.1 == false)
    }

    @Test func relevanceSortsTheBestMatchFirst() throws {
        try store.context.persistAndWait { tx in
            try tx.insert(Volume(id: 6, title: "Unreal Unreal Unreal", summary: nil, rating: nil))
        }
        let ranked = try ids(Volume.title.matches("unreal"), [Volume.title.relevance])
        #expect(ranked.first == 6)
        #expect(Set(ranked) == [1, 2, 5, 6])
        let misuse = #expect(throws: PersistenceError.self) {
            try store.context.readAndWait { tx in try tx.fetch(Query<Volume>(sortedBy: [Volume.title.relevance])) }
        }
        #expect(misuse?.code == .misuse)
    }

    @Test func theIndexFollowsUpdatesUpsertsDeletesAndRawSQL() throws {
        try store.context.persistAndWait { tx in
            try tx.update(Volume(id: 3, title: "Godot Recipes", summary: nil, rating: 5))
            try tx.upsert(Volume(id: 2, title: "Blender for Beginners", summary: nil, rating: 3))
            try tx.upsert(Volume(id: 7, title: "Unreal Shaders", summary: nil, rating: nil))
            try tx.delete(Volume.self, id: 1)
            try tx.execute("UPDATE Volume SET title = 'Cobol Unleashed' WHERE id = 5")
        }
        #expect(try ids(Volume.title.matches("unreal")) == [7])
        #expect(try ids(Volume.title.matches("godot")) == [3])
        #expect(try ids(Volume.title.matches("blender")) == [2])
        #expect(try ids(Volume.title.matches("cobol")) == [5])
        #expect(try ids(Volume.summary.matches("unreal")) == [])
        store.close()
        let raw = try RawSQLite(fixture.url)
        try raw.execute("INSERT INTO fk_fts_Volume (fk_fts_Volume) VALUES ('integrity-check')")
        #expect(try raw.rows("PRAGMA integrity_check") == [["ok"]])
    }

    @Test(arguments: ["\"unbalanced", "AND", "unreal AND", "(engine"])
    func aMalformedQueryIsATypedErrorNamingIt(query: String) throws {
        let error = #expect(throws: PersistenceError.self) {
            try store.context.readAndWait { tx in try tx.fetch(Query<Volume>(where: Volume.title.matches(query))) }
        }
        #expect(error?.code == .invalidQuery)
        #expect(error?.message.contains("\"\(query)\"") == true)
    }

    @Test func matchingAPropertyOutsideTheIndexIsRefusedByName() throws {
        struct Other: StoredEntity {
            var id: Int
            var title: String
            static let title = Field<Other, String>("title")
        }
        let other = try StoreFixture()
        let store = try other.open([Other.self])
        let error = #expect(throws: PersistenceError.self) {
            try store.context.readAndWait { tx in try tx.fetch(Query<Other>(where: Other.title.matches("x"))) }
        }
        #expect(error?.code == .unknownProperty)
        #expect(error?.message.contains("FullTextIndex") == true)
    }

    @Test func openingBuildsTheIndexForStoredRowsAndRemovingItKeepsWritesWorking() throws {
        store.close()
        let plain = try StoreFixture()
        do {
            let old = try plain.open([UnindexedVolume.self])
            try old.context.persistAndWait { tx in
                try tx.insert(UnindexedVolume(id: 1, title: "Unreal Engine", summary: nil, rating: nil))
            }
            old.close()
        }
        let indexed = try plain.open([Volume.self])
        #expect(
            try indexed.context.readAndWait { tx in try tx.count(Query<Volume>(where: Volume.title.matches("unreal"))) }
                == 1)
        indexed.close()
        let unindexed = try plain.open([UnindexedVolume.self])
        try unindexed.context.persistAndWait { tx in
            try tx.insert(UnindexedVolume(id: 2, title: "Unity", summary: nil, rating: nil))
            try tx.delete(UnindexedVolume.self, id: 1)
        }
        #expect(try unindexed.context.readAndWait { tx in try tx.count(Query<UnindexedVolume>()) } == 1)
        unindexed.close()
        let raw = try RawSQLite(plain.url)
        #expect(try raw.rows("SELECT name FROM sqlite_master WHERE name LIKE 'fk_fts%'").isEmpty)
    }
}
