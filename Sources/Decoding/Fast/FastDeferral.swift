/// Why ``FastDecoder`` gave a decoding up to the path that wraps `JSONDecoder`.
///
/// The fast path returns a value only when it is sure the other path returns the same; in
/// every other case it stops with one of these reasons and ``PathDecoder`` decodes the data
/// again from the start through `JSONDecoder`, so every error stays what that path throws.
struct FastDeferral: Error, Sendable, Equatable, CustomStringConvertible {
    /// The reasons, one per kind of input or request the fast path leaves to `JSONDecoder`.
    enum Reason: String, Sendable, Equatable {
        /// The text is not strict RFC 8259 JSON (Foundation's parser accepts a few such texts),
        /// starts with a byte order mark, or nests deeper than the fast path reads.
        case notStrictJSON
        /// An object has the same key twice.
        case duplicateKey
        /// A string holds an escaped lone surrogate (`"\uD800"`).
        case loneSurrogate
        /// A number the fast path cannot convert exactly as Foundation does: an exponent, a
        /// fraction or an exponent read as an integer, more than 18 digits, a negative zero,
        /// or a value out of the type's range.
        case number
        /// A type Foundation decodes in its own way (`Data`, `Decimal`, `Date` with a
        /// strategy other than `.deferredToDate`) or a request the fast path does not serve
        /// (`superDecoder`, a nested container opened with a path key).
        case unsupported
        /// A value does not fit what was asked (missing, null, another type): the error is
        /// left for the other path to describe.
        case decodingError
        /// The decoder's settings include one the fast path does not implement (a key
        /// decoding strategy other than `.useDefaultKeys`).
        case settings
    }

    /// Why the fast path stopped.
    let reason: Reason

    var description: String { "the fast path defers: \(reason.rawValue)" }
}
