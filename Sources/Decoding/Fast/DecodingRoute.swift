/// Which way ``PathDecoder`` decodes: the fast path first (the default), or `JSONDecoder` only.
///
/// Tests compare the two ways; nothing else sets it.
enum DecodingRoute: Sendable, Equatable {
    /// ``FastDecoder`` first; `JSONDecoder` with the path-aware wrapper when it defers.
    case automatic
    /// `JSONDecoder` with the path-aware wrapper only.
    case foundationOnly
}
