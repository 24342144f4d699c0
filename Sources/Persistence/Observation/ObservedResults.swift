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
    // Internal, not private, for the in-place updates of ObservedResults+Written.swift.
    var entities: [E] = []
    var ids: [E.ID] = []
    var rows: [[DatabaseValue]] = []
    var rowids: [Int64] = []
    var keys: [[DatabaseValue]] = []
    /// Each held row's sort key by row id, to find a few rows by binary search. Built by
    /// ``prepareLookup()`` once results are delivered, off the commit's path: after the first
    /// read, a full refresh, or an update that moved many keys (``lookupIsStale``).
    var keyByRowid: [Int64: [DatabaseValue]] = [:]
    /// Whether ``keyByRowid`` is to be built again before a few rows are found by it.
    var lookupIsStale = true
    let descending: [Bool]

    var count: Int { entities.count }

    init(_ fetched: [ObservedRow<E>], descending: [Bool]) {
        self.descending = descending
        entities.reserveCapacity(fetched.count)
        ids.reserveCapacity(fetched.count)
        rows.reserveCapacity(fetched.count)
        rowids.reserveCapacity(fetched.count)
        keys.reserveCapacity(fetched.count)
        for item in fetched {
            entities.append(item.entity)
            ids.append(item.entity.id)
            rows.append(item.row)
            rowids.append(item.rowid)
            keys.append(item.key)
        }
    }

    /// Builds the row-id map of sort keys when it is stale (the old one is freed here too).
    mutating func prepareLookup() {
        guard lookupIsStale else { return }
        var map: [Int64: [DatabaseValue]] = [:]
        map.reserveCapacity(rowids.count)
        for (rowid, key) in zip(rowids, keys) { map[rowid] = key }
        keyByRowid = map
        lookupIsStale = false
    }

    /// The first position whose row sorts at or after (`key`, `rowid`).
    func lowerBound(_ key: [DatabaseValue], _ rowid: Int64) -> Int {
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
        prepareLookup()
        // Many changed rows are placed by walking the held rows once; a few by binary search.
        let many = changed.count > 64 && changed.count * 16 > rowids.count
        var removed: [Int] = []
        if many {
            for (position, rowid) in rowids.enumerated() where changed.contains(rowid) { removed.append(position) }
            // Every changed row the map holds is among the rows: otherwise they disagree.
            guard changed.count(where: { keyByRowid[$0] != nil }) == removed.count else { return nil }
        } else {
            for rowid in changed {
                guard let key = keyByRowid[rowid] else { continue }
                let position = lowerBound(key, rowid)
                guard position < rowids.count, rowids[position] == rowid else { return nil }
                removed.append(position)
            }
            removed.sort()
        }
        let inserts = reread.sorted {
            SQLiteOrder.compare($0.key, $0.rowid, $1.key, $1.rowid, descending: descending)
                < 0
        }
        // Where each re-read row lands: its place among the old rows, less the removed rows before
        // it, plus the re-read rows before it.
        var removedBefore = 0
        var landing: [Int] = []
        landing.reserveCapacity(inserts.count)
        var old = 0
        for (offset, item) in inserts.enumerated() {
            if many {
                // The inserts are in order: the place of each is at or after the one before.
                while old < rowids.count,
                    SQLiteOrder.compare(keys[old], rowids[old], item.key, item.rowid, descending: descending) < 0
                {
                    old += 1
                }
            } else {
                old = lowerBound(item.key, item.rowid)
            }
            while removedBefore < removed.count, removed[removedBefore] < old { removedBefore += 1 }
            landing.append(old - removedBefore + offset)
        }
        // A re-read row with the identity of a removed one is the same entity (moved or updated).
        var removedByID: [E.ID: Int] = [:]
        for position in removed { removedByID[ids[position]] = position }
        var previousPosition = [Int](repeating: -1, count: inserts.count)
        var changes = ChangeSet()
        var matched = Set<Int>()
        for (offset, item) in inserts.enumerated() {
            if let previous = removedByID[item.entity.id] {
                previousPosition[offset] = previous
                matched.insert(previous)
                if rows[previous] != item.row { changes.updated.append(landing[offset]) }
            } else {
                changes.inserted.append(landing[offset])
            }
        }
        changes.deleted = removed.filter { !matched.contains($0) }
        let newCount = rowids.count - removed.count + inserts.count
        changes.moved = Self.moves(
            newCount: newCount, removed: removed, landing: landing, previousPosition: previousPosition)

        for rowid in changed { keyByRowid[rowid] = nil }
        for item in inserts { keyByRowid[item.rowid] = item.key }
        if removed.count + inserts.count <= 32 {
            // Few rows: shift the arrays in place (a move of memory, no copies of the rows).
            for position in removed.reversed() {
                entities.remove(at: position)
                ids.remove(at: position)
                rows.remove(at: position)
                rowids.remove(at: position)
                keys.remove(at: position)
            }
            for (offset, item) in inserts.enumerated() {
                let position = landing[offset]
                entities.insert(item.entity, at: position)
                ids.insert(item.entity.id, at: position)
                rows.insert(item.row, at: position)
                rowids.insert(item.rowid, at: position)
                keys.insert(item.key, at: position)
            }
        } else {
            rebuild(removed: removed, inserts: inserts, landing: landing, newCount: newCount)
        }
        return changes
    }

    /// Rebuilds the arrays from runs of kept rows and the re-read rows, for many changed rows.
    private mutating func rebuild(removed: [Int], inserts: [ObservedRow<E>], landing: [Int], newCount: Int) {
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
        var old = 0
        var nextRemoved = 0
        var nextInsert = 0
        while newEntities.count < newCount {
            if nextInsert < inserts.count, landing[nextInsert] == newEntities.count {
                let item = inserts[nextInsert]
                newEntities.append(item.entity)
                newIDs.append(item.entity.id)
                newRows.append(item.row)
                newRowids.append(item.rowid)
                newKeys.append(item.key)
                nextInsert += 1
                continue
            }
            while nextRemoved < removed.count, removed[nextRemoved] == old {
                nextRemoved += 1
                old += 1
            }
            // Copy the run of kept rows up to the next removed row or the next landing place.
            var end = nextRemoved < removed.count ? removed[nextRemoved] : entities.count
            if nextInsert < inserts.count { end = min(end, old + landing[nextInsert] - newEntities.count) }
            newEntities.append(contentsOf: entities[old..<end])
            newIDs.append(contentsOf: ids[old..<end])
            newRows.append(contentsOf: rows[old..<end])
            newRowids.append(contentsOf: rowids[old..<end])
            newKeys.append(contentsOf: keys[old..<end])
            old = end
        }
        entities = newEntities
        ids = newIDs
        rows = newRows
        rowids = newRowids
        keys = newKeys
    }

    /// The moves a full diff reports: the common rows in new order, by old position, minus one
    /// longest increasing run. Rows not re-read kept their order; they are enumerated here
    /// arithmetically, without touching the rows themselves.
    static func moves(newCount: Int, removed: [Int], landing: [Int], previousPosition: [Int]) -> [ChangeSet.Move] {
        var oldPositions: [Int] = []
        var newPositions: [Int] = []
        oldPositions.reserveCapacity(newCount)
        newPositions.reserveCapacity(newCount)
        var old = 0
        var nextRemoved = 0
        var nextInsert = 0
        for position in 0..<newCount {
            if nextInsert < landing.count, landing[nextInsert] == position {
                if previousPosition[nextInsert] >= 0 {
                    oldPositions.append(previousPosition[nextInsert])
                    newPositions.append(position)
                }
                nextInsert += 1
                continue
            }
            while nextRemoved < removed.count, removed[nextRemoved] == old {
                nextRemoved += 1
                old += 1
            }
            oldPositions.append(old)
            newPositions.append(position)
            old += 1
        }
        let stays = ChangeSet.longestIncreasing(oldPositions)
        var moves: [ChangeSet.Move] = []
        for index in oldPositions.indices where !stays[index] {
            moves.append(ChangeSet.Move(from: oldPositions[index], to: newPositions[index]))
        }
        return moves
    }

    /// The change set between these results and `fetched` (a full re-read), by identity.
    func diff(to fetched: ObservedResults<E>) -> ChangeSet {
        ChangeSet.diff(old: ids, oldRows: rows, new: fetched.ids, newRows: fetched.rows)
    }
}
