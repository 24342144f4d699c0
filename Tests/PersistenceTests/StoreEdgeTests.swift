import Foundation
import Persistence
import TestSupport
import Testing

/// A recursive enum whose first case is recursive.
indirect enum Expression: Codable, Sendable, Equatable {
    case sum(Expression, Expression)
    case number(Double)
}

struct Formula: StoredEntity, Equatable {
    var id: Int
    var expression: Expression?
}

struct RequiredFormula: StoredEntity {
    static let entityName = "Formula"
    var id: Int
    var expression: Expression
}

struct Ranked: StoredEntity, Equatable {
    var id: Int
    var rank: Int
    var label: String
    static let rank = Field<Ranked, Int>("rank")
    static let label = Field<Ranked, String>("label")
}

/// `Ranked` with a case-insensitive index on its label.
struct IndexedRanked: StoredEntity, Equatable {
    static let entityName = "Ranked"
    var id: Int
    var rank: Int
    var label: String
    static let label = Field<IndexedRanked, String>("label")
    static let indexes = [EntityIndex(label, caseInsensitive: true)]
}

/// A raw-representable type whose Codable keeps more than its raw value.
struct SourcedTag: RawRepresentable, Codable, Sendable, Equatable {
    var rawValue: String
    var source = "user"
    init(rawValue: String) { self.rawValue = rawValue }
    init(rawValue: String, source: String) {
        self.rawValue = rawValue
        self.source = source
    }
    enum CodingKeys: String, CodingKey { case rawValue, source }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rawValue = try container.decode(String.self, forKey: .rawValue)
        source = try container.decode(String.self, forKey: .source)
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rawValue, forKey: .rawValue)
        try container.encode(source, forKey: .source)
    }
}

struct Tagged: StoredEntity, Equatable {
    var id: Int
    var tag: SourcedTag
}

/// Declares an `Int8` but its own `encode(to:)` writes a wider integer.
struct Narrow: StoredEntity {
    var id: Int
    var level: Int8
    var wide = 0
    enum CodingKeys: String, CodingKey { case id, level }
    init(id: Int, level: Int8, wide: Int = 0) {
        (self.id, self.level, self.wide) = (id, level, wide)
    }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        level = try container.decode(Int8.self, forKey: .level)
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(wide == 0 ? Int(level) : wide, forKey: .level)
    }
}

struct RowIDNamed: StoredEntity {
    var id: Int
    var rowid: Int
}

@Suite struct StoreEdgeTests {
    @Test func anOptionalRecursiveEnumIsStoredAndARequiredOneIsATypedError() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Formula.self])
        let formula = Formula(id: 1, expression: .sum(.number(1), .sum(.number(-0.0), .number(2.5))))
        try store.context.persistAndWait { tx in try tx.insert(formula) }
        #expect(try store.context.readAndWait { tx in try tx.fetch(Formula.self, id: 1) } == formula)
        store.close()
        let other = try StoreFixture()
        let error = openError { () throws(PersistenceError) in try other.open([RequiredFormula.self]) }
        #expect(error?.code == .unsupportedValue)
        #expect(error?.property == "expression")
    }

    @Test func aCaseInsensitiveSortOnANumberSortsByValue() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Ranked.self])
        try store.context.persistAndWait { tx in
            for (id, rank) in [10, 9, 100, -1].enumerated() { try tx.insert(Ranked(id: id, rank: rank, label: "x")) }
        }
        let ranks = try store.context.readAndWait { tx in
            try tx.fetch(Query<Ranked>(sortedBy: [Ranked.rank.ascending(caseInsensitive: true)])).map(\.rank)
        }
        #expect(ranks == [-1, 9, 10, 100])
    }

    @Test func aSuffixMatchesTextHoldingNUL() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Ranked.self])
        try store.context.persistAndWait { tx in try tx.insert(Ranked(id: 1, rank: 0, label: "a\u{0}bc")) }
        let found = try store.context.readAndWait { tx in
            (
                try tx.fetch(Query<Ranked>(where: Ranked.label.hasSuffix("bc"))).count,
                try tx.fetch(Query<Ranked>(where: Ranked.label.hasSuffix("\u{0}BC"))).count,
                try tx.fetch(Query<Ranked>(where: Ranked.label.hasSuffix("xbc"))).count
            )
        }
        #expect(found == (1, 1, 0))
    }

    @Test func aFoldedIndexDeclaredAgainIsRefilledAndExactEqualityStillFindsEveryRow() throws {
        let fixture = try StoreFixture()
        do {
            let store = try fixture.open([IndexedRanked.self])
            try store.context.persistAndWait { tx in try tx.insert(IndexedRanked(id: 1, rank: 0, label: "Dune")) }
            store.close()
        }
        do {  // an older build without the index writes rows and renames one
            let store = try fixture.open([Ranked.self])
            try store.context.persistAndWait { tx in
                try tx.insert(Ranked(id: 2, rank: 0, label: "Éclair"))
                try tx.update(Ranked(id: 1, rank: 0, label: "Arrakis"))
            }
            store.close()
        }
        let store = try fixture.open([IndexedRanked.self])
        let found = try store.context.readAndWait { tx in
            (
                try tx.fetch(Query<IndexedRanked>(where: IndexedRanked.label == "Arrakis")).map(\.id),
                try tx.fetch(Query<IndexedRanked>(where: IndexedRanked.label.equals("eclair"))).map(\.id),
                try tx.fetch(Query<IndexedRanked>(where: IndexedRanked.label == "Dune")).map(\.id)
            )
        }
        #expect(found.0 == [1])
        #expect(found.1 == [2])
        #expect(found.2 == [])
    }

    @Test func rawWritesThroughFetchSQLKeepFoldsAndNeedAPersistBlock() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([IndexedRanked.self])
        try store.context.persistAndWait { tx in try tx.insert(IndexedRanked(id: 1, rank: 0, label: "Dune")) }
        let misuse = #expect(throws: PersistenceError.self) {
            try store.context.readAndWait { tx in
                try tx.fetch(IndexedRanked.self, sql: "UPDATE Ranked SET label = 'Zed' WHERE id = 1 RETURNING *")
            }
        }
        #expect(misuse?.code == .misuse)
        let updated = try store.context.persistAndWait { tx in
            try tx.fetch(IndexedRanked.self, sql: "UPDATE Ranked SET label = 'Ångström' WHERE id = 1 RETURNING *")
        }
        #expect(updated.map(\.label) == ["Ångström"])
        let found = try store.context.readAndWait { tx in
            try tx.fetch(Query<IndexedRanked>(where: IndexedRanked.label.equals("angstrom"))).map(\.id)
        }
        #expect(found == [1])
    }

    @Test func aRawRepresentableWhoseCodableKeepsMoreIsStoredByItsCodable() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Tagged.self])
        let tagged = Tagged(id: 1, tag: SourcedTag(rawValue: "scifi", source: "import"))
        try store.context.persistAndWait { tx in try tx.insert(tagged) }
        #expect(try store.context.readAndWait { tx in try tx.fetch(Tagged.self, id: 1) } == tagged)
    }

    @Test func anIntegerItsPropertyCannotHoldIsRefusedAtTheWrite() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Narrow.self])
        try store.context.persistAndWait { tx in try tx.insert(Narrow(id: 1, level: -128)) }
        let error = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in try tx.insert(Narrow(id: 2, level: 0, wide: 300)) }
        }
        #expect(error?.code == .unsupportedValue)
        #expect(error?.property == "level")
    }

    @Test func textThatIsNotUTF8IsATypeMismatchNotARepair() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Ranked.self])
        try store.context.persistAndWait { tx in
            try tx.insert(Ranked(id: 1, rank: 0, label: "ok"))
            try tx.execute("UPDATE Ranked SET label = CAST(x'41ff42' AS TEXT) WHERE id = 1")
        }
        let error = #expect(throws: PersistenceError.self) {
            try store.context.readAndWait { tx in try tx.fetch(Ranked.self, id: 1) }
        }
        #expect(error?.code == .typeMismatch)
        #expect(error?.property == "label")
    }

    @Test func aRawQueryMayLeaveOutAnOptionalColumn() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Formula.self])
        try store.context.persistAndWait { tx in try tx.insert(Formula(id: 1, expression: .number(1))) }
        let fetched = try store.context.readAndWait { tx in try tx.fetch(Formula.self, sql: "SELECT id FROM Formula") }
        #expect(fetched == [Formula(id: 1, expression: nil)])
    }

    @Test func aRawQueryAfterASchemaChangeReadsTheColumnsTheTableHasNow() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Formula.self])
        try store.context.persistAndWait { tx in try tx.insert(Formula(id: 1, expression: .number(1))) }
        let sql = "SELECT * FROM Formula"
        let before = try store.context.persistAndWait { tx in try tx.fetch(Formula.self, sql: sql) }
        #expect(before == [Formula(id: 1, expression: .number(1))])
        // The statement the connection keeps for `sql` returns other columns once the table changes.
        let after = try store.context.persistAndWait { tx in
            try tx.execute("ALTER TABLE Formula RENAME COLUMN expression TO kept")
            return try tx.fetch(Formula.self, sql: sql)
        }
        #expect(after == [Formula(id: 1, expression: nil)])
    }

    @Test func aPropertyNamedLikeTheRowIDIsRefused() throws {
        let fixture = try StoreFixture()
        let error = openError { () throws(PersistenceError) in try fixture.open([RowIDNamed.self]) }
        #expect(error?.code == .misuse)
        #expect(error?.property == "rowid")
    }
    @Test func aTransactionThatLimitsThePageCacheReleasesPagesAndTheNextGetsTheStoresCacheBack() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Ranked.self])
        defer { store.close() }
        // About 20 MB of rows, so that a scan fills more than a few MiB of cache.
        let label = String(repeating: "x", count: 4_000)
        try store.context.persistAndWait { tx in
            for id in 0..<5_000 { try tx.insert(Ranked(id: id, rank: id, label: label)) }
        }
        func cacheSize(_ tx: ObjectTransaction) throws -> Int64? {
            try tx.rows("PRAGMA cache_size").first?[0].integerValue
        }
        let limited = try store.context.persistAndWait { tx in
            try tx.limitPageCache(toBytes: 1 << 20)
            _ = try tx.fetch(Query<Ranked>())
            return (try cacheSize(tx), tx.pageCacheUsed)
        }
        #expect(limited.0 == -1_024)
        #expect(limited.1 < 2 << 20)
        let restored = try store.context.readAndWait { tx in
            _ = try tx.fetch(Query<Ranked>())
            return (try cacheSize(tx), tx.pageCacheUsed)
        }
        #expect(restored.0 == -65_536)
        #expect(restored.1 > 16 << 20)
    }

    @Test func aPageCacheLimitNeverRaisesTheStoresCache() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Ranked.self]) { $0.pageCacheSize = 512 << 10 }
        defer { store.close() }
        let size = try store.context.persistAndWait { tx in
            try tx.limitPageCache(toBytes: 8 << 20)
            return try tx.rows("PRAGMA cache_size").first?[0].integerValue
        }
        #expect(size == -512)
    }
}
