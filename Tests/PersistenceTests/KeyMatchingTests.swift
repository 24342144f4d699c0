import Foundation
import Persistence
import Testing

/// An entity whose rows read and write their columns in an order that changes from row to row:
/// odd ids go backwards. A row coder that matched a key to a column by position alone, or by a
/// key seen at that position on an earlier row without comparing it, would swap values.
private struct Shuffled: StoredEntity, Equatable {
    var id: Int
    var a: Int
    var b: String
    var c: Int?

    enum CodingKeys: CodingKey { case id, a, b, c }

    init(id: Int) {
        self.id = id
        a = id * 10
        b = "b\(id)"
        c = id % 3 == 0 ? nil : id * 100
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        if id % 2 == 1 {
            c = try container.decodeIfPresent(Int.self, forKey: .c)
            b = try container.decode(String.self, forKey: .b)
            a = try container.decode(Int.self, forKey: .a)
        } else {
            a = try container.decode(Int.self, forKey: .a)
            b = try container.decode(String.self, forKey: .b)
            c = try container.decodeIfPresent(Int.self, forKey: .c)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        if id % 2 == 1 {
            try container.encodeIfPresent(c, forKey: .c)
            try container.encode(b, forKey: .b)
            try container.encode(a, forKey: .a)
        } else {
            try container.encode(a, forKey: .a)
            try container.encode(b, forKey: .b)
            try container.encodeIfPresent(c, forKey: .c)
        }
    }
}

/// A key that is not plain data (it holds its name): always matched by its name.
private struct NameKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// The same columns as ``ForwardPair``, named by a key type whose cases are declared the other
/// way round, so the same key bits name the other column.
private struct BackwardPair: StoredEntity, Equatable {
    static let entityName = "BackwardPair"
    var id: Int
    var first: Int
    var second: Int

    enum CodingKeys: CodingKey { case second, first, id }

    init(id: Int, first: Int, second: Int) {
        (self.id, self.first, self.second) = (id, first, second)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        first = try container.decode(Int.self, forKey: .first)
        second = try container.decode(Int.self, forKey: .second)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(first, forKey: .first)
        try container.encode(second, forKey: .second)
    }
}

/// ``BackwardPair``'s columns, with keys declared in column order and read by a key that holds
/// its name.
private struct ForwardPair: StoredEntity, Equatable {
    static let entityName = "ForwardPair"
    var id: Int
    var first: Int
    var second: Int

    enum CodingKeys: CodingKey { case id, first, second }

    init(id: Int, first: Int, second: Int) {
        (self.id, self.first, self.second) = (id, first, second)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: NameKey.self)
        id = try container.decode(Int.self, forKey: NameKey("id"))
        first = try container.decode(Int.self, forKey: NameKey("first"))
        second = try container.decode(Int.self, forKey: NameKey("second"))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(first, forKey: .first)
        try container.encode(second, forKey: .second)
    }
}

/// Row coders match a key to its column by the key's bits when it is plain data (a synthesized
/// `CodingKeys` enum), by its name otherwise; either way every value lands in its own column.
@Suite struct KeyMatchingTests {
    @Test func rowsThatReadAndWriteTheirColumnsInAChangingOrderRoundTrip() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([Shuffled.self])
        let rows = (1...300).map(Shuffled.init(id:))
        try store.context.persistAndWait { tx in
            for row in rows { try tx.insert(row) }
        }
        let fetched = try store.context.readAndWait { tx in
            try tx.fetch(Query<Shuffled>().sorted(by: Shuffled.idField.ascending()))
        }
        #expect(fetched == rows)
        // The same rows again, through a second fetch on the same pooled decoder.
        let again = try store.context.readAndWait { tx in
            try tx.fetch(Query<Shuffled>().sorted(by: Shuffled.idField.descending()))
        }
        #expect(again == rows.reversed())
    }

    @Test func entitiesWithTheSameColumnsAndDifferentKeysReadTheirOwnValues() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open([ForwardPair.self, BackwardPair.self])
        let forward = (1...50).map { ForwardPair(id: $0, first: $0, second: -$0) }
        let backward = (1...50).map { BackwardPair(id: $0, first: 1000 + $0, second: -1000 - $0) }
        for round in 0..<3 {
            try store.context.persistAndWait { tx in
                for (one, other) in zip(forward, backward) {
                    try tx.upsert(one)
                    try tx.upsert(other)
                }
            }
            let (readForward, readBackward) = try store.context.readAndWait { tx in
                (
                    try tx.fetch(Query<ForwardPair>().sorted(by: ForwardPair.idField.ascending())),
                    try tx.fetch(Query<BackwardPair>().sorted(by: BackwardPair.idField.ascending()))
                )
            }
            #expect(readForward == forward, "round \(round)")
            #expect(readBackward == backward, "round \(round)")
        }
    }
}
