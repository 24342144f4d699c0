import Foundation
import Persistence

/// A collection's pull position and bookkeeping: one row per mirrored collection.
struct SyncCheckpoint: StoredEntity {
    /// The collection's name.
    var id: String
    /// Where the next incremental pull goes on from.
    var cursor: SyncCursor?
    /// A walk over the whole collection in progress (a snapshot, a resync, a reconciliation).
    var walk: SyncWalk?
    /// When a pull last finished.
    var lastPull: Date?
    /// When a push last emptied the outbox.
    var lastPush: Date?
    /// When the identities were last reconciled.
    var lastReconcile: Date?
    /// Not read or advanced any more: the outbox's order comes from the outbox itself. Stores
    /// written before keep the column `NOT NULL` without a default, and a store refuses to open
    /// while a table keeps such a column its entity no longer declares, so it stays declared.
    var nextSequence: Int64 = 1
    /// Walk generations handed out so far.
    var generations: Int64
    /// The fingerprint of the records an identity listing named that the last resync it began
    /// did not bring (records the pull never keeps): a resync is not begun again for them.
    var unkept: String?
    /// On a scope's checkpoint: the collection it belongs to (`nil` on the collection's own).
    var collection: String?
    /// On a scope's checkpoint: the scope.
    var scope: SyncScope?
    /// A scope the collection left (on the scope's checkpoint), or the whole collection left for
    /// scopes (on the collection's own): its rows are pruned once the scopes have been pulled.
    var retired: Bool?
    /// On the collection's own checkpoint: the collection is pulled by scopes, not whole.
    var scoped: Bool?

    static let entityName = "SyncCheckpoint"

    /// SQLite's page cache of the store's writing connection during the pages of a collection's
    /// first pull (until ``lastPull``): such a pull writes pages it does not read again, and with
    /// the store's cache (64 MiB by default) a first pull of a large collection would hold that much.
    static let firstPullPageCache = 8 << 20

    /// Whether a run may go on from `expected` with this stored checkpoint: the same cursor,
    /// walk, generations and scopes (the dates may differ: another process's quiet run).
    func continues(_ expected: SyncCheckpoint) -> Bool {
        cursor == expected.cursor && walk == expected.walk && generations == expected.generations
            && scoped == expected.scoped && retired == expected.retired
    }
    static let collection = Field<SyncCheckpoint, String?>("collection")
}
