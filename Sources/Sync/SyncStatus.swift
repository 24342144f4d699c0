public import Foundation
public import Observation

/// A mirrored collection's sync state, as a UI shows it.
public struct SyncStatus: Sendable, Hashable {
    /// The collection's name.
    public var collection: String
    /// Whether a sync run is in progress.
    public var isSyncing = false
    /// When a pull last finished.
    public var lastPull: Date?
    /// When a push last emptied the outbox.
    public var lastPush: Date?
    /// Local writes waiting to be sent or being sent.
    public var pendingCount = 0
    /// Local writes the server refused (``PendingWrite/State-swift.enum/rejected``).
    public var rejectedCount = 0
    /// Local writes parked on a conflict (``PendingWrite/State-swift.enum/conflicted``).
    public var conflictedCount = 0
    /// The last run's failure, cleared by the next run that succeeds.
    public var error: SyncError?
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

/// A mirror's ``SyncStatus`` as an `@Observable` value, for SwiftUI and other observers of the
/// main actor: `monitor.status` changes as the mirror's does.
///
/// ```swift
/// @MainActor final class NotesScreen {
///     let monitor: SyncMonitor
///     init<E>(mirror: SyncedCollection<E>) { monitor = SyncMonitor(mirror) }
///     var banner: String { monitor.status.pendingCount == 0 ? "Synced" : "\(monitor.status.pendingCount) waiting" }
/// }
/// ```
@MainActor
@Observable
public final class SyncMonitor {
    /// The mirror's status, updated on the main actor.
    public private(set) var status: SyncStatus
    @ObservationIgnored private var following: Task<Void, Never>?

    /// Follows a mirror's status until the monitor is released.
    ///
    /// - Parameter mirror: the mirror to follow.
    public init<Entity>(_ mirror: SyncedCollection<Entity>) {
        status = SyncStatus(collection: mirror.remote.name)
        let updates = mirror.statusUpdates
        following = Task { [weak self] in
            for await status in updates {
                guard let self else { return }
                self.status = status
            }
        }
    }

    deinit {
        following?.cancel()
    }
}
