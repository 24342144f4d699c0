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
    /// The next outbox order number.
    var nextSequence: Int64
    /// Walk generations handed out so far.
    var generations: Int64
    /// The fingerprint of the records an identity listing named that the last resync it began
    /// did not bring (records the pull never keeps): a resync is not begun again for them.
    var unkept: String?

    static let entityName = "SyncCheckpoint"
}
