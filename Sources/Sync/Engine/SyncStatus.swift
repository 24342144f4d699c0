public import Foundation

/// A mirrored collection's sync state, as a UI shows it.
public struct SyncStatus: Sendable, Hashable {
    /// The collection's name.
    public var collection: String
    /// Whether a sync run is in progress.
    public var isSyncing = false
    /// How many sync runs (its own, or its group's) have ended since the mirror was made (a
    /// started mirror's push that a `sync()` call ran after counts with that call's run): a
    /// follower that sees this grow by more than one knows that runs ended between two updates it
    /// read (a status stream keeps only the newest updates when its reader falls behind).
    public var runsFinished = 0
    /// When a pull last finished. A pull that found nothing new stores its date at most once a
    /// minute; the status shows it at once.
    public var lastPull: Date?
    /// When a push last emptied the outbox.
    public var lastPush: Date?
    /// Local writes waiting to be sent or being sent.
    public var pendingCount = 0
    /// Local writes the server refused (``PendingWrite/State-swift.enum/rejected``).
    public var rejectedCount = 0
    /// Local writes parked on a conflict (``PendingWrite/State-swift.enum/conflicted``).
    public var conflictedCount = 0
    /// How far the run's pull has come, while one runs (`nil` between runs and while a run pushes
    /// before its pull); a group's adds up its collections' (its estimate once each collection's
    /// pull has begun).
    public var progress: SyncProgress?
    /// What the last run that ended did (its own, or its group's, in all the group's
    /// collections), or `nil` before the first run and after a run that failed: a started or
    /// following mirror's runs are reported here.
    public var lastReport: SyncReport?
    /// The last run's failure, cleared by the next run that succeeds.
    public var error: SyncError?
    /// Whether the mirror follows the server's change notifications: from
    /// ``SyncedCollection/start(following:)`` until ``SyncedCollection/stop()``, or until
    /// following ends for good (``followingError``). Between two connections (a break, a wait
    /// before the next attempt) it stays `true`.
    public var isFollowing = false
    /// Why following the server's change notifications ended for good (an address the server
    /// refuses, an answer that is not an event stream), or `nil`. The pushes and
    /// ``SyncedCollection/sync()`` go on; the next ``SyncedCollection/start(following:)``
    /// follows again.
    public var followingError: SyncError?
    /// When the next retry of a write that failed on the way is due (a started mirror retries
    /// then by itself; ``SyncedCollection/sync()`` sends at once).
    public var nextRetry: Date?

    /// A status with nothing known yet.
    ///
    /// - Parameter collection: the collection's name.
    public init(collection: String) {
        self.collection = collection
    }
}
