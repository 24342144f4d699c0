import Foundation
import Locking

/// An observed query: after commits that touch its table it re-reads what changed and delivers
/// the new results with a ``ChangeSet``.
///
/// **Incremental path.** A commit reports the row ids it changed (SQLite's update hook, see
/// `ChangeLog`). The observer re-reads only those rows and merges them into the ordered results
/// it holds (`ObservedResults`), which costs what changed plus one linear pass, instead of
/// re-reading and diffing every row. An update by filter of an entity such an observer watched
/// when its transaction began reports the new values of the rows it changed (`WrittenValues`):
/// when it assigns no column the query's filter reads (so no row starts or stops matching) and
/// no sort key it cannot recompute, the observer applies the values to the rows it holds, decodes
/// those again and re-sorts them, without reading the table. **Full refresh** (the whole query,
/// diffed by identity) runs for the first delivery, for queries with a `limit` or `offset` (rows
/// outside the change slide into the window) or sorted by relevance, after raw SQL or a
/// `delete(where: nil)` (the changed rows are unknown), when more than `ChangeLog.limit` rows
/// changed, and when the held results disagree with what the commit reports.
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
    /// The changes since the last refresh; `nil` when a full refresh is needed.
    let gate = RefreshGate<PendingChanges?>(nil)
    /// The entity's columns the filter reads; `nil` when it reads through a relation or the
    /// full-text index.
    private let filterColumns: Set<String>?
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
        filterColumns = query.filter.map(\.columns) ?? []
        incremental =
            query.limit == nil && query.offset == 0 && !query.sort.contains(where: \.isRelevance) && !throughItself
    }

    /// The entity's table while commits are applied row by row and the filter's columns are
    /// known (``canApply(_:)`` can accept an update): its new values are then applied without
    /// reading the rows again.
    var appliesWrittenValues: String? { incremental && filterColumns != nil ? table : nil }

    /// Whether `commit` may change the results: it touches the entity's table or a related one.
    func isInterested(in commit: CommitSummary) -> Bool {
        commit.touches(table) || relatedTables.contains { commit.touches($0) }
    }

    var closeReport: (@Sendable (PersistenceError) -> Void)? { onError }

    func scheduleRefresh(after commit: CommitSummary?) {
        let schedule = gate.schedule { pending in
            if incremental, let commit, !relatedTables.contains(where: { commit.touches($0) }),
                let changed = commit.changedRows(of: table), var work = pending
            {
                work.rows.formUnion(changed)
                for values in commit.writtenValues(of: table) {
                    if canApply(values) { work.written.append(values) } else { work.rows.formUnion(values.rowids) }
                }
                let written = work.written.reduce(0) { $0 + $1.rowids.count }
                pending = work.rows.count > ChangeLog.limit || written > WrittenValues.limit ? nil : work
            } else {
                pending = nil
            }
        }
        guard schedule else { return }
        reader.queue.async { self.refresh() }
    }

    /// Runs on the reader's queue. Commits that land while a refresh is queued are folded into it.
    private func refresh() {
        let pending = gate.begin(leaving: PendingChanges())
        guard !isCancelled else { return }
        // Moved out of the box for the refresh (so its storage is not copied on write) and back.
        var results = held.withLock { $0.take() }
        defer { held.withLock { [results] in $0 = results } }
        do {
            let initial = results == nil
            let changes: ChangeSet
            if incremental, let pending, results != nil {
                guard !pending.rows.isEmpty || !pending.written.isEmpty else { return }
                // Moved out while it changes, so its storage is not copied on write.
                guard var held = results.take() else { return }
                held.prepareLookup()
                // Put back as it was when a read below fails: the next refresh diffs against it.
                defer { if results == nil { results = held } }
                // `nil` when the held rows disagree with what the commits report.
                let applied: ChangeSet?
                if pending.rows.isEmpty {
                    // Only updates whose values are known: applied in place, nothing read.
                    applied = try reader.performRead { tx throws(PersistenceError) in
                        try replaceInPlace(pending.written, in: &held, tx)
                    }
                } else {
                    var changed = pending.rows
                    let reread = try reader.performRead { tx throws(PersistenceError) -> [ObservedRow<E>]? in
                        var rows = try tx.fetchObserved(query, keys: true, rowids: pending.rows)
                        if !pending.written.isEmpty {
                            guard let patched = try written(pending, held: held, tx) else { return nil }
                            changed.formUnion(patched.lazy.map(\.rowid))
                            rows += patched
                        }
                        return rows
                    }
                    applied = reread.flatMap { held.apply(changed: changed, reread: $0) }
                }
                results = held
                if let applied {
                    changes = applied
                    reader.core.center.noteRefresh(incremental: true)
                } else {
                    changes = try refreshFully(&results)
                }
            } else {
                changes = try refreshFully(&results)
            }
            if initial || !changes.isEmpty, let delivered = results {
                let change = QueryChange(results: delivered.entities, changes: changes, isInitial: initial)
                deliveryQueue.async {
                    if !self.isCancelled { self.handler(change) }
                }
            }
            // Once the delivery is on its way: the row-id map a first read, a full refresh or an
            // update of many sort keys left to build, ready for the next commit.
            results?.prepareLookup()
        } catch {
            // The commits this refresh took are not in the results it keeps: the next refresh
            // re-reads the whole query and diffs it with them.
            gate.amend { $0 = nil }
            let failure =
                error as? PersistenceError ?? PersistenceError(.sqlite, "Refreshing an observed query failed: \(error)")
            if let onError {
                deliveryQueue.async { if !self.isCancelled { onError(failure) } }
            }
        }
    }

    /// Whether an update's new values can be applied to the held rows: it assigns no column the
    /// filter reads, and no column of a sort key other than a plain column of the entity.
    private func canApply(_ values: WrittenValues) -> Bool {
        guard let filterColumns else { return false }
        for column in values.columns where filterColumns.contains(column) { return false }
        for key in query.sort {
            if let related = key.related {
                if values.columns.contains(related.column) { return false }
            } else if key.caseInsensitive, values.columns.contains(key.column) {
                return false
            }
        }
        return true
    }

    /// Applies updates by filter to the held rows in place, when nothing else changed them (an
    /// update that assigns the identity reports no values): the changed rows are decoded from their
    /// new values, and re-sorted only when a sort key moved one. Returns `nil` (changing nothing)
    /// when the held rows disagree with their row-id map; the caller then refreshes in full.
    private func replaceInPlace(
        _ updates: [WrittenValues], in held: inout ObservedResults<E>, _ tx: ObjectTransaction
    )
        throws(PersistenceError) -> ChangeSet?
    {
        let positions = Self.positions(try tx.connection.codec(E.self).schema)
        guard let patch = held.patchInPlace(updates, positions: positions) else { return nil }
        let entities: [E]
        do {
            entities = try tx.decode(E.self, rows: held.rows(at: patch.changed))
        } catch {
            held.restore(patch.overwritten)
            throw error
        }
        return held.replace(patch.changed, entities: entities, keyColumns: keyColumns(positions))
    }

    /// Each column's place in a row.
    private static func positions(_ schema: EntitySchema) -> [String: Int] {
        var positions: [String: Int] = [:]
        for (index, name) in schema.names.enumerated() { positions[name] = index }
        return positions
    }

    /// For each sort key, the place of the column it reads when the key is that column's value,
    /// `nil` when an update cannot change it (``canApply(_:)`` checked).
    private func keyColumns(_ positions: [String: Int]) -> [Int?] {
        query.sort.map { key in key.related == nil && !key.caseInsensitive ? positions[key.column] : nil }
    }

    /// The held rows the pending updates changed, with their new values, decoded again; `nil` when
    /// the held rows disagree with their row-id map.
    private func written(
        _ pending: PendingChanges, held: ObservedResults<E>, _ tx: ObjectTransaction
    )
        throws(PersistenceError) -> [ObservedRow<E>]?
    {
        let positions = Self.positions(try tx.connection.codec(E.self).schema)
        guard
            let patched = held.written(
                pending.written, excluding: pending.rows, positions: positions, keyColumns: keyColumns(positions))
        else { return nil }
        let entities = try tx.decode(E.self, rows: patched.map(\.row))
        return zip(patched, entities).map { item, entity in
            ObservedRow(entity: entity, row: item.row, rowid: item.rowid, key: item.key)
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

/// The work a queued refresh of a ``QueryObserver`` is to do: rows to read again, and updates whose
/// new values it applies to the rows it holds (in the order they ran).
struct PendingChanges: Sendable {
    var rows: Set<Int64> = []
    var written: [WrittenValues] = []
}
