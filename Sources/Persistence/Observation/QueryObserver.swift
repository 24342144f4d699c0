import Foundation

/// An observed query: after commits that touch its table it re-reads what changed and delivers
/// the new results with a ``ChangeSet``.
///
/// **Incremental path.** A commit reports the row ids it changed (SQLite's update hook, see
/// `ChangeLog`). The observer re-reads only those rows and merges them into the ordered results
/// it holds (`ObservedResults`), which costs what changed plus one linear pass, instead of
/// re-reading and diffing every row. **Full refresh** (the whole query, diffed by identity) runs
/// for the first delivery, for queries with a `limit` or `offset` (rows outside the change slide
/// into the window) or sorted by relevance, after raw SQL or a `delete(where: nil)` (the changed
/// rows are unknown), when more than `ChangeLog.limit` rows changed, and when the held results
/// disagree with what the commit reports.
final class QueryObserver<E: StoredEntity>: CommitObserver, @unchecked Sendable {
    // Thread safety: `pending`, `pendingRows` and `cancelled` are guarded by `lock`; `results`
    // and `delivered` are only touched on the observer context's serial queue (in `refresh`).
    let table: String
    private let query: Query<E>
    private let reader: ObjectContext
    private let deliveryQueue: DispatchQueue
    private let handler: @Sendable (QueryChange<E>) -> Void
    private let onError: (@Sendable (PersistenceError) -> Void)?
    /// Whether commits can be applied row by row.
    private let incremental: Bool
    private let lock = NSLock()
    private var pending = false
    private var cancelled = false
    /// The rows changed since the last refresh; `nil` when a full refresh is needed.
    private var pendingRows: Set<Int64>? = nil
    private var results: ObservedResults<E>?

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
        incremental = query.limit == nil && query.offset == 0 && !query.sort.contains(where: \.isRelevance)
    }

    var isCancelled: Bool { lock.withLock { cancelled } }

    func cancel() {
        lock.withLock { cancelled = true }
        reader.core.center.remove(self)
    }

    func scheduleRefresh(after commit: CommitSummary?) {
        let schedule = lock.withLock {
            guard !cancelled else { return false }
            if incremental, let commit, let changed = commit.changedRows(of: table), var rows = pendingRows {
                rows.formUnion(changed)
                pendingRows = rows.count > ChangeLog.limit ? nil : rows
            } else {
                pendingRows = nil
            }
            guard !pending else { return false }
            pending = true
            return true
        }
        guard schedule else { return }
        reader.queue.async { self.refresh() }
    }

    /// Runs on the reader's queue. Commits that land while a refresh is queued are folded into it.
    private func refresh() {
        let changed = lock.withLock {
            pending = false
            defer { pendingRows = [] }
            return pendingRows
        }
        guard !isCancelled else { return }
        do {
            let initial = results == nil
            let changes: ChangeSet
            if incremental, let changed, results != nil {
                guard !changed.isEmpty else { return }
                let reread = try reader.performRead { tx in try tx.fetchObserved(query, keys: true, rowids: changed) }
                // Moved out while it changes, so its storage is not copied on write.
                guard var held = results.take() else { return }
                if let applied = held.apply(changed: changed, reread: reread) {
                    changes = applied
                    results = held
                    reader.core.center.noteRefresh(incremental: true)
                } else {
                    results = held
                    changes = try refreshFully()
                }
            } else {
                changes = try refreshFully()
            }
            guard initial || !changes.isEmpty, let results else { return }
            let change = QueryChange(results: results.entities, changes: changes, isInitial: initial)
            deliveryQueue.async {
                if !self.isCancelled { self.handler(change) }
            }
        } catch {
            let failure =
                error as? PersistenceError ?? PersistenceError(.sqlite, "Refreshing an observed query failed: \(error)")
            if let onError {
                deliveryQueue.async { if !self.isCancelled { onError(failure) } }
            }
        }
    }

    /// Re-reads the whole query and diffs it with the held results by identity.
    private func refreshFully() throws -> ChangeSet {
        let fetched = try reader.performRead { tx in try tx.fetchObserved(query, keys: incremental) }
        let fresh = ObservedResults(fetched, descending: query.sort.map(\.descending))
        let changes = results.map { $0.diff(to: fresh) } ?? ChangeSet(inserted: Array(fresh.entities.indices))
        results = fresh
        reader.core.center.noteRefresh(incremental: false)
        return changes
    }
}
