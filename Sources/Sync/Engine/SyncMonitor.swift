public import Observation

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
