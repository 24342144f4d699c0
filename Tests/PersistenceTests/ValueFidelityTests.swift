import Decoding
import Foundation
import Persistence
import TestSupport
import Testing

/// A value whose `Codable` shape depends on the value: a bool, a number or a string.
enum JSONScalar: Codable, Sendable, Equatable {
    case bool(Bool)
    case number(Double)
    case string(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }
}

/// A `String` raw enum that is not `CaseIterable`.
enum Genre: String, Codable, Sendable, QueryableValue {
    case fantasy, history, poetry
}

/// An `Int` raw enum that is not `CaseIterable`.
enum Priority: Int, Codable, Sendable {
    case low = 10, high = 20
}

/// An enum with associated values (synthesized `Codable`).
enum Shape: Codable, Sendable, Equatable {
    case circle(radius: Double)
    case label(String, size: Int?)
    case empty
}

struct Specimen: StoredEntity, Equatable {
    var id: Int
    var scalar: JSONScalar = .bool(false)
    var number: Double = 0
    var small: Float = 0
    var maybe: Double? = nil
    var moment = Date(timeIntervalSinceReferenceDate: 0)
    var genre: Genre = .fantasy
    var priority: Priority = .low
    var price: Decimal = 0
    var shape: Shape = .empty
    var published: PartialDate? = nil
    @LosslessValue var pages: Int = 0
    var count: UInt64 = 0
    var link: URL? = nil

    static let number = Field<Specimen, Double>("number")
    static let genre = Field<Specimen, Genre>("genre")
}

/// Plain integer and floating-point properties, read on the decoder's common path after the
/// first row.
struct Tally: StoredEntity, Equatable {
    var id: Int
    var score: Int
    var weight: Double
}

/// An entity whose `encode(to:)` writes, for `mode` 1 or 2, what its `init(from:)` cannot read
/// back: 300 for an `Int8`, an integer for a `String`; when it `swallows`, it goes on past the
/// refused write (`try?`).
struct Lopsided: StoredEntity {
    var id: Int
    var small: Int8 = 1
    var label = "fine"
    var mode = 0
    var swallows = false

    enum CodingKeys: String, CodingKey { case id, small, label, mode, swallows }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try write {
            if mode == 1 {
                try container.encode(300, forKey: .small)
            } else {
                try container.encode(small, forKey: .small)
            }
        }
        try write {
            if mode == 2 {
                try container.encode(7, forKey: .label)
            } else {
                try container.encode(label, forKey: .label)
            }
        }
        try container.encode(mode, forKey: .mode)
        try container.encode(swallows, forKey: .swallows)
    }

    private func write(_ body: () throws -> Void) throws {
        if swallows { try? body() } else { try body() }
    }
}

struct Titled: StoredEntity, Equatable {
    var id: Int
    var title: String

    static let title = Field<Titled, String>("title")
    static let indexes = [EntityIndex(title, caseInsensitive: true)]
}

/// A title without a folded index: case-insensitive queries fold at query time.
struct Plain: StoredEntity, Equatable {
    var id: Int
    var title: String

    static let title = Field<Plain, String>("title")
}

@Suite struct ValueFidelityTests {
    let fixture: StoreFixture
    let store: ObjectStore

    init() throws {
        fixture = try StoreFixture()
        store = try fixture.open([Specimen.self, Titled.self, Plain.self, Tally.self, Lopsided.self])
    }

    func roundTrip(_ specimen: Specimen) throws -> Specimen? {
        try store.context.persistAndWait { tx in try tx.upsert(specimen) }
        return try store.context.readAndWait { tx in try tx.fetch(Specimen.self, id: specimen.id) }
    }

    func writeError(_ specimen: Specimen) -> PersistenceError? {
        do {
            try store.context.persistAndWait { tx in try tx.upsert(specimen) }
            return nil
        } catch {
            return error as? PersistenceError
        }
    }

    @Test func aValueWhoseEncodingVariesComesBackAsWritten() throws {
        for (id, scalar) in [JSONScalar.string("hello"), .number(2.5), .bool(true), .number(1), .string("true")]
            .enumerated()
        {
            #expect(try roundTrip(Specimen(id: id, scalar: scalar))?.scalar == scalar)
        }
    }

    @Test func negativeZeroInfinityAndSubnormalsComeBackBitForBit() throws {
        let doubles: [Double] = [-0.0, .infinity, -.infinity, .leastNonzeroMagnitude, -.greatestFiniteMagnitude, 0.1]
        for (id, value) in doubles.enumerated() {
            let small = Float(value)
            let back = try #require(try roundTrip(Specimen(id: id, number: value, small: small, maybe: value)))
            #expect(back.number.bitPattern == value.bitPattern)
            #expect(back.small.bitPattern == small.bitPattern)
            #expect(back.maybe?.bitPattern == value.bitPattern)
        }
    }

    @Test func nanIsRefusedNamingTheProperty() {
        let nonOptional = writeError(Specimen(id: 1, number: .nan))
        #expect(nonOptional?.code == .unsupportedValue)
        #expect(nonOptional?.property == "number")
        #expect(nonOptional?.message.contains("Specimen.number") == true)
        let optional = writeError(Specimen(id: 2, maybe: -.nan))
        #expect(optional?.code == .unsupportedValue)
        #expect(optional?.property == "maybe")
        let nested = writeError(Specimen(id: 3, scalar: .number(.nan)))
        #expect(nested?.code == .unsupportedValue)
        #expect(nested?.property == "scalar")
    }

    @Test func aValueKeptAsJSONRefusesInfinityByNameAndKeepsInfinityLookalikeStrings() throws {
        let error = writeError(Specimen(id: 1, shape: .circle(radius: .infinity)))
        #expect(error?.code == .unsupportedValue)
        #expect(error?.property == "shape")
        #expect(error?.message.contains("Specimen.shape") == true)
        for (id, text) in ["+Infinity", "-Infinity", "NaN", "inf"].enumerated() {
            #expect(try roundTrip(Specimen(id: 10 + id, scalar: .string(text)))?.scalar == .string(text))
        }
    }

    @Test func datesComeBackBitForBit() throws {
        for (id, interval) in [0.1, -0.0, 1e-300, 700_000_000.123456, -63_000_000_000.5].enumerated() {
            let back = try roundTrip(Specimen(id: id, moment: Date(timeIntervalSinceReferenceDate: interval)))
            #expect(back?.moment.timeIntervalSinceReferenceDate.bitPattern == interval.bitPattern)
        }
    }

    @Test func rawEnumsDecimalsPayloadEnumsAndDecodingWrappersAreStored() throws {
        var specimen = Specimen(id: 7)
        specimen.genre = .poetry
        specimen.priority = .high
        specimen.price = try #require(Decimal(string: "12345678901234567890.123456789"))
        specimen.shape = .label("Dune", size: nil)
        specimen.published = try PartialDate("1965-08")
        specimen.pages = 412
        specimen.count = UInt64(Int64.max)
        specimen.link = URL(string: "https://example.com/a%20b?q=%26&x=y#frag")
        #expect(try roundTrip(specimen) == specimen)
        let poems = try store.context.readAndWait { tx in
            try tx.fetch(Query<Specimen>(where: Specimen.genre == .poetry))
        }
        #expect(poems.map(\.id) == [7])
    }

    @Test func anUnsignedValueAboveInt64MaxIsRefusedByName() {
        let error = writeError(Specimen(id: 1, count: UInt64(Int64.max) + 1))
        #expect(error?.code == .unsupportedValue)
        #expect(error?.property == "count")
    }

    @Test func aURLRelativeToABaseIsRefusedByName() throws {
        let base = try #require(URL(string: "https://example.com/books/"))
        let error = writeError(Specimen(id: 1, link: URL(string: "dune", relativeTo: base)))
        #expect(error?.code == .unsupportedValue)
        #expect(error?.property == "link")
    }

    @Test func aStoredValueOfAnotherTypeIsATypeMismatchNamingEntityPropertyAndTypes() throws {
        _ = try roundTrip(Specimen(id: 1, number: 4.5))
        try store.context.persistAndWait { tx in
            try tx.execute("UPDATE Specimen SET number = 'four and a half' WHERE id = 1")
        }
        let error = #expect(throws: PersistenceError.self) {
            try store.context.readAndWait { tx in try tx.fetch(Specimen.self, id: 1) }
        }
        #expect(error?.code == .typeMismatch)
        #expect(error?.property == "number")
        #expect(error?.message.contains("Specimen.number") == true)
        #expect(error?.message.contains("TEXT") == true)
        #expect(error?.message.contains("REAL") == true)
    }

    @Test func anIntegerInADoubleColumnIsNotConvertedSilently() throws {
        _ = try roundTrip(Specimen(id: 1, number: 4.5))
        try store.context.persistAndWait { tx in try tx.execute("UPDATE Specimen SET number = 4 WHERE id = 1") }
        let typeMismatch = #expect(throws: PersistenceError.self) {
            try store.context.readAndWait { tx in try tx.fetch(Specimen.self, id: 1) }
        }
        #expect(typeMismatch?.code == .typeMismatch)
    }

    /// After the first row, each property is read from the column after the last one read
    /// without a look-up by name; the stored type is still checked there, on every row.
    @Test(arguments: ["score = 'nine'", "score = 9.5", "weight = 'heavy'", "weight = 3"])
    func aValueOfAnotherTypeOnALaterRowIsATypeMismatch(change: String) throws {
        try store.context.persistAndWait { tx in
            for id in 1...3 { try tx.insert(Tally(id: id, score: id, weight: Double(id) + 0.5)) }
            _ = try tx.execute("UPDATE Tally SET \(change) WHERE id = 3")
        }
        let error = #expect(throws: PersistenceError.self) {
            try store.context.readAndWait { tx in try tx.fetch(Query<Tally>()) }
        }
        #expect(error?.code == .typeMismatch)
        #expect(error?.property == String(change.prefix { $0 != " " }))
    }

    /// The same for writing: an integer written in order after the first row is bound without a
    /// look-up by name, and the column's kind and range are still checked there. A refused write
    /// fails its row even when `encode(to:)` goes on past it, instead of leaving the column with
    /// the value bound for the row before.
    @Test(
        arguments: [(1, PersistenceError.Code.unsupportedValue, "small"), (2, .typeMismatch, "label")], [false, true])
    func aWrongValueOnALaterRowIsRefused(
        wrong: (mode: Int, code: PersistenceError.Code, property: String), swallows: Bool
    )
        throws
    {
        let (mode, code, property) = wrong
        let error = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in
                for id in 1...3 { try tx.insert(Lopsided(id: id, mode: id == 3 ? mode : 0, swallows: swallows)) }
            }
        }
        #expect(error?.code == code)
        #expect(error?.property == property)
        let stored = try store.context.readAndWait { tx in try tx.count(Query<Lopsided>()) }
        #expect(stored == 0)
    }

    @Test func textFiltersWorkForValuesOfAnyLength() throws {
        let long = String(repeating: "é Unreal Engine ", count: 8_000)  // 136 kB
        try store.context.persistAndWait { tx in
            try tx.insert(Titled(id: 1, title: "Prologue " + long + " Epilogue"))
            try tx.insert(Plain(id: 1, title: "Prologue " + long + " Epilogue"))
            try tx.insert(Titled(id: 2, title: "Other"))
        }
        let found = try store.context.readAndWait { tx in
            (
                try tx.fetch(Query<Titled>(where: Titled.title.contains(long.uppercased()))).map(\.id),
                try tx.fetch(Query<Titled>(where: Titled.title.hasPrefix("prologue " + long))).map(\.id),
                try tx.fetch(Query<Titled>(where: Titled.title.hasSuffix(long + " EPILOGUE"))).map(\.id),
                try tx.fetch(Query<Plain>(where: Plain.title.hasSuffix(long + " epilogue", caseSensitive: true))).map(
                    \.id),
                try tx.fetch(Query<Plain>(where: Plain.title.contains(long, caseSensitive: true))).map(\.id)
            )
        }
        #expect(found.0 == [1])
        #expect(found.1 == [1])
        #expect(found.2 == [1])
        #expect(found.3 == [])
        #expect(found.4 == [1])
    }

    static let mixedTitles = ["Zorro", "éclair", "apple", "Émile", "Alien", "zebra", "Ångström", "Éclair", "Apple"]

    @Test(arguments: [true, false])
    func caseInsensitiveOrderFoldsCaseAndDiacritics(indexed: Bool) throws {
        try store.context.persistAndWait { tx in
            for (id, title) in Self.mixedTitles.enumerated() {
                if indexed {
                    try tx.insert(Titled(id: id, title: title))
                } else {
                    try tx.insert(Plain(id: id, title: title))
                }
            }
        }
        let titles = try store.context.readAndWait { tx in
            indexed
                ? try tx.fetch(Query<Titled>(sortedBy: [Titled.title.ascending(caseInsensitive: true)])).map(\.title)
                : try tx.fetch(Query<Plain>(sortedBy: [Plain.title.ascending(caseInsensitive: true)])).map(\.title)
        }
        // Equal folded forms keep insertion order: "apple" before "Apple", "éclair" before "Éclair".
        #expect(titles == ["Alien", "Ångström", "apple", "Apple", "éclair", "Éclair", "Émile", "zebra", "Zorro"])
    }

    @Test func caseInsensitiveFiltersFoldCaseAndDiacritics() throws {
        try store.context.persistAndWait { tx in
            for (id, title) in Self.mixedTitles.enumerated() {
                try tx.insert(Titled(id: id, title: title))
                try tx.insert(Plain(id: id, title: title))
            }
        }
        let found = try store.context.readAndWait { tx in
            (
                try tx.fetch(Query<Titled>(where: Titled.title.equals("ECLAIR"))).map(\.title),
                try tx.fetch(Query<Plain>(where: Plain.title.equals("eclair"))).map(\.title),
                try tx.fetch(Query<Titled>(where: Titled.title.hasPrefix("ANG"))).map(\.title),
                try tx.fetch(Query<Plain>(where: Plain.title.contains("MIL"))).map(\.title),
                try tx.fetch(Query<Titled>(where: Titled.title == "Éclair")).map(\.title),
                try tx.fetch(Query<Titled>(where: Titled.title.equals("éclair", caseSensitive: true))).map(\.title)
            )
        }
        #expect(found.0 == ["éclair", "Éclair"])
        #expect(found.1 == ["éclair", "Éclair"])
        #expect(found.2 == ["Ångström"])
        #expect(found.3 == ["Émile"])
        #expect(found.4 == ["Éclair"])
        #expect(found.5 == ["éclair"])
    }

    @Test func equalityFiltersUseTheCaseInsensitiveIndex() throws {
        let plans = try store.context.readAndWait { tx in
            (
                try tx.queryPlan(for: Query<Titled>(where: Titled.title.equals("dune"))).joined(),
                try tx.queryPlan(for: Query<Titled>(where: Titled.title == "Dune")).joined(),
                try tx.queryPlan(for: Query<Titled>(where: Titled.title.hasPrefix("du"))).joined(),
                try tx.queryPlan(for: Query<Titled>(sortedBy: [Titled.title.ascending(caseInsensitive: true)])).joined()
            )
        }
        #expect(plans.0.contains("USING INDEX fk_index_Titled_title_folded"))
        #expect(plans.1.contains("USING INDEX fk_index_Titled_title_folded"))
        #expect(plans.2.contains("USING INDEX fk_index_Titled_title_folded"))
        #expect(plans.3.contains("fk_index_Titled_title_folded"))
        #expect(!plans.3.contains("TEMP B-TREE"))
    }

    @Test func rawSQLWritesKeepTheFoldedIndexTrue() throws {
        try store.context.persistAndWait { tx in try tx.insert(Titled(id: 1, title: "Dune")) }
        try store.context.persistAndWait { tx in try tx.execute("UPDATE Titled SET title = 'Ångström' WHERE id = 1") }
        let found = try store.context.readAndWait { tx in
            try tx.fetch(Query<Titled>(where: Titled.title.equals("angstrom"))).map(\.id)
        }
        #expect(found == [1])
    }

    @Test func theFileStaysReadableByOtherSQLiteProgramsWithItsFoldedIndex() throws {
        try store.context.persistAndWait { tx in
            for (id, title) in Self.mixedTitles.enumerated() { try tx.insert(Titled(id: id, title: title)) }
        }
        store.close()
        let raw = try RawSQLite(fixture.url)
        #expect(try raw.rows("PRAGMA integrity_check") == [["ok"]])
        let sorted = try raw.rows("SELECT title FROM Titled ORDER BY fk_fold_title, rowid").map { $0[0] ?? "" }
        #expect(sorted.first == "Alien")
        try raw.execute("INSERT INTO Titled (id, title, fk_fold_title) VALUES (100, 'Zulu', 'zulu')")
    }
}
