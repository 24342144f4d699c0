/// How far back a keyset run starts re-reading before the last applied record.
public enum KeysetOverlap: Sendable, Hashable {
    /// No overlap: for versions the server hands out in commit order.
    case none
    /// A time window, for text timestamps (`2026-11-24 09:59:14.909Z`, ISO 8601).
    case time(Duration)
    /// A count of version units, for numeric versions.
    case units(Int64)
}
