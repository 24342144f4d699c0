import Foundation
import Persistence
import TestSupport
import Testing

@testable import Sync

/// `FlatJSON` writes a record as `JSONEncoder` with sorted keys does, byte for byte, or declines.
@Suite struct FlatJSONTests {
    enum Shelf: String, Codable { case reading, done = "d/o\"ne" }
    enum Rank: Int, Codable { case low = -1, high = 7 }
    struct Wrapped: Codable, Equatable {
        var raw: Int
        init(raw: Int) { self.raw = raw }
        init(from decoder: any Decoder) throws { raw = try decoder.singleValueContainer().decode(Int.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(raw)
        }
    }

    /// Every kind of value the flat path writes, with keys whose byte order differs from other
    /// orders (`B` before `a`, `a10` before `a2`, `Ä` last).
    struct Record: Codable {
        var id: String
        var B: Int
        var a10: Double
        var a2: Float
        var flag: Bool
        var note: String?
        var count: Int64?
        var small: Int8
        var big: UInt64
        var shelf: Shelf
        var rank: Rank?
        var when: Date
        var wrapped: Wrapped
        var Ä: UInt16
    }

    private static let texts = [
        "", "plain", "a/b", "quote \" and \\ backslash", "tab\tnew\nline\rret", "\u{8}\u{c}\u{1}\u{1f}\u{7f}",
        "é café 日本 🙂", "\u{2028}\u{2029}", "</script>",
    ]
    private static let numbers: [Double] = [
        0, -0.0, 1, 0.1, 1.5, -2.25, 1e20, 1e-7, 1e15, 1e16, 123456789.125, .leastNonzeroMagnitude,
        .greatestFiniteMagnitude,
    ]

    private func sortedJSON<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }

    @Test func aFlatRecordIsWrittenAsJSONEncoderWritesIt() throws {
        var generator = SeededGenerator(seed: 62)
        for round in 0..<400 {
            let record = Record(
                id: Self.texts.randomElement(using: &generator)! + "\(round)",
                B: Int.random(in: Int.min...Int.max, using: &generator),
                a10: Self.numbers.randomElement(using: &generator)! * (Bool.random(using: &generator) ? 1 : -1),
                a2: Float(Self.numbers.randomElement(using: &generator)!.truncatingRemainder(dividingBy: 1e30)),
                flag: Bool.random(using: &generator),
                note: Bool.random(using: &generator) ? Self.texts.randomElement(using: &generator)! : nil,
                count: Bool.random(using: &generator) ? Int64.random(in: .min ... .max, using: &generator) : nil,
                small: Int8.random(in: .min ... .max, using: &generator),
                big: UInt64.random(in: .min ... .max, using: &generator),
                shelf: Bool.random(using: &generator) ? .reading : .done,
                rank: [Rank.low, .high, nil].randomElement(using: &generator)!,
                when: Date(
                    timeIntervalSinceReferenceDate: Double(Int.random(in: -1_000_000...1_000_000, using: &generator))
                        / 7),
                wrapped: Wrapped(raw: Int.random(in: -100...100, using: &generator)),
                Ä: UInt16.random(in: 0...UInt16.max, using: &generator))
            let flat = try #require(FlatJSON.encode(record), "round \(round) was not written flat")
            let expected = try sortedJSON(record)
            #expect(
                flat == expected,
                "\(String(decoding: flat, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))")
        }
    }

    struct WithData: Codable { var id = "x"; var blob = Data([1, 2, 3]) }
    struct WithURL: Codable {
        var id = "x"; var link = URL(string: "b", relativeTo: URL(string: "https://example.com/a/"))!
    }
    struct WithDecimal: Codable { var id = "x"; var price = Decimal(string: "1.10")! }
    struct WithArray: Codable { var id = "x"; var tags = ["a", "b"] }
    struct WithNested: Codable { var id = "x"; var inner = Wrapped(raw: 1); var more = ["k": 1] }
    struct WithInfinity: Codable { var id = "x"; var value = Double.infinity }
    struct WithOptionalData: Codable { var id = "x"; var blob: Data? = Data([9]) }
    struct Twice: Encodable {
        enum Key: String, CodingKey { case id }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("first", forKey: .id)
            try container.encode("second", forKey: .id)
        }
    }

    /// A record that catches the error of a value it cannot write flat, and goes on.
    struct Swallows: Encodable {
        enum Key: String, CodingKey { case id, link, blob }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("x", forKey: .id)
            try? container.encode(URL(string: "https://example.com/a")!, forKey: .link)
            do {
                try container.encode(Data([1]), forKey: .blob)
            } catch {
                try container.encodeNil(forKey: .blob)
            }
        }
    }

    /// Keys written by hand: two spellings of `é` that Swift holds equal, with a key whose bytes
    /// sort between them.
    struct TwoSpellings: Encodable {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("composed", forKey: Key(stringValue: "\u{E9}"))
            try container.encode("between", forKey: Key(stringValue: "f"))
            try container.encode("decomposed", forKey: Key(stringValue: "e\u{301}"))
        }
    }

    /// A value that writes two plain values, and one that writes none.
    struct TwoValues: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(1)
            try container.encode(2)
        }
    }
    struct NoValue: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }
    struct Holding<Value: Encodable>: Encodable {
        var id = "x"
        var value: Value
    }
    /// A wrapper of a wrapper of a raw-value enum.
    struct Outer: Encodable {
        var inner: Inner
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(inner)
        }
    }
    struct Inner: Encodable {
        var shelf: Shelf
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(shelf)
        }
    }

    /// A value that writes its own coding path.
    struct WritesItsPath: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(encoder.codingPath.map(\.stringValue).joined(separator: "."))
        }
    }

    @Test func aValueThatReadsItsPathIsLeftToJSONEncoder() {
        #expect(FlatJSON.encode(Holding(value: WritesItsPath())) == nil)
    }

    @Test func keysSwiftHoldsEqualAreLeftToJSONEncoderWhereverTheySort() {
        #expect(FlatJSON.encode(TwoSpellings()) == nil)
    }

    @Test func aValueIsWrittenFlatOnlyWhenItWritesExactlyOnePlainValue() throws {
        #expect(FlatJSON.encode(Holding(value: TwoValues())) == nil)
        #expect(FlatJSON.encode(Holding(value: NoValue())) == nil)
        let nested = Holding(value: Outer(inner: Inner(shelf: .done)))
        #expect(FlatJSON.encode(nested) == (try sortedJSON(nested)))
    }

    @Test func aRecordThatCatchesARefusalIsStillLeftToJSONEncoder() throws {
        #expect(FlatJSON.encode(Swallows()) == nil)
    }

    @Test func aRecordOfAnotherShapeIsLeftToJSONEncoder() throws {
        #expect(FlatJSON.encode(WithData()) == nil)
        #expect(FlatJSON.encode(WithURL()) == nil)
        #expect(FlatJSON.encode(WithDecimal()) == nil)
        #expect(FlatJSON.encode(WithArray()) == nil)
        #expect(FlatJSON.encode(WithNested()) == nil)
        #expect(FlatJSON.encode(WithInfinity()) == nil)
        #expect(FlatJSON.encode(WithOptionalData()) == nil)
        #expect(FlatJSON.encode(Twice()) == nil)
        // A dictionary of strings writes as `JSONEncoder` writes it.
        #expect(FlatJSON.encode(["b": "2", "a": "1"]) == (try sortedJSON(["b": "2", "a": "1"])))
        #expect(FlatJSON.encode("a string") == nil)
    }

    /// A record's identity is written as `JSONEncoder` writes it, through the same string writer
    /// as a record's fields, and reads back as itself.
    @Test func anIdentityIsWrittenAsJSONEncoderWritesIt() throws {
        let texts = ["a", "a/b", #"q"u\o"#, "tab\tnew\nline\r", "\u{0}\u{8}\u{c}\u{1f}\u{7f}", "café 🙂", ""]
        for text in texts {
            let written = try SyncJSON.encodeIdentity(text)
            #expect(written == (try JSONEncoder().encode(text)), "\(text.debugDescription)")
            #expect(try SyncJSON.decode(String.self, from: written) == text)
        }
        let uuid = UUID()
        #expect(try SyncJSON.encodeIdentity(uuid) == (try JSONEncoder().encode(uuid)))
        #expect(try SyncJSON.encodeIdentity(Int64.min) == (try JSONEncoder().encode(Int64.min)))
        #expect(try SyncJSON.encodeIdentity(42) == (try JSONEncoder().encode(42)))
    }

    /// Counts the calls of its records' `encode(to:)`.
    final class EncodeCount: @unchecked Sendable {  // read and written by the test's one thread
        var calls = 0
    }

    /// A record with a nested value, which `FlatJSON` declines, counting its encodes.
    struct Shelved: StoredEntity {
        var id: String
        var tags: [String]
        var count: EncodeCount
        enum CodingKeys: String, CodingKey { case id, tags }
        init(id: String, tags: [String], count: EncodeCount) { (self.id, self.tags, self.count) = (id, tags, count) }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            tags = try container.decode([String].self, forKey: .tags)
            count = EncodeCount()
        }
        func encode(to encoder: any Encoder) throws {
            count.calls += 1
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(tags, forKey: .tags)
        }
    }

    /// A record type `FlatJSON` declined is written by `JSONEncoder` at once from then on: its
    /// `encode(to:)` runs once a record, not twice.
    @Test func aDeclinedTypeIsNotWrittenHalfwayAgain() throws {
        let count = EncodeCount()
        let first = try Outbox<Shelved>.encode(Shelved(id: "a", tags: ["x/y"], count: count))
        let afterFirst = count.calls
        let second = try Outbox<Shelved>.encode(Shelved(id: "b", tags: [], count: count))
        #expect(count.calls - afterFirst == 1)
        #expect(first == (try sortedJSON(Shelved(id: "a", tags: ["x/y"], count: count))))
        #expect(second == (try sortedJSON(Shelved(id: "b", tags: [], count: count))))
    }
}
