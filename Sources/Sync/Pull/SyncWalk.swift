/// A walk over a whole collection, resumable after a kill: which records it has seen is kept
/// in ``SyncSeenRecord`` rows of its generation.
struct SyncWalk: Codable, Sendable, Hashable {
    enum Kind: String, Codable, Sendable {
        /// A snapshot collection's walk (every run).
        case snapshot
        /// A full resync after the cursor was rejected.
        case resync
        /// An identity reconciliation.
        case reconcile
    }
    var kind: Kind
    var generation: Int64
    /// The position of the walk's next request.
    var position: SyncCursor?
    /// For a reconciliation, the last identity read.
    var lastIdentity: String?
}
