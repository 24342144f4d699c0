import Locking

/// A set of fetches that can be cancelled together, and that keeps working afterwards.
///
/// Pass a group to any `fetch` call; ``cancelAll()`` cancels every fetch of the group
/// that is still running. Fetches added after that run normally, which is what a new
/// search needs when it replaces the previous one (unlike
/// `URLSession.invalidateAndCancel()`, which leaves the session unusable):
///
/// ```swift
/// let searches = CancellationGroup()
///
/// func search(_ text: String) {
///     searches.cancelAll()
///     client.fetch(GoogleBooks.volumes(text), extracting: .decode(Volumes.self), group: searches) { result in … }
/// }
/// ```
public final class CancellationGroup: Sendable {
    private let members = Locked<[Int: any CancellableExecution]>([:])

    /// Creates an empty group.
    public init() {}

    /// The number of fetches of this group that are still running.
    public var count: Int {
        members.withLock { $0.count }
    }

    /// Cancels every fetch of the group that is still running; later fetches are unaffected.
    public func cancelAll() {
        let running = members.withLock { members -> [any CancellableExecution] in
            defer { members.removeAll() }
            return Array(members.values)
        }
        // Mark every fetch cancelled before any of them frees its connection slot, so that
        // a queued fetch of this group is never handed to the transport on the way out.
        let remainingWork = running.compactMap { $0.markCancelled() }
        for work in remainingWork { work() }
    }

    /// Lets every running fetch of the group finish its attempt in progress, and starts no
    /// further attempt for any of them (see ``FetchClient/stopRetrying()``).
    func stopRetrying() {
        let running = members.withLock { Array($0.values) }
        for execution in running { execution.stopRetrying() }
    }

    /// Adds a fetch (called when the fetch starts; returns at once if it already finished).
    func add(_ execution: any CancellableExecution) {
        members.withLock { $0[execution.id] = execution }
        if execution.isFinished { remove(execution) }
    }

    /// Removes a finished fetch.
    func remove(_ execution: any CancellableExecution) {
        members.withLock { _ = $0.removeValue(forKey: execution.id) }
    }
}
