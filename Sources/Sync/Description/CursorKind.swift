/// How a collection pages its changes: one cursor abstraction for the ways APIs do it.
public enum CursorKind: Sendable, Hashable {
    /// A keyset of the server's version (an `updated` timestamp or a sequence number) and the
    /// identity: `updated > T || (updated = T && id > I)` (PocketBase, most REST APIs). Each run
    /// starts `overlap` before the last applied record and re-reads what it finds there
    /// idempotently, because commits can land out of timestamp order. Needs
    /// ``ChangeFeed/version``.
    case keyset(overlap: KeysetOverlap)
    /// An opaque token or link the server hands back: Microsoft Graph's `@odata.nextLink` and
    /// `@odata.deltaLink`, Google's `pageToken` and `nextSyncToken`, CouchDB's `since` sequence.
    /// The page reader returns the next token in ``ChangePage/cursor``.
    case token
    /// No change feed: the whole collection, walked page by page (``SyncCursor/page(_:)``) on
    /// every run; rows the walk no longer finds are pruned at its end.
    case snapshot
}
