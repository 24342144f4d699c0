/// The server's version of a record: a number or a text (a timestamp in a sortable format, a
/// revision). Numbers order numerically, texts by their UTF-8 bytes.
public enum RecordVersion: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// A numeric version (a sequence, a millisecond timestamp).
    case number(Int64)
    /// A text version, such as `"2026-11-24 09:59:14.909Z"`.
    case text(String)

    /// A numeric version.
    ///
    /// - Parameter number: the version.
    public init(_ number: Int64) { self = .number(number) }
    /// A text version.
    ///
    /// - Parameter text: the version, exactly as the server wrote it.
    public init(_ text: String) { self = .text(text) }

    /// The version as the server wrote it, for a filter.
    public var description: String {
        switch self {
        case .number(let number): String(number)
        case .text(let text): text
        }
    }

    /// Orders numbers before texts, numbers numerically and texts by their bytes.
    public static func < (lhs: RecordVersion, rhs: RecordVersion) -> Bool {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): a < b
        case (.text(let a), .text(let b)): Array(a.utf8).lexicographicallyPrecedes(b.utf8)
        case (.number, .text): true
        case (.text, .number): false
        }
    }
}
