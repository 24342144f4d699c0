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

    /// The value's kind.
    let kind: Kind
    /// For a string: ``stringHasEscapes`` and ``stringIsASCII``; for a number:
    /// ``numberIsInteger``, ``numberIsNegative`` and ``numberHasExponent``.
    let flags: UInt8
    /// The byte offset of the value's text: a string's first byte after the quote, a number's
    /// first byte.
    let start: Int32
    /// A string's or a number's length in bytes (quotes excluded); an array's element count or
    /// an object's member count.
    var length: Int32
    /// The index of the node after this value and everything inside it.
    var next: Int32

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
