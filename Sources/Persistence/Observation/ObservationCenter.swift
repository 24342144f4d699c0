import Foundation

/// Something refreshed after commits that touch its table.
protocol CommitObserver: AnyObject, Sendable {
    var table: String { get }
    func scheduleRefresh()
}

/// The store's registry of observers, told about each commit after it happened.
final class ObservationCenter: @unchecked Sendable {
    // `observers` is guarded by `lock`.
    private let lock = NSLock()
    private var observers: [ObjectIdentifier: any CommitObserver] = [:]

    func add(_ observer: any CommitObserver) {
        lock.withLock { observers[ObjectIdentifier(observer)] = observer }
    }

    func remove(_ observer: any CommitObserver) {
        _ = lock.withLock { observers.removeValue(forKey: ObjectIdentifier(observer)) }
    }

    func removeAll() {
        lock.withLock { observers.removeAll() }
    }

    func didCommit(tables: Set<String>, everything: Bool) {
        guard everything || !tables.isEmpty else { return }
        let interested = lock.withLock {
            observers.values.filter { everything || tables.contains($0.table) }
        }
        for observer in interested { observer.scheduleRefresh() }
    }
}

/// An observed query: re-runs after commits that touch its table and delivers changed results.
final class QueryObserver<E: StoredEntity>: CommitObserver, @unchecked Sendable {
    // Thread safety: `pending` and `cancelled` are guarded by `lock`; `last`, `lastRows` and
    // `delivered` are only touched on the observer context's serial queue (in `refresh`).
    let table: String
    private let query: Query<E>
    private let reader: ObjectContext
    private let deliveryQueue: DispatchQueue
    private let handler: @Sendable (QueryChange<E>) -> Void
    private let onError: (@Sendable (PersistenceError) -> Void)?
    private let lock = NSLock()
    private var pending = false
    private var cancelled = false
    private var lastIDs: [E.ID] = []
    private var lastRows: [[DatabaseValue]] = []
    private var delivered = false

    init(
        query: Query<E>, reader: ObjectContext, queue: DispatchQueue,
        onError: (@Sendable (PersistenceError) -> Void)?, handler: @escaping @Sendable (QueryChange<E>) -> Void
    ) {
        table = E.entityName
        self.query = query
        self.reader = reader
        deliveryQueue = queue
        self.handler = handler
        self.onError = onError
    }

    var isCancelled: Bool { lock.withLock { cancelled } }

    func cancel() {
        lock.withLock { cancelled = true }
        reader.core.center.remove(self)
    }

    func scheduleRefresh() {
        let schedule = lock.withLock {
            guard !pending, !cancelled else { return false }
            pending = true
            return true
        }
        guard schedule else { return }
        reader.queue.async { self.refresh() }
    }

    /// Runs on the reader's queue. Commits that land while a refresh is queued are folded into it.
    private func refresh() {
        lock.withLock { pending = false }
        guard !isCancelled else { return }
        let fetched: ([E], [[DatabaseValue]])
        do {
            fetched = try reader.performRead { tx in try tx.fetchWithRows(query) }
        } catch {
            let failure =
                error as? PersistenceError ?? PersistenceError(.sqlite, "Refreshing an observed query failed: \(error)")
            if let onError {
                deliveryQueue.async { if !self.isCancelled { onError(failure) } }
            }
            return
        }
        let ids = fetched.0.map(\.id)
        let changes = ChangeSet.diff(old: lastIDs, oldRows: lastRows, new: ids, newRows: fetched.1)
        let initial = !delivered
        guard initial || !changes.isEmpty else { return }
        delivered = true
        lastIDs = ids
        lastRows = fetched.1
        let change = QueryChange(results: fetched.0, changes: changes, isInitial: initial)
        deliveryQueue.async {
            if !self.isCancelled { self.handler(change) }
        }
    }
}

/// Keeps an observation alive; cancel it (or let it go) to stop deliveries.
///
/// After ``cancel()`` returns no new delivery starts; one already running on the observer's
/// queue finishes.
public final class ObservationToken: Sendable {
    private let cancelAction: @Sendable () -> Void
    private let done = LockedFlag()

    init(_ cancel: @escaping @Sendable () -> Void) { cancelAction = cancel }

    deinit { cancel() }

    /// Stops the observation.
    public func cancel() {
        if !done.testAndSet() { cancelAction() }
    }
}
