/// What one sync run did.
public struct SyncReport: Sendable, Hashable {
    /// Pages of changes applied.
    public var pagesApplied = 0
    /// Records created or updated locally by the pull: new ones, and ones at a newer version than
    /// the stored row (a record re-read at the version already stored is not counted).
    public var recordsApplied = 0
    /// Records deleted locally (tombstones, reconciliation, snapshot pruning).
    public var recordsDeleted = 0
    /// Local writes the server acknowledged.
    public var writesSent = 0
    /// Local writes the server refused for good in this run (now ``PendingWrite/State-swift.enum/rejected``).
    public var writesRejected = 0
    /// Conflicts met, whatever their resolution.
    public var conflicts = 0
    /// Whether the run did a full resync because the server rejected the cursor.
    public var resynced = false
    /// Whether the run reconciled identities.
    public var reconciled = false

    /// An empty report.
    public init() {}
}
