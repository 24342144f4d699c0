/// Reads strict RFC 8259 JSON text into the nodes read by ``JSONParser``.
///
/// It accepts exactly what ``JSONValidator`` accepts, minus what the fast path leaves to
/// Foundation: a byte order mark, nesting deeper than ``maximumDepth``, objects with a
/// duplicate key and strings with an escaped lone surrogate. Everything else it refuses is
/// not JSON. Strings and numbers are checked here (UTF-8, escapes, number grammar) and
/// converted only when they are decoded.
struct JSONParser {
    /// The deepest nesting the fast path reads; deeper data goes to Foundation, whose limit
    /// (``JSONValidator/maximumDepth``) is higher.
    static let maximumDepth = 256

    /// Objects with more members than this are checked for duplicate keys through a set.
    private static let pairwiseKeyLimit = 32

    private let bytes: UnsafeBufferPointer<UInt8>
    /// The number of nodes the text must stay below (see ``parse(_:byteLimit:nodeLimit:)``).
    private let nodeLimit: Int
    private var position = 0
    private var depth = 0
    private(set) var nodes: [JSONNode] = []

    /// Reads `bytes`, which must stay valid while the parser runs.
    ///
    /// - Throws: ``FastDeferral`` when the text is not JSON the fast path reads.
    /// - Parameters:
    ///   - byteLimit: the length the text must stay below, `Int32.max` (node offsets are 32-bit);
    ///     smaller in tests, which cannot afford a text of 2 GiB.
    ///   - nodeLimit: the number of values and keys the text must stay below,
    ///     ``JSONNode/maximumCount``; smaller in tests, as `byteLimit`.
    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, byteLimit: Int = Int(Int32.max), nodeLimit: Int = JSONNode.maximumCount
    ) throws(FastDeferral) -> [JSONNode] {
        guard bytes.count < min(byteLimit, Int(Int32.max)) else { throw FastDeferral(reason: .tooLarge) }
        var parser = JSONParser(bytes: bytes, nodeLimit: min(nodeLimit, JSONNode.maximumCount))
        parser.nodes.reserveCapacity(bytes.count / 8 + 4)
        parser.skipWhitespace()
        try parser.value()
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw FastDeferral(reason: .notStrictJSON) }
        return parser.nodes
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, nodeLimit: Int) {
        self.bytes = bytes
        self.nodeLimit = nodeLimit
    }

    private var notJSON: FastDeferral { FastDeferral(reason: .notStrictJSON) }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func value() throws(FastDeferral) {
        guard position < bytes.count else { throw notJSON }
        // Every value comes through here and an object's key adds one node before its value, so
        // no node's `next` passes the limit before this stops the parse.
        guard nodes.count < nodeLimit else { throw FastDeferral(reason: .tooLarge) }
        switch bytes[position] {
        case UInt8(ascii: "{"): try object()
        case UInt8(ascii: "["): try array()
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal("true", .true)
        case UInt8(ascii: "f"): try literal("false", .false)
        case UInt8(ascii: "n"): try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw notJSON
        }
    }

    private mutating func literal(_ word: StaticString, _ kind: JSONNode.Kind) throws(FastDeferral) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw notJSON }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        for offset in 0..<count where bytes[position + offset] != expected[offset] { throw notJSON }
        nodes.append(JSONNode(kind: kind, flags: 0, start: Int32(position), length: 0, next: Int32(nodes.count + 1)))
        position += count
    }

    private mutating func number() throws(FastDeferral) {
        let start = position
        var flags = JSONNode.numberIsInteger
        if bytes[position] == UInt8(ascii: "-") {
            flags |= JSONNode.numberIsNegative
            position += 1
        }
        guard position < bytes.count else { throw notJSON }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            guard digits() > 0 else { throw notJSON }
        }
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            flags &= ~JSONNode.numberIsInteger
            guard digits() > 0 else { throw notJSON }
        }
        if position < bytes.count && (bytes[position] | 0x20) == UInt8(ascii: "e") {
            position += 1
            flags &= ~JSONNode.numberIsInteger
            flags |= JSONNode.numberHasExponent
            if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-"))
            {
                position += 1
            }
            guard digits() > 0 else { throw notJSON }
        }
        nodes.append(
            JSONNode(
                kind: .number, flags: flags, start: Int32(start), length: Int32(position - start),
                next: Int32(nodes.count + 1)))
    }

    /// Skips decimal digits and returns how many there were.
    @inline(__always)
    private mutating func digits() -> Int {
        let start = position
        while position < bytes.count && bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
        return position - start
    }

    private mutating func string() throws(FastDeferral) {
        position += 1
        let start = position
        var escaped = false
        var ascii = true
        skipPlainWords()
        while true {
            guard position < bytes.count else { throw notJSON }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                nodes.append(
                    JSONNode(
                        kind: .string,
                        flags: (escaped ? JSONNode.stringHasEscapes : 0) | (ascii ? JSONNode.stringIsASCII : 0),
                        start: Int32(start), length: Int32(position - start), next: Int32(nodes.count + 1)))
                position += 1
                return
            case UInt8(ascii: "\\"):
                escaped = true
                try escape()
                skipPlainWords()
            case 0..<0x20:
                throw notJSON
            case 0x80...:
                ascii = false
                // A run of multi-byte characters (Japanese, Greek, emoji) is checked character by
                // character, without a turn through the word skipper between two of them.
                repeat {
                    try utf8Sequence()
                } while position < bytes.count && bytes[position] >= 0x80
                skipPlainWords()
            default:
                position += 1
            }
        }
    }

    /// Skips eight bytes at a time while none of them is a quote, a backslash, a control
    /// character or a non-ASCII byte; the loop in ``string()`` reads the rest one by one, and
    /// comes back here after each escape or multi-byte character.
    @inline(__always)
    private mutating func skipPlainWords() {
        guard let base = bytes.baseAddress else { return }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        while position + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
            let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
            let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
            // A byte's high bit ends up set when the byte is zero (in `quotes` or
            // `backslashes`), below 0x20, or itself above 0x7F. A borrow can only carry from a
            // byte that is one of those, so a word without one has no bit set.
            let special =
                ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
                | (word &- ones &* 0x20) | word
            guard special & highBits == 0 else { return }
            position += 8
        }
    }

    /// Checks one escape sequence; `position` is at the backslash.
    private mutating func escape() throws(FastDeferral) {
        position += 1
        guard position < bytes.count else { throw notJSON }
        switch bytes[position] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 1
        case UInt8(ascii: "u"):
            position += 1
            let unit = try hexUnit()
            if unit >= 0xDC00 && unit <= 0xDFFF { throw FastDeferral(reason: .loneSurrogate) }
            guard unit >= 0xD800 && unit <= 0xDBFF else { return }
            // A high surrogate must be followed by an escaped low one.
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
            else { throw FastDeferral(reason: .loneSurrogate) }
            position += 2
            let low = try hexUnit()
            guard low >= 0xDC00 && low <= 0xDFFF else { throw FastDeferral(reason: .loneSurrogate) }
        default:
            throw notJSON
        }
    }

    /// Reads four hexadecimal digits.
    private mutating func hexUnit() throws(FastDeferral) -> UInt16 {
        guard position + 4 <= bytes.count else { throw notJSON }
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexValue(bytes[position]) else { throw notJSON }
            unit = unit << 4 | UInt16(digit)
            position += 1
        }
        return unit
    }

    /// The value of one hexadecimal digit.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Checks one multi-byte UTF-8 sequence: no overlong forms, no surrogates, nothing past U+10FFFF.
    ///
    /// The two-byte sequences and the three-byte ones outside the lead bytes with narrower
    /// ranges (`E0`, `ED`), which hold most non-ASCII text (accented Latin, Greek, Cyrillic,
    /// Arabic, Hebrew; Japanese, Chinese, Korean), are checked here; the rest by
    /// ``UTF8Sequence/check(_:at:)``.
    @inline(__always)
    private mutating func utf8Sequence() throws(FastDeferral) {
        let lead = bytes[position]
        if lead >= 0xC2, lead <= 0xDF, position + 1 < bytes.count {
            guard bytes[position + 1] & 0xC0 == 0x80 else { throw notJSON }
            position += 2
            return
        }
        if lead >= 0xE1, lead <= 0xEF, lead != 0xED, position + 2 < bytes.count {
            guard bytes[position + 1] & 0xC0 == 0x80, bytes[position + 2] & 0xC0 == 0x80 else { throw notJSON }
            position += 3
            return
        }
        guard case .valid(let length) = UTF8Sequence.check(bytes, at: position) else { throw notJSON }
        position += length
    }

    private mutating func array() throws(FastDeferral) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw notJSON }
        let index = nodes.count
        nodes.append(JSONNode(kind: .array, flags: 0, start: Int32(position), length: 0, next: 0))
        position += 1
        skipWhitespace()
        var count: Int32 = 0
        if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
            position += 1
        } else {
            while true {
                try value()
                count += 1
                skipWhitespace()
                guard position < bytes.count else { throw notJSON }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                } else if bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    break
                } else {
                    throw notJSON
                }
            }
        }
        nodes[index].length = count
        nodes[index].next = Int32(nodes.count)
        depth -= 1
    }

    private mutating func object() throws(FastDeferral) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw notJSON }
        let index = nodes.count
        nodes.append(JSONNode(kind: .object, flags: 0, start: Int32(position), length: 0, next: 0))
        position += 1
        skipWhitespace()
        var count: Int32 = 0
        if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
            position += 1
        } else {
            while true {
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw notJSON }
                try string()
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw notJSON }
                position += 1
                skipWhitespace()
                try value()
                count += 1
                skipWhitespace()
                guard position < bytes.count else { throw notJSON }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                } else if bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    break
                } else {
                    throw notJSON
                }
            }
        }
        if count > 1 { try checkDistinctKeys(of: index, count: Int(count)) }
        nodes[index].length = count
        nodes[index].next = Int32(nodes.count)
        depth -= 1
    }

    /// Throws when two keys of the object at `object`, which has `count` members, are equal as
    /// Swift strings, which is how Foundation's decoder tells keys apart.
    private func checkDistinctKeys(of object: Int, count: Int) throws(FastDeferral) {
        // A member's key node is followed by its value's nodes; the value's `next` is the next key.
        func nextKey(_ key: Int) -> Int { Int(nodes[key + 1].next) }
        var allPlain = true
        var key = object + 1
        for _ in 0..<count {
            allPlain = allPlain && nodes[key].has(JSONNode.stringIsASCII) && !nodes[key].has(JSONNode.stringHasEscapes)
            key = nextKey(key)
        }
        if allPlain && count <= Self.pairwiseKeyLimit {
            // ASCII text is equal as a string exactly when its bytes are.
            var first = object + 1
            for i in 0..<count {
                let a = nodes[first]
                var second = nextKey(first)
                for _ in (i + 1)..<count {
                    let b = nodes[second]
                    if a.length == b.length
                        && JSONText.equalBytes(bytes, Int(a.start), bytes, Int(b.start), Int(a.length))
                    {
                        throw FastDeferral(reason: .duplicateKey)
                    }
                    second = nextKey(second)
                }
                first = nextKey(first)
            }
            return
        }
        if allPlain {
            try checkDistinctPlainKeys(of: object, count: count)
            return
        }
        var seen = Set<String>(minimumCapacity: count)
        key = object + 1
        for _ in 0..<count {
            guard seen.insert(JSONText.string(of: nodes[key], in: bytes)).inserted else {
                throw FastDeferral(reason: .duplicateKey)
            }
            key = nextKey(key)
        }
    }

    /// The check for an object of many keys, all ASCII without escapes, so equal exactly when
    /// their bytes are: an open-addressing table of key nodes hashed by their bytes (FNV-1a),
    /// with no `String` made and no `Set` grown (on a Twitter timeline, a `Set<String>` of the
    /// keys was a sixth of the whole decode).
    private func checkDistinctPlainKeys(of object: Int, count: Int) throws(FastDeferral) {
        var capacity = 64
        while capacity < count * 2 { capacity *= 2 }
        let mask = capacity - 1
        try withUnsafeTemporaryAllocation(of: Int32.self, capacity: capacity) { (slots) throws(FastDeferral) in
            guard let table = slots.baseAddress else { return }
            table.initialize(repeating: -1, count: capacity)
            var key = object + 1
            for _ in 0..<count {
                let node = nodes[key]
                let start = Int(node.start)
                let length = Int(node.length)
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                for offset in start..<(start + length) {
                    hash = (hash ^ UInt64(bytes[offset])) &* 0x100_0000_01b3
                }
                var slot = Int(truncatingIfNeeded: hash) & mask
                while table[slot] >= 0 {
                    let other = nodes[Int(table[slot])]
                    if other.length == node.length
                        && JSONText.equalBytes(bytes, Int(other.start), bytes, start, length)
                    {
                        throw FastDeferral(reason: .duplicateKey)
                    }
                    slot = (slot + 1) & mask
                }
                table[slot] = Int32(key)
                key = Int(nodes[key + 1].next)
            }
        }
    }
}
