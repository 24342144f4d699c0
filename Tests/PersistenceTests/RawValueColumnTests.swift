import Foundation
import Persistence
import Testing

/// A raw enum of a narrow integer type.
enum RawLevel: UInt8, Codable, Sendable {
    case low = 1, high = 200
}

/// A raw enum whose raw values do not all fit in SQLite's 64-bit signed integer.
enum RawHuge: UInt64, Codable, Sendable {
    case small = 1, beyond = 18_446_744_073_709_551_615
}

/// A raw enum with a raw value that is not ASCII.
enum RawMood: String, Codable, Sendable {
    case calm = "calme", fine = "très bien 🙂"
}

/// An entity of raw-value properties, required and optional.
struct RawRow: StoredEntity, Equatable {
    var id: Int
    var level: RawLevel
    var mood: RawMood
    var huge: RawHuge = .small
    var maybeLevel: RawLevel?
    var maybeMood: RawMood?
}

/// Raw-value properties are written and read by their raw value; a stored value the type has no
/// case for, or that does not fit, is refused by name, as any other value is.
@Suite struct RawValueColumnTests {
    let fixture: StoreFixture
    let store: ObjectStore

    init() throws {
        fixture = try StoreFixture()
        store = try fixture.open([RawRow.self])
    }

    func read(_ id: Int) throws -> RawRow? {
        try store.context.readAndWait { tx in try tx.fetch(RawRow.self, id: id) }
    }

    @Test func rawValuesOfEveryWidthComeBackAsWritten() throws {
        let rows = [
            RawRow(id: 1, level: .high, mood: .fine, maybeLevel: .low, maybeMood: .calm),
            RawRow(id: 2, level: .low, mood: .calm),
        ]
        try store.context.persistAndWait { tx in for row in rows { try tx.upsert(row) } }
        #expect(try read(1) == rows[0])
        #expect(try read(2) == rows[1])
        let stored = try store.context.readAndWait { tx in
            try tx.rows("SELECT level, mood, maybeLevel, maybeMood FROM RawRow WHERE id = 1").first.map { row in
                (0..<4).map { row[$0] }
            }
        }
        #expect(stored == [.integer(200), .text("très bien 🙂"), .integer(1), .text("calme")])
    }

    @Test func aRawValueBeyondSQLitesIntegersIsRefusedByName() throws {
        let error = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in
                try tx.upsert(RawRow(id: 1, level: .low, mood: .calm, huge: .beyond))
            }
        }
        #expect(error?.code == .unsupportedValue)
        #expect(error?.property == "huge")
    }

    @Test(arguments: [
        ("UPDATE RawRow SET mood = 'furious' WHERE id = 1", "mood", "furious"),
        ("UPDATE RawRow SET level = 7 WHERE id = 1", "level", "7"),
        ("UPDATE RawRow SET maybeMood = 'furious' WHERE id = 1", "maybeMood", "furious"),
    ])
    func aStoredRawValueWithNoCaseIsRefusedByName(sql: String, property: String, value: String) throws {
        try store.context.persistAndWait { tx in try tx.upsert(RawRow(id: 1, level: .low, mood: .calm)) }
        try store.context.persistAndWait { tx in try tx.execute(sql) }
        let error = #expect(throws: PersistenceError.self) { try read(1) }
        #expect(error?.code == .typeMismatch)
        #expect(error?.property == property)
        #expect(error?.message.contains("raw value") == true)
        #expect(error?.message.contains(value) == true)
    }

    @Test func aStoredIntegerTooWideForTheRawTypeIsRefusedByName() throws {
        try store.context.persistAndWait { tx in try tx.upsert(RawRow(id: 1, level: .low, mood: .calm)) }
        try store.context.persistAndWait { tx in try tx.execute("UPDATE RawRow SET level = 300 WHERE id = 1") }
        let error = #expect(throws: PersistenceError.self) { try read(1) }
        #expect(error?.code == .typeMismatch)
        #expect(error?.property == "level")
        #expect(error?.message.contains("300") == true)
    }
}
