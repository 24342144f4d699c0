/// The coding key that named each column on an earlier row, kept as the key's bits, so that a
/// later row's key is matched to its column by comparing a few bytes instead of calling its
/// `stringValue` (a witness call, a string comparison and a release per column: about a tenth
/// of a 10-column fetch, in instructions).
///
/// Only keys whose type is plain data of 0, 1, 2 or 4 bytes are kept (a synthesized
/// `CodingKeys` enum is one byte): two such keys of one type with the same bits are the same value, so
/// they have the same `stringValue`. Any other key (one holding a `String`, a larger struct)
/// always takes the `stringValue` route, and so does a key whose bits were not seen before:
/// a miss costs only the comparison. The table belongs to one key type at a time and to one
/// list of column names; a row coder clears it when either changes.
struct KeyBitsTable {
    /// Per column: the key's bits with the top bit set, or 0 when no key is known.
    private var slots: UnsafeMutablePointer<UInt64>
    private var capacity: Int
    /// The key type whose bits the slots hold.
    private var keyType: ObjectIdentifier?

    private static let known: UInt64 = 1 << 63

    init(columns: Int) {
        capacity = max(1, columns)
        slots = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
        slots.initialize(repeating: 0, count: capacity)
    }

    /// Forgets every key and sizes the table for `columns` columns. Row coders are never freed
    /// (they live in pools), so neither is the table's memory.
    mutating func reset(columns: Int) {
        if columns > capacity {
            slots.deallocate()
            capacity = columns
            slots = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
            slots.initialize(repeating: 0, count: capacity)
        } else {
            slots.update(repeating: 0, count: capacity)
        }
        keyType = nil
    }

    /// The bits of `key` when its type is plain data of 0, 1, 2 or 4 bytes, tagged so that
    /// they are never 0; `nil` for any other key.
    @inline(__always)
    static func bits<K: CodingKey>(of key: K) -> UInt64? {
        guard _isPOD(K.self) else { return nil }
        // A load of the key's bytes at their own width (a copy through memory would cost a
        // `memcpy` call per column, more than the comparison saves).
        switch MemoryLayout<K>.size {
        case 0: return known
        case 1: return known | UInt64(unsafeBitCast(key, to: UInt8.self))
        case 2: return known | UInt64(unsafeBitCast(key, to: UInt16.self))
        case 4: return known | UInt64(unsafeBitCast(key, to: UInt32.self))
        default: return nil
        }
    }

    /// Whether column `index` was named, on an earlier row, by a key of type `K` with `bits`.
    @inline(__always)
    func matches<K>(_ type: K.Type, _ bits: UInt64, at index: Int) -> Bool {
        slots[index] == bits && keyType == ObjectIdentifier(K.self)
    }

    /// Keeps `bits` as the key of type `K` that names column `index`.
    @inline(__always)
    mutating func record<K>(_ type: K.Type, _ bits: UInt64, at index: Int) {
        guard index < capacity else { return }
        if keyType != ObjectIdentifier(K.self) {
            slots.update(repeating: 0, count: capacity)
            keyType = ObjectIdentifier(K.self)
        }
        slots[index] = bits
    }
}
