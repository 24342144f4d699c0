/// One row of an observed query: the entity, its column values (for change detection), its row
/// id and its sort-key values (for placing it).
struct ObservedRow<E: StoredEntity> {
    let entity: E
    let row: [DatabaseValue]
    let rowid: Int64
    let key: [DatabaseValue]
}

/// The ordered results an observer holds, and the incremental update that applies a commit's
/// changed rows to them.
///
/// Rows are kept in the query's order: its sort keys, then row id (`SQLiteOrder`). A commit's
/// changed rows are removed from where they were (found by binary search on the sort key they had),
/// re-read (only those that still match the filter come back) and merged in where they now
/// sort. The change set is computed from the same old-position sequence a full diff would build,
/// with the same longest-run rule, so both paths deliver the same ``ChangeSet``.
struct ObservedResults<E: StoredEntity> {
    private(set) var entities: [E] = []
    private var ids: [E.ID] = []
    private var rows: [[DatabaseValue]] = []
    private var rowids: [Int64] = []
    private var keys: [[DatabaseValue]] = []
    private var keyByRowid: [Int64: [DatabaseValue]] = [:]
    let descending: [Bool]

    var count: Int { entities.count }

    init(_ fetched: [ObservedRow<E>], descending: [Bool]) {
        self.descending = descending
        entities.reserveCapacity(fetched.count)
        ids.reserveCapacity(fetched.count)
        rows.reserveCapacity(fetched.count)
        rowids.reserveCapacity(fetched.count)
        keys.reserveCapacity(fetched.count)
        keyByRowid.reserveCapacity(fetched.count)
        for item in fetched {
            entities.append(item.entity)
            ids.append(item.entity.id)
            rows.append(item.row)
            rowids.append(item.rowid)
            keys.append(item.key)
            keyByRowid[item.rowid] = item.key
        }
    }

    /// The first position whose row sorts at or after (`key`, `rowid`).
    private func lowerBound(_ key: [DatabaseValue], _ rowid: Int64) -> Int {
        var low = 0
        var high = rowids.count
        while low < high {
            let mid = (low + high) / 2
            if SQLiteOrder.compare(keys[mid], rowids[mid], key, rowid, descending: descending) < 0 {
                low = mid + 1
            } else {
                high = mid
            }
        }
        return low
    }

    /// Applies the rows a commit changed: `changed` are their row ids, `reread` those of them that
    /// match the query now. Returns the change set, or `nil` when the held results do not agree
    /// with the row ids (then the caller refreshes in full).
    mutating func apply(changed: Set<Int64>, reread: [ObservedRow<E>]) -> ChangeSet? {
        var removed: [Int] = []
        for rowid in changed {
            guard let key = keyByRowid[rowid] else { continue }
            let position = lowerBound(key, rowid)
            guard position < rowids.count, rowids[position] == rowid else { return nil }
            removed.append(position)
        }
        removed.sort()
        let inserts = reread.sorted {
            SQLiteOrder.compare($0.key, $0.rowid, $1.key, $1.rowid, descending: descending) < 0
        }
        let insertAt = inserts.map { lowerBound($0.key, $0.rowid) }
        var removedByID: [E.ID: Int] = [:]
        for position in removed { removedByID[ids[position]] = position }

        let oldCount = rowids.count
        let newCount = oldCount - removed.count + inserts.count
        var newEntities: [E] = []
        var newIDs: [E.ID] = []
        var newRows: [[DatabaseValue]] = []
        var newRowids: [Int64] = []
        var newKeys: [[DatabaseValue]] = []
        newEntities.reserveCapacity(newCount)
        newIDs.reserveCapacity(newCount)
        newRows.reserveCapacity(newCount)
        newRowids.reserveCapacity(newCount)
        newKeys.reserveCapacity(newCount)
        var commonOld: [Int] = []
        var commonNew: [Int] = []
        commonOld.reserveCapacity(newCount)
        commonNew.reserveCapacity(newCount)
        var changes = ChangeSet()
        var matched: Set<Int> = []

        var nextRemoved = 0
        var nextInsert = 0
        for old in 0...oldCount {
            while nextInsert < inserts.count, insertAt[nextInsert] == old {
                let item = inserts[nextInsert]
                let position = newEntities.count
                if let previous = removedByID[item.entity.id] {
                    commonOld.append(previous)
                    commonNew.append(position)
                    matched.insert(previous)
                    if rows[previous] != item.row { changes.updated.append(position) }
                } else {
                    changes.inserted.append(position)
                }
                newEntities.append(item.entity)
                newIDs.append(item.entity.id)
                newRows.append(item.row)
                newRowids.append(item.rowid)
                newKeys.append(item.key)
                nextInsert += 1
            }
            if old == oldCount { break }
            if nextRemoved < removed.count, removed[nextRemoved] == old {
                nextRemoved += 1
                continue
            }
            commonOld.append(old)
            commonNew.append(newEntities.count)
            newEntities.append(entities[old])
            newIDs.append(ids[old])
            newRows.append(rows[old])
            newRowids.append(rowids[old])
            newKeys.append(keys[old])
        }
        changes.deleted = removed.filter { !matched.contains($0) }
        let stays = ChangeSet.longestIncreasing(commonOld)
        for index in commonOld.indices where !stays[index] {
            changes.moved.append(ChangeSet.Move(from: commonOld[index], to: commonNew[index]))
        }

        for rowid in changed { keyByRowid[rowid] = nil }
        for item in inserts { keyByRowid[item.rowid] = item.key }
        entities = newEntities
        ids = newIDs
        rows = newRows
        rowids = newRowids
        keys = newKeys
        return changes
    }

    /// The change set between these results and `fetched` (a full re-read), by identity.
    func diff(to fetched: ObservedResults<E>) -> ChangeSet {
        ChangeSet.diff(old: ids, oldRows: rows, new: fetched.ids, newRows: fetched.rows)
    }
}
