/// The two words of a string's representation: its contents for a small string, its count
/// and storage for a large one (a literal's storage never moves).
///
/// Comparing identities costs two integer comparisons instead of hashing or comparing
/// characters. Equal identities do not prove equal strings (a string's storage can be freed
/// and reused), so every user confirms a match by comparing the strings, and keeps the
/// string it remembers alive.
struct StringIdentity: Hashable, Sendable {
    let first: UInt64
    let second: UInt64

    @inline(__always)
    init(_ string: String) {
        var copy = string
        (first, second) = withUnsafeBytes(of: &copy) { raw in
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw.prefix(16)))
            }
            return words
        }
    }
}
