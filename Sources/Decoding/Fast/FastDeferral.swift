/// Why ``FastDecoder`` gave a decoding up to the path that wraps `JSONDecoder`.
///
/// The fast path returns a value, or throws an error, only when it is sure the other path
/// returns the same value or throws the same error; in every other case it stops with one of
/// these reasons and ``PathDecoder`` decodes the data again from the start through
/// `JSONDecoder`. An error a type catches (`try?`, a lenient helper) is not one of them: a
/// value of the wrong kind, a missing key, a number the type cannot hold (of any shape), a
/// key path that does not resolve all throw on the fast path the error the `JSONDecoder`
/// route throws. Each reason is tested in `FastPathDeferralTests`.
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
        /// A number that the C library's `strtod` and `Double(String)` both refuse, which no JSON
        /// number is: kept as a guard. Every number, for every integer width, `Float` and
        /// `Double`, gives Foundation's value or its error on the fast path (see
        /// ``FoundationNumberRules``); a 64-bit integer whose `Decimal` form overflows (more than
        /// 128 digits after the point before the first significant one, an exponent written
        /// above 254), on which Foundation's decoder stops on a precondition, is refused with the
        /// error of a number that does not fit.
        case number
        /// A type Foundation decodes in its own way (`Data`, `Decimal`, `Date` with a
        /// strategy other than `.deferredToDate`) or a request the fast path does not serve
        /// (`superDecoder`, a nested container opened with a path key).
        case unsupported
        /// A path key of a keyed container meets, on the way, an object where its next step
        /// is an index or a filter (`a.b[0]`, `b` an object): ``PathNavigator`` throws there
        /// `JSONDecoder`'s error for an array asked of an object, or, when an earlier path key
        /// of the same container reached that object and its cache holds it, its own error
        /// naming the step. Which one depends on the keys read before. Every other path that
        /// does not resolve (a missing or null step, an index out of range, a filter matching
        /// nothing, a key on an array, a value of the wrong kind on the way) throws on the fast
        /// path the error ``PathNavigator`` throws.
        case pathError
        /// A value of `Decodable` type at the top of the data, one `JSONDecoder` reads itself
        /// (a `URL`, a number), is refused as corrupt: ``PathDecoder`` decodes it again through
        /// the path-aware wrapper, whose error may differ from the first.
        case refusedAtTheTop
        /// An error nothing catches ends a decoding that listed a keyed container's `allKeys`
        /// (a dictionary, an any-JSON value): `JSONDecoder` visits the keys in its own
        /// dictionary's order, not the document's, so which value's error comes first is the
        /// other path's to say. An error a type catches does not defer.
        case keyOrder
        /// The decoder's settings include one the fast path does not implement: a key decoding
        /// strategy other than `.useDefaultKeys`, or a floating-point value read from a string
        /// under `nonConformingFloatDecodingStrategy` `.convertFromString`.
        case settings
        /// The text is larger than the fast path indexes: 2 GiB or more, or more than
        /// ``JSONNode/maximumCount`` (67,108,863) values and keys.
        case tooLarge
    }

    /// Why the fast path stopped.
    let reason: Reason

    var description: String { "the fast path defers: \(reason.rawValue)" }
}
