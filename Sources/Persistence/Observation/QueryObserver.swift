import Foundation
import Locking

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
final class QueryObserver<E: StoredEntity>: GatedObserver, Sendable {
    let table: String
    /// The tables the query reads through relations (its filter and sort): a change to one of
    /// them refreshes the results in full, since it may change which rows match and their order
    /// without changing a row of `table`.
    let relatedTables: Set<String>
    private let query: Query<E>
    let reader: ObjectContext
    let deliveryQueue: DispatchQueue
    private let handler: @Sendable (QueryChange<E>) -> Void
    private let onError: (@Sendable (PersistenceError) -> Void)?
    /// Whether commits can be applied row by row.
    private let incremental: Bool
    /// The rows changed since the last refresh; `nil` when a full refresh is needed.
    let gate = RefreshGate<Set<Int64>?>(nil)
    /// The results last delivered; only `refresh` (on the reader's serial queue) takes them out
    /// and puts them back, so the lock is never contended.
    private let held = Locked<ObservedResults<E>?>(nil)

    init(
        query: Query<E>, reader: ObjectContext, queue: DispatchQueue,
        onError: (@Sendable (PersistenceError) -> Void)?, handler: @escaping @Sendable (QueryChange<E>) -> Void
    ) {
        table = E.entityName
        var related = query.filter?.relatedTables ?? []
        for key in query.sort { if let target = key.related { related.insert(target.targetName) } }
        // A relation back to the entity itself: a change to one row may change whether others match.
        let throughItself = related.remove(E.entityName) != nil
        relatedTables = related
        self.query = query
        self.reader = reader
        deliveryQueue = queue
        self.handler = handler
        self.onError = onError
        incremental =
            query.limit == nil && query.offset == 0 && !query.sort.contains(where: \.isRelevance) && !throughItself
    }

    /// Whether `commit` may change the results: it touches the entity's table or a related one.
    func isInterested(in commit: CommitSummary) -> Bool {
        commit.touches(table) || relatedTables.contains { commit.touches($0) }
    }

    var closeReport: (@Sendable (PersistenceError) -> Void)? { onError }

    func scheduleRefresh(after commit: CommitSummary?) {
        let schedule = gate.schedule { pendingRows in
            if incremental, let commit, !relatedTables.contains(where: { commit.touches($0) }),
                let changed = commit.changedRows(of: table), var rows = pendingRows
            {
                rows.formUnion(changed)
                pendingRows = rows.count > ChangeLog.limit ? nil : rows
            } else {
                pendingRows = nil
            }
        }
        guard schedule else { return }
        reader.queue.async { self.refresh() }
    }

    /// Runs on the reader's queue. Commits that land while a refresh is queued are folded into it.
    private func refresh() {
        let changed = gate.begin(leaving: [])
        guard !isCancelled else { return }
        // Moved out of the box for the refresh (so its storage is not copied on write) and back.
        var results = held.withLock { $0.take() }
        defer { held.withLock { [results] in $0 = results } }
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
                    changes = try refreshFully(&results)
                }
            } else {
                changes = try refreshFully(&results)
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
    private func refreshFully(_ results: inout ObservedResults<E>?) throws -> ChangeSet {
        let fetched = try reader.performRead { tx in try tx.fetchObserved(query, keys: incremental) }
        let fresh = ObservedResults(fetched, descending: query.sort.map(\.descending))
        let changes = results.map { $0.diff(to: fresh) } ?? ChangeSet(inserted: Array(fresh.entities.indices))
        results = fresh
        reader.core.center.noteRefresh(incremental: false)
        return changes
    }
}
