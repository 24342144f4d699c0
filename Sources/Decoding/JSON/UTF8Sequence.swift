/// The check of one multi-byte UTF-8 sequence that both JSON readers make (``JSONValidator``
/// and the fast path's `JSONParser`): no overlong forms, no surrogates, nothing past U+10FFFF.
enum UTF8Sequence {
    /// What the bytes at a position hold.
    enum Check {
        /// A well-formed sequence of `length` bytes.
        case valid(length: Int)
        /// The first byte starts no multi-byte sequence.
        case invalidLead
        /// The text ends inside the sequence.
        case truncated
        /// A byte after the first is out of its allowed range.
        case invalidContinuation
    }

    /// Checks the sequence whose first byte is at `position` in `bytes` (indexed from 0).
    @inline(__always)
    static func check<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at position: Int) -> Check
    where Bytes.Index == Int {
        let lead = bytes[position]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, lower) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, upper) = (3, 0x9F)
        case 0xF0: (length, lower) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, upper) = (4, 0x8F)
        default: return .invalidLead
        }
        guard position + length <= bytes.count else { return .truncated }
        for offset in 1..<length {
            let byte = bytes[position + offset]
            let (low, high) = offset == 1 ? (lower, upper) : (UInt8(0x80), UInt8(0xBF))
            guard byte >= low && byte <= high else { return .invalidContinuation }
        }
        return .valid(length: length)
    }
}
