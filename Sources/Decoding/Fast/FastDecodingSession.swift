import Foundation

/// One decoding on the fast path: the parsed text, the settings it needs, and whether it has
/// given up.
///
/// Every container and decoder of one decoding shares its session. A request on a value of
/// the wrong kind (missing, null, another type) throws the `DecodingError` that `JSONDecoder`
/// throws for it (see `FastDecodingSession+Errors.swift`), which a type may catch at no more
/// cost. Only what the fast path cannot answer as `JSONDecoder` would (`Data`, `Decimal`, a
/// `superDecoder`, ...; see ``FastDeferral``) records a ``FastDeferral`` here before
/// it throws: a type's `init(from:)` may catch that error too (`try?`, a lenient wrapper), so
/// the decoding can still return a value, and ``deferral`` is what tells ``PathDecoder`` to
/// decode again through `JSONDecoder`. Used from the one thread that decodes; never shared.
final class FastDecodingSession {
    /// The UTF-8 text, where the caller's `Data` holds it: valid only while the decoding runs
    /// (``PathDecoder`` decodes inside `Data.withUnsafeBytes`); a decoder or container a type keeps
    /// past its `init(from:)` must not be used afterwards, as `Decodable` requires.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The text's values, in document order (see ``JSONNode``).
    let nodes: [JSONNode]
    /// The `userInfo` every decoder of this decoding shows, as `JSONDecoder`'s would.
    let userInfo: [CodingUserInfoKey: Any]
    /// Whether dates decode through `Date(from:)` (`.deferredToDate`), the only date strategy
    /// the fast path implements.
    let datesAreDeferred: Bool
    /// Whether the decoder's `nonConformingFloatDecodingStrategy` reads floating-point values
    /// from strings (`.convertFromString`), which the fast path leaves to `JSONDecoder`.
    let floatsMayBeStrings: Bool
    /// Whether a keyed container's `allKeys` were read: they come in document order, where
    /// `JSONDecoder` gives its dictionary's order, so an error that ends the decoding may not
    /// be the first one the other path meets (see ``FastDeferral/Reason/keyOrder``).
    var keysWereListed = false
    /// The first reason the fast path gave up, if it has.
    private(set) var deferral: FastDeferral?
    /// For objects with more than ``indexedMemberCount`` members that a key was looked up in:
    /// each key's value node, by object node.
    private var memberIndexes: [Int: [String: Int]] = [:]
    /// For objects with more than ``indexedMemberCount`` members whose keys are all plain
    /// ASCII (no escapes): an open-addressing table of their key nodes, hashed by the key's
    /// bytes (FNV-1a), by object node; an empty table for an object with another key. The
    /// last table used is kept at hand: a type decodes one object's members in a row.
    private var plainMemberTables: [Int: [Int32]] = [:]
    private var lastTable: (object: Int, slots: [Int32]) = (-1, [])
    /// The type-mismatch messages made so far, by type and kind of value: a probing type (an
    /// any-JSON enum trying `Bool`, then `Int64`, then `Double`) meets the same few mismatches
    /// over and over, and spelling a type's name costs more than the rest of the error.
    var mismatchMessages: [MismatchMessageKey: String] = [:]

    /// Objects with more members than this are looked up through a dictionary, as
    /// `JSONDecoder` looks up every object, instead of by comparing keys in turn.
    static let indexedMemberCount = 32

    init(
        bytes: UnsafeBufferPointer<UInt8>, nodes: [JSONNode], userInfo: [CodingUserInfoKey: Any], datesAreDeferred: Bool,
        floatsMayBeStrings: Bool = false
    ) {
        self.bytes = bytes
        self.nodes = nodes
        self.userInfo = userInfo
        self.datesAreDeferred = datesAreDeferred
        self.floatsMayBeStrings = floatsMayBeStrings
    }

    /// Records that the fast path gives up, and returns the error to throw.
    func fail(_ reason: FastDeferral.Reason) -> FastDeferral {
        let error = FastDeferral(reason: reason)
        if deferral == nil { deferral = error }
        return error
    }

    /// Throws the recorded deferral, if there is one: once the fast path has given up, its
    /// result is thrown away, so every later request stops at once rather than decoding on
    /// behind a `try?` that swallowed the first error.
    @inline(__always)
    func checkNotDeferred() throws(FastDeferral) {
        if let deferral { throw deferral }
    }

    // MARK: Objects and arrays

    /// The value node of the member `key` of the object at `object`, or nil when it has none.
    ///
    /// Keys are compared as Swift strings compare, as `JSONDecoder`'s dictionary of keys does:
    /// by bytes when both are ASCII, as strings otherwise (canonically equivalent forms match).
    func member(_ key: String, in object: Int) -> Int? {
        let count = Int(nodes[object].length)
        guard count > 0 else { return nil }
        if count > Self.indexedMemberCount {
            if let answer = plainMember(key, in: object, count: count) { return answer }
            return memberIndex(of: object)[key]
        }
        var contiguous = key
        return contiguous.withUTF8 { wanted in
            bytes.withUnsafeBufferPointer { text in
                var keyIsASCII: Bool?
                var index = object + 1
                for _ in 0..<count {
                    let name = nodes[index]
                    let value = index + 1
                    let plain = name.has(JSONNode.stringIsASCII) && !name.has(JSONNode.stringHasEscapes)
                    if Int(name.length) == wanted.count, !name.has(JSONNode.stringHasEscapes),
                        JSONText.equalBytes(text, Int(name.start), wanted, 0, wanted.count)
                    {
                        return value
                    }
                    if plain && keyIsASCII == nil { keyIsASCII = !wanted.contains { $0 >= 0x80 } }
                    // Bytes that differ can still be equal strings when either is not plain ASCII.
                    if (!plain || keyIsASCII == false) && JSONText.string(of: name, in: text) == key {
                        return value
                    }
                    index = Int(nodes[value].next)
                }
                return nil
            }
        }
    }

    /// The member `key` of a large object through its table of plain keys: `.some(nil)`
    /// when the object has no such member, nil when the table cannot tell (a key of the object
    /// is not plain ASCII, or `key` is not ASCII: a non-ASCII string can equal an ASCII one,
    /// as the Kelvin sign equals `K`).
    private func plainMember(_ key: String, in object: Int, count: Int) -> Int?? {
        let slots: [Int32]
        if lastTable.object == object {
            slots = lastTable.slots
        } else {
            slots = plainMemberTables[object] ?? makePlainMemberTable(of: object, count: count)
            lastTable = (object, slots)
        }
        guard !slots.isEmpty else { return nil }
        var contiguous = key
        return contiguous.withUTF8 { wanted -> Int?? in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var high: UInt8 = 0
            for byte in wanted {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
                high |= byte
            }
            guard high < 0x80 else { return nil }
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            return slots.withUnsafeBufferPointer { table in
                while table[slot] >= 0 {
                    let name = nodes[Int(table[slot])]
                    if Int(name.length) == wanted.count, JSONText.equalBytes(bytes, Int(name.start), wanted, 0, wanted.count) {
                        return .some(Int(table[slot]) + 1)
                    }
                    slot = (slot + 1) & mask
                }
                return .some(nil)
            }
        }
    }

    /// The table of the plain keys of the object at `object`, or an empty one when a key is
    /// not plain ASCII; kept for the decoding.
    private func makePlainMemberTable(of object: Int, count: Int) -> [Int32] {
        var capacity = 64
        while capacity < count * 2 { capacity *= 2 }
        let mask = capacity - 1
        var slots = [Int32](repeating: -1, count: capacity)
        var node = object + 1
        for _ in 0..<count {
            let name = nodes[node]
            guard name.has(JSONNode.stringIsASCII), !name.has(JSONNode.stringHasEscapes) else {
                plainMemberTables[object] = []
                return []
            }
            let start = Int(name.start)
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for offset in start..<(start + Int(name.length)) {
                hash = (hash ^ UInt64(bytes[offset])) &* 0x100_0000_01b3
            }
            var slot = Int(truncatingIfNeeded: hash) & mask
            // The keys are distinct (the parser defers otherwise): the first free slot is its own.
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(node)
            node = Int(nodes[node + 1].next)
        }
        plainMemberTables[object] = slots
        return slots
    }

    /// The value node of every key of the object at `object`, made on first use. The keys are
    /// distinct as strings (the parser defers otherwise), so none replaces another.
    private func memberIndex(of object: Int) -> [String: Int] {
        if let index = memberIndexes[object] { return index }
        var index: [String: Int] = [:]
        let count = Int(nodes[object].length)
        index.reserveCapacity(count)
        bytes.withUnsafeBufferPointer { text in
            var node = object + 1
            for _ in 0..<count {
                index[JSONText.string(of: nodes[node], in: text)] = node + 1
                node = Int(nodes[node + 1].next)
            }
        }
        memberIndexes[object] = index
        return index
    }

    /// The keys of the object at `object`, in document order.
    func keys(of object: Int) -> [String] {
        let count = Int(nodes[object].length)
        var keys: [String] = []
        keys.reserveCapacity(count)
        bytes.withUnsafeBufferPointer { text in
            var index = object + 1
            for _ in 0..<count {
                keys.append(JSONText.string(of: nodes[index], in: text))
                index = Int(nodes[index + 1].next)
            }
        }
        return keys
    }

    /// The node of element `position` of the array at `array`, which has more elements.
    func element(_ position: Int, of array: Int) -> Int {
        var index = array + 1
        for _ in 0..<position { index = Int(nodes[index].next) }
        return index
    }
}

extension UnsafeBufferPointer {
    /// Calls `body` with this buffer, as `Array.withUnsafeBufferPointer` does, so code reads the
    /// session's text the same way whether it is an array or a buffer.
    @inline(__always)
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try body(self)
    }
}
