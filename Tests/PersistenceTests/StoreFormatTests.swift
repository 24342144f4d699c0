import Foundation
import Persistence
import TestSupport
import Testing

/// The entity of `persistence/format1-notes.sqlite`, as the program that wrote it declared it.
struct LegacyNote: StoredEntity, Equatable {
    enum Mood: String, Codable, CaseIterable, Sendable { case calm, busy }
    struct Tag: Codable, Hashable, Sendable { var name: String; var weight: Int }
    /// A single-value wrapper: format 1 stored it as plain TEXT.
    struct Email: Codable, Hashable, Sendable {
        var address: String
        init(_ address: String) { self.address = address }
        init(from decoder: any Decoder) throws { address = try decoder.singleValueContainer().decode(String.self) }
        func encode(to encoder: any Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(address) }
    }
    /// A single-value wrapper of a Bool: format 1 stored it as INTEGER 0/1.
    struct Toggle: Codable, Hashable, Sendable {
        var on: Bool
        init(_ on: Bool) { self.on = on }
        init(from decoder: any Decoder) throws { on = try decoder.singleValueContainer().decode(Bool.self) }
        func encode(to encoder: any Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(on) }
    }
    /// A single-value wrapper of a Double: format 1 stored it as REAL.
    struct Meters: Codable, Hashable, Sendable {
        var value: Double
        init(_ value: Double) { self.value = value }
        init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Double.self) }
        func encode(to encoder: any Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(value) }
    }

    var id: Int64
    var title: String
    var created: Date
    var edited: Date?
    var rating: Double
    var weight: Float
    var score: Double?
    var flag: Bool
    var uuid: UUID
    var link: URL
    var blob: Data
    var mood: Mood
    var tags: [Tag]
    var email: Email
    var toggle: Toggle
    var distance: Meters?
    var count: UInt32

    static let title = Field<LegacyNote, String>("title")
    static let created = Field<LegacyNote, Date>("created")
    static let indexes = [EntityIndex(title, caseInsensitive: true), EntityIndex(created)]
}

/// A table some other program made, which no entity matches.
struct Stranger: StoredEntity {
    var id: Int
    var name: String
    var born: Date
}

@Suite struct StoreFormatTests {
    /// A copy of the format-1 fixture in a fresh directory.
    func format1Copy() throws -> StoreFixture {
        let fixture = try StoreFixture("notes.sqlite")
        try FileManager.default.copyItem(at: Fixtures.url("persistence/format1-notes.sqlite"), to: fixture.url)
        return fixture
    }

    @Test func aStoreWrittenByFormat1ReadsBackEveryValueAsFormat1ReadIt() throws {
        let fixture = try format1Copy()
        let store = try fixture.open([LegacyNote.self])
        let notes = try store.context.readAndWait { tx in
            try tx.fetch(Query<LegacyNote>(sortedBy: [LegacyNote.title.ascending(caseInsensitive: true)]))
        }
        // Format 1 turned -0.0 into 0.0 and rounded dates through seconds since 1970: these are
        // the values it read back (its program printed them when it wrote the file).
        #expect(notes.map(\.title) == ["apple", "Éclair", "Zorro"])
        let apple = try #require(notes.first)
        let eclair = notes[1]
        let zorro = notes[2]
        #expect(eclair.created.timeIntervalSinceReferenceDate == 0.10000002384185791)
        #expect(eclair.edited?.timeIntervalSinceReferenceDate == 721_692_800.25)
        #expect(eclair.rating.bitPattern == (0.0 as Double).bitPattern)
        #expect(eclair.weight == 0.1)
        #expect(eclair.score == nil)
        #expect(eclair.flag)
        #expect(eclair.uuid == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(eclair.link == URL(string: "https://example.com/a?b=c&d=%20"))
        #expect(eclair.blob == Data([0, 1, 2, 255]))
        #expect(eclair.mood == .busy)
        #expect(eclair.tags == [.init(name: "x", weight: 2)])
        #expect(eclair.email == .init("a@example.com"))
        #expect(eclair.toggle == .init(true))
        #expect(eclair.distance == .init(2.5))
        #expect(eclair.count == 4_000_000_000)
        #expect(
            apple.created.timeIntervalSinceReferenceDate
                == Date(timeIntervalSince1970: 1_678_307_200.123456).timeIntervalSinceReferenceDate)
        #expect(apple.edited == nil)
        #expect(apple.score == 2.0)
        #expect(apple.blob == Data())
        #expect(apple.email == .init("Zorro <z@example.com>"))
        #expect(apple.toggle == .init(false))
        #expect(apple.distance == nil)
        #expect(zorro.created.timeIntervalSinceReferenceDate == -978_393_600.5)
        #expect(zorro.edited?.timeIntervalSinceReferenceDate == -978_307_200.0)
        #expect(zorro.rating == .infinity)
        #expect(zorro.weight == .greatestFiniteMagnitude)
        #expect(zorro.score == -.infinity)
        #expect(zorro.tags == [.init(name: "ü \"q\"", weight: -1), .init(name: "", weight: 0)])
        #expect(zorro.email == .init(""))
        #expect(zorro.distance == .init(-0.001))
        store.close()
    }

    @Test func anUpgradedStoreHoldsNewValuesExactlyAndStaysReadableByOtherPrograms() throws {
        let fixture = try format1Copy()
        let store = try fixture.open([LegacyNote.self])
        let before = try store.context.readAndWait { tx in try tx.fetch(LegacyNote.self, id: 2) }
        var note = try #require(before)
        note.id = 4
        note.title = "Ångström"
        note.rating = -0.0
        note.created = Date(timeIntervalSinceReferenceDate: 0.1)
        try store.context.persistAndWait { tx in try tx.insert(note) }
        let back = try store.context.readAndWait { tx in
            (
                try tx.fetch(LegacyNote.self, id: 4),
                try tx.fetch(Query<LegacyNote>(where: LegacyNote.title.equals("angstrom"))).map(\.id),
                try tx.queryPlan(for: Query<LegacyNote>(where: LegacyNote.title.equals("zorro"))).joined()
            )
        }
        #expect(back.0 == note)
        #expect(back.0?.rating.sign == .minus)
        #expect(back.1 == [4])
        #expect(back.2.contains("fk_index_LegacyNote_title_folded"))
        store.close()
        let raw = try RawSQLite(fixture.url)
        #expect(try raw.rows("PRAGMA integrity_check") == [["ok"]])
        #expect(try raw.rows("PRAGMA user_version") == [["2"]])
        #expect(try raw.rows("SELECT name FROM sqlite_master WHERE name LIKE '%nocase%'").isEmpty)
        let reopened = try fixture.open([LegacyNote.self])
        #expect(try reopened.context.readAndWait { tx in try tx.count(Query<LegacyNote>()) } == 4)
        reopened.close()
    }

    @Test func theUpgradeKeepsRowsOfOtherTablesThatReferenceARebuiltTable() throws {
        let fixture = try format1Copy()
        do {
            let raw = try RawSQLite(fixture.url)
            try raw.execute(
                "CREATE TABLE Comment (id INTEGER PRIMARY KEY, note INTEGER NOT NULL REFERENCES LegacyNote(id) "
                    + "ON DELETE CASCADE); INSERT INTO Comment VALUES (1, 1), (2, 3)")
        }
        let store = try fixture.open([LegacyNote.self])
        store.close()
        let raw = try RawSQLite(fixture.url)
        #expect(try raw.rows("SELECT id, note FROM Comment ORDER BY id") == [["1", "1"], ["2", "3"]])
        #expect(try raw.rows("PRAGMA foreign_key_check").isEmpty)
    }

    @Test func aTableOfAnEntityNotGivenToAnOpenIsUpgradedByALaterOpen() throws {
        struct Visit: StoredEntity, Equatable {
            var id: Int
            var at: Date
        }
        let fixture = try format1Copy()
        do {  // a second table as format 1 wrote it: dates in seconds since 1970
            let raw = try RawSQLite(fixture.url)
            try raw.execute(
                "CREATE TABLE Visit (\"id\" INTEGER NOT NULL PRIMARY KEY, \"at\" REAL NOT NULL); "
                    + "INSERT INTO Visit VALUES (1, 978307200.5)")
        }
        let first = try fixture.open([LegacyNote.self])
        first.close()
        #expect(try RawSQLite(fixture.url).rows("PRAGMA user_version") == [["1"]])
        let second = try fixture.open([LegacyNote.self, Visit.self])
        let visit = try second.context.readAndWait { tx in try tx.fetch(Visit.self, id: 1) }
        #expect(visit?.at == Date(timeIntervalSince1970: 978_307_200.5))
        #expect(try second.context.readAndWait { tx in try tx.count(Query<LegacyNote>()) } == 3)
        second.close()
        #expect(try RawSQLite(fixture.url).rows("PRAGMA user_version") == [["2"]])
        let third = try fixture.open([LegacyNote.self, Visit.self])
        #expect(try third.context.readAndWait { tx in try tx.fetch(Visit.self, id: 1) }?.at == visit?.at)
        third.close()
    }

    @Test func anIncompatibleFileIsLeftWithEveryByteAndItsJournalMode() throws {
        let fixture = try StoreFixture("theirs.sqlite")
        do {
            let raw = try RawSQLite(fixture.url)
            try raw.execute(
                "CREATE TABLE Stranger (id INTEGER PRIMARY KEY, name TEXT NOT NULL); INSERT INTO Stranger VALUES (1, 'x')"
            )
            #expect(try raw.rows("PRAGMA journal_mode") == [["delete"]])
        }
        let original = try Data(contentsOf: fixture.url)
        let error = openError { () throws(PersistenceError) in try fixture.open([Stranger.self]) }
        #expect(error?.code == .incompatibleSchema)
        #expect(error?.property == "born")
        #expect(try Data(contentsOf: fixture.url) == original)
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: fixture.url.deletingLastPathComponent().path)
        #expect(leftovers == ["theirs.sqlite"])
    }

    @Test func aFailingMigrationLeavesTheFileAsItWas() throws {
        let fixture = try format1Copy()
        let original = try Data(contentsOf: fixture.url)
        let error = openError { () throws(PersistenceError) in
            try fixture.open([LegacyNote.self]) { config in
                config.migrations = [
                    Migration("touch") { tx in try tx.execute("UPDATE LegacyNote SET title = 'x'") },
                    Migration("fail") { tx in try tx.execute("SELECT * FROM NoSuchTable") },
                ]
            }
        }
        #expect(error?.code == .migrationFailed)
        #expect(try Data(contentsOf: fixture.url) == original)
    }
}
