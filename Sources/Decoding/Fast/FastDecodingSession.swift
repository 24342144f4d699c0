import Foundation

/// One decoding on the fast path: the parsed text, the settings it needs, and whether it has
/// given up.
///
/// Every container and decoder of one decoding shares its session. A request on a value of
/// the wrong kind (missing, null, another type) throws the `DecodingError` that `JSONDecoder`
/// throws for it (see `FastDecodingSession+Errors.swift`), which a type may catch at no more
/// cost. Only what the fast path cannot answer as `JSONDecoder` would (a number it does not
/// convert, `Data`, a path that does not resolve, ...) records a ``FastDeferral`` here before
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
        if count > Self.indexedMemberCount { return memberIndex(of: object)[key] }
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
