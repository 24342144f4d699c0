public import FetchKit
import Foundation
public import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Lists every identity of a collection, keyset paged, to find records the server deleted
/// without a tombstone (hard deletes).
///
/// It works both ways: rows the listing does not name are deleted (unless a write waits for
/// them), and a listed record this device holds no row of (a pull that missed it: a server that
/// answered an empty page to an expired token, a clock that jumped) starts a resync at once, so a
/// device that was shown too little recovers by itself. List the records the pull keeps (not the
/// soft-deleted ones a page reads as tombstones).
public struct IdentityListing<Entity: StoredEntity>: Sendable {
    /// The request for the identities after `identity` (`nil`: from the first), sorted by identity.
    public var request: @Sendable (_ after: String?) -> any Endpoint
    /// Reads a page of identities and whether another page follows, as FetchKit's extractions
    /// read any response: `.decode(IDPage.self).map { ($0.items.map(\.id), $0.hasMore) }`.
    public var page: Extraction<(identities: [Entity.ID], hasMore: Bool)>
    /// How often a pull reconciles; a run starts one when this long has passed since the last.
    public var interval: Duration

    /// A listing.
    ///
    /// - Parameters:
    ///   - interval: how often to reconcile.
    ///   - request: the request for the identities after one (sorted by identity).
    ///   - page: reads a page of identities and whether another follows.
    public init(
        every interval: Duration, request: @escaping @Sendable (_ after: String?) -> any Endpoint,
        page: Extraction<(identities: [Entity.ID], hasMore: Bool)>
    ) {
        self.interval = interval
        self.request = request
        self.page = page
    }
}
