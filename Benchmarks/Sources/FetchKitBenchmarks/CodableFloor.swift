import Foundation
import Persistence

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLiteBench
#endif

// The floor of any `Codable` fetch, measured: the least a `Decoder` can do for the fetch case's
// rows. It reads the statement's columns in the order `init(from:)` asks for them, trusting
// that order and every type: no key is matched to its column, no value's type is checked, no
// misuse is caught, and a wrong order reads the wrong column. No store may decode this way;
// it is here so that the report states the floor its fetch target stands for with a
// measurement, in the same run: what `BenchItem`'s synthesized `init(from:)` costs through the
// standard library's keyed container when the decoder behind it costs almost nothing.

/// A decoder over a statement's current row that hands out its columns in order.
private final class FloorRowDecoder: Decoder {
    let statement: OpaquePointer
    @exclusivity(unchecked) var next: Int32 = 0
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(statement: OpaquePointer) { self.statement = statement }

    /// The container handed out for every row (a `KeyedDecodingContainer` is one reference to the
    /// standard library's box), and its key type: one box for the whole fetch.
    private var box: AnyObject?
    private var boxKey: ObjectIdentifier?

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        next = 0
        if let box, boxKey == ObjectIdentifier(Key.self) {
            return unsafeBitCast(box, to: KeyedDecodingContainer<Key>.self)
        }
        let container = KeyedDecodingContainer(FloorKeyedContainer<Key>(decoder: Unmanaged.passUnretained(self)))
        box = unsafeBitCast(container, to: AnyObject.self)
        boxKey = ObjectIdentifier(Key.self)
        return container
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw FloorUnsupported() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw FloorUnsupported() }
}

private struct FloorUnsupported: Error {}

/// The keyed container: `decode(Int.self, forKey:)` reads the next column; anything else
/// throws (the fetch case's rows are ten integers). The decoder is referred to unretained (it
/// outlives the fetch), so the standard library's copies of the container cost no reference
/// counting.
private struct FloorKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: Unmanaged<FloorRowDecoder>
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        decoder._withUnsafeGuaranteedRef { decoder in
            let column = decoder.next
            decoder.next = column + 1
            return Int(sqlite3_column_int64(decoder.statement, column))
        }
    }
    func decodeNil(forKey key: Key) throws -> Bool { throw FloorUnsupported() }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { throw FloorUnsupported() }
    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> { throw FloorUnsupported() }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw FloorUnsupported() }
    func superDecoder() throws -> any Decoder { throw FloorUnsupported() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw FloorUnsupported() }
}

extension RawSQLite {
    /// Fetches every row into `BenchItem`s through their `Decodable` conformance, by the
    /// decoder above: the same statement and steps as ``fetchItems()``.
    func fetchItemsThroughTheCodableFloor() throws -> [BenchItem] {
        let statement = try prepare("SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM items")
        defer { sqlite3_finalize(statement) }
        let decoder = FloorRowDecoder(statement: statement)
        var items: [BenchItem] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            items.append(try BenchItem(from: decoder))
        }
        return items
    }
}

/// The fetch case's measured `Codable` floor (see the top of this file).
func codableFloorFetchSide(path: String) -> Side {
    rawFetchSide(path: path, name: "the Codable floor: a decoder reading columns in order, unchecked") {
        try $0.fetchItemsThroughTheCodableFloor()
    }
}
