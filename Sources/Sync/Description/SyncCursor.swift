/// Where a pull goes on from: the position after the last applied page.
public enum SyncCursor: Sendable, Hashable, Codable {
    /// After the record with this version and identity (``CursorKind/keyset(overlap:)``).
    case keyset(version: RecordVersion, id: String)
    /// A token or link the server gave (``CursorKind/token``).
    case token(String)
    /// The next page of a snapshot walk, from 1 (``CursorKind/snapshot``).
    case page(Int)
}
