/// One value read by ``JSONParser``: its kind and where its text lies.
///
/// The nodes of a text are laid out in document order: an array's elements follow it, an
/// object's members follow it as a key node then the value's nodes. ``next`` skips a value and
/// everything inside it.
struct JSONNode: Sendable {
    /// The kind of a JSON value.
    enum Kind: UInt8, Sendable {
        case null, `false`, `true`, number, string, array, object
    }

    /// The byte offset of the value's text: a string's first byte after the quote, a number's
    /// first byte.
    let start: Int32
    /// A string's or a number's length in bytes (quotes excluded); an array's element count or
    /// an object's member count.
    var length: Int32
    /// The kind (3 bits), the flags (3 bits) and ``next`` (26 bits) in one word: a node is 12
    /// bytes, not 16 (a document's node list is the fast path's largest allocation).
    private var packed: UInt32

    /// The most nodes a text may have: ``next`` has 26 bits. A larger text defers
    /// (``FastDeferral/Reason/tooLarge``).
    static let maximumCount = (1 << 26) - 1
    private static let nextMask: UInt32 = (1 << 26) - 1

    /// A node.
    ///
    /// - Parameters:
    ///   - kind: the value's kind.
    ///   - flags: the string's or number's flags (3 bits).
    ///   - start: the byte offset of its text.
    ///   - length: its length in bytes, or its element or member count.
    ///   - next: the index of the node after it (at most ``maximumCount``; the parser checks).
    @inline(__always)
    init(kind: Kind, flags: UInt8, start: Int32, length: Int32, next: Int32) {
        self.start = start
        self.length = length
        packed =
            UInt32(kind.rawValue) << 29 | UInt32(flags & 0x7) << 26 | (UInt32(truncatingIfNeeded: next) & Self.nextMask)
    }

    /// The value's kind.
    @inline(__always)
    var kind: Kind { Kind(rawValue: UInt8(truncatingIfNeeded: packed >> 29)) ?? .null }
    /// For a string: ``stringHasEscapes`` and ``stringIsASCII``; for a number:
    /// ``numberIsInteger``, ``numberIsNegative`` and ``numberHasExponent``.
    @inline(__always)
    var flags: UInt8 { UInt8(truncatingIfNeeded: (packed >> 26) & 0x7) }
    /// The index of the node after this value and everything inside it.
    @inline(__always)
    var next: Int32 {
        get { Int32(truncatingIfNeeded: packed & Self.nextMask) }
        set { packed = (packed & ~Self.nextMask) | (UInt32(truncatingIfNeeded: newValue) & Self.nextMask) }
    }

    /// The string contains backslash escapes.
    static let stringHasEscapes: UInt8 = 1
    /// The string's bytes are all ASCII.
    static let stringIsASCII: UInt8 = 2
    /// The number has neither a fraction nor an exponent.
    static let numberIsInteger: UInt8 = 1
    /// The number starts with `-`.
    static let numberIsNegative: UInt8 = 2
    /// The number has an exponent (`e` or `E`).
    static let numberHasExponent: UInt8 = 4

    /// Whether `flag` is set.
    @inline(__always)
    func has(_ flag: UInt8) -> Bool { flags & flag != 0 }
}
