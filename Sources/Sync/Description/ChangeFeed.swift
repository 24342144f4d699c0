public import FetchKit
import Foundation
public import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a collection's changes are listed and read: the request for the changes after a cursor,
/// the reader of a page of them, and the server's version of a record.
///
/// Three ways an API pages its changes, one constructor each:
///
/// - ``keyset(overlap:version:request:page:)``: `updated > T || (updated = T && id > I)`, the
///   list of most REST APIs (PocketBase's among them).
/// - ``token(version:request:page:)``: a token or link the server hands back (Microsoft Graph's
///   `@odata.deltaLink`, Google's `nextSyncToken`, CouchDB's `since`).
/// - ``snapshot(version:request:page:)``: no change feed; the whole collection, walked page by
///   page on every run.
///
/// Two presets describe a REST endpoint by its URL: ``rest(at:version:pageSize:listing:)``, a
/// keyset-paged list, and ``tokens(at:version:pageSize:listing:)``, a feed paged by tokens.
public struct ChangeFeed<Entity: StoredEntity>: Sendable {
    /// How the feed pages its changes.
    public let cursor: CursorKind
    /// The server's version of a record (its `updated` timestamp, revision or sequence), or
    /// `nil` when the API has none.
    ///
    /// With a version a pull never moves a row back to an older one, a keyset cursor advances
    /// by it, and a conflict is a remote version that differs from the write's base. Without one
    /// conflicts are found by comparing whole records.
    public var version: (@Sendable (Entity) -> RecordVersion?)?
    /// The request that lists changes from `cursor` (`nil`: from the start, a full listing).
    ///
    /// For a keyset feed the cursor is the last applied record's version and id (moved back by
    /// the overlap at the start of a run); for a token feed the token the previous page gave; for
    /// a snapshot the page number to read.
    public var request: @Sendable (SyncCursor?) -> any Endpoint
    /// Reads one page of changes from a response, as FetchKit's extractions read any response:
    /// the body decoded with its path keys (`.decode(NotesPage.self)`), then made a page
    /// (`.map { page in ChangePage(…) }`), or `.custom { data, response in … }` for anything
    /// else. An error it throws ends the run with ``SyncError/Code-swift.struct/undecodablePage``
    /// naming the page and the property.
    public var page: Extraction<ChangePage<Entity>>
    /// The request that lists the records with these identities, answered as a page of changes
    /// (read by ``page``), or `nil` (the default) when the API has none (`?ids=a,b`, PocketBase's
    /// `filter=(id='a' || id='b')`).
    ///
    /// A ``SyncGroup`` looks up with it the parents a child's page refers to that the parent
    /// collection's pull did not bring (a parent outside that collection's scopes), and stores
    /// them in the child's page transaction: the parents a scoped row needs come with it.
    public var lookup: (@Sendable (_ identities: [Entity.ID]) -> any Endpoint)?
    /// Whether an error from the changes request means the cursor is no longer valid, so that
    /// the mirror starts one full resync. By default a `410 Gone`, or a `400`/`409` whose body
    /// mentions `syncStateNotFound`, `must-refetch` or an expired token
    /// (``cursorRejectedByDefault(_:)``).
    public var isCursorRejected: @Sendable (FetchError) -> Bool = Self.cursorRejectedByDefault

    init(
        cursor: CursorKind, version: (@Sendable (Entity) -> RecordVersion?)?,
        request: @escaping @Sendable (SyncCursor?) -> any Endpoint, page: Extraction<ChangePage<Entity>>
    ) {
        self.cursor = cursor
        self.version = version
        self.request = request
        self.page = page
    }

    /// A keyset-paged feed: the list sorted by the server's version and the identity, read from
    /// just after the last applied record.
    ///
    /// Each run starts `overlap` before the last applied record and re-reads what it finds there,
    /// idempotently, because a server can stamp a record before it commits it. The page reader
    /// gives the cursor of the page's last item, record or tombstone
    /// (``ChangePage/cursor``), or leaves it `nil` for the last record's version and identity.
    ///
    /// - Parameters:
    ///   - overlap: how far back a run starts re-reading; five seconds by default, for text
    ///     timestamps.
    ///   - version: the server's version of a record (`nil` on a record the server has not
    ///     answered yet).
    ///   - request: the listing after a cursor (``SyncCursor/keyset(version:id:)``), or from the
    ///     start for `nil`.
    ///   - page: reads a page of changes.
    /// - Returns: the feed.
    public static func keyset(
        overlap: KeysetOverlap = .time(.seconds(5)), version: @escaping @Sendable (Entity) -> RecordVersion?,
        request: @escaping @Sendable (SyncCursor?) -> any Endpoint, page: Extraction<ChangePage<Entity>>
    ) -> ChangeFeed {
        ChangeFeed(cursor: .keyset(overlap: overlap), version: version, request: request, page: page)
    }

    /// A feed paged by a token the server hands back: each page's reader returns the next token
    /// (``ChangePage/cursor``, ``SyncCursor/token(_:)``), and a run goes on from the last one.
    ///
    /// - Parameters:
    ///   - version: the server's version of a record, or `nil` (the default) when the API has
    ///     none: conflicts are then found by comparing records.
    ///   - request: the listing from a token (``SyncCursor/token(_:)``), or from the start for
    ///     `nil`.
    ///   - page: reads a page of changes and the next token.
    /// - Returns: the feed.
    public static func token(
        version: (@Sendable (Entity) -> RecordVersion?)? = nil,
        request: @escaping @Sendable (SyncCursor?) -> any Endpoint,
        page: Extraction<ChangePage<Entity>>
    ) -> ChangeFeed {
        ChangeFeed(cursor: .token, version: version, request: request, page: page)
    }

    /// No change feed: the whole collection, walked page by page (``SyncCursor/page(_:)``) on
    /// every run; rows the walk no longer finds are pruned at its end (except the rows
    /// ``RemoteCollection/retaining`` keeps).
    ///
    /// - Parameters:
    ///   - version: the server's version of a record, or `nil` (the default).
    ///   - request: the page to read (``SyncCursor/page(_:)``; `nil` for the first).
    ///   - page: reads a page and whether another follows.
    /// - Returns: the feed.
    public static func snapshot(
        version: (@Sendable (Entity) -> RecordVersion?)? = nil,
        request: @escaping @Sendable (SyncCursor?) -> any Endpoint,
        page: Extraction<ChangePage<Entity>>
    ) -> ChangeFeed {
        ChangeFeed(cursor: .snapshot, version: version, request: request, page: page)
    }

    /// The default test for an invalid cursor: `410 Gone` (Google's `syncToken`), or a
    /// `400`/`409` whose body names an expired or unknown sync state (Microsoft Graph's
    /// `syncStateNotFound`, Electric's `must-refetch`).
    @Sendable public static func cursorRejectedByDefault(_ error: FetchError) -> Bool {
        guard let status = error.statusCode else { return false }
        if status == 410 { return true }
        guard status == 400 || status == 409, let body = error.bodyExcerpt?.lowercased() else { return false }
        return ["syncstatenotfound", "must-refetch", "expired"].contains { body.contains($0) }
    }
}
