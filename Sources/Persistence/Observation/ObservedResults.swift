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

    /// The held rows that `updates` changed (those in `excluding` are re-read instead), each with
    /// its column values after the updates and its sort key, in the order they are held; `nil`
    /// when the held rows disagree with their row-id map (the caller refreshes in full).
    ///
    /// `positions` maps an assigned column to its place in a row; `keyColumns` maps each sort key
    /// to the place of the column it reads, or `nil` for a key the updates cannot change (the
    /// caller checked that).
    func written(
        _ updates: [WrittenValues], excluding: Set<Int64>, positions: [String: Int], keyColumns: [Int?]
    ) -> [(rowid: Int64, row: [DatabaseValue], key: [DatabaseValue])]? {
        guard let patches = patches(updates, excluding: excluding, positions: positions) else { return nil }
        return patches.positions.indices.sorted { patches.positions[$0] < patches.positions[$1] }.map { slot in
            let held = patches.positions[slot]
            let row = patches.rows[slot]
            var key = keys[held]
            for (offset, column) in keyColumns.enumerated() where offset < key.count {
                if let column { key[offset] = row[column] }
            }
            return (rowids[held], row, key)
        }
    }

    /// The held rows `updates` changed (those in `excluding` are re-read instead), with their
    /// values after the updates, in no particular order; nothing is changed yet
    /// (``replace(_:rows:entities:keyColumns:)`` does it once the rows are decoded). `positions`
    /// maps an assigned column to its place in a row. `nil` when the held rows disagree with their
    /// row-id map (the caller refreshes in full).
    func patches(
        _ updates: [WrittenValues], excluding: Set<Int64> = [], positions: [String: Int]
    ) -> (positions: [Int], rows: [[DatabaseValue]])? {
        let total = updates.reduce(0) { $0 + $1.rowids.count }
        // Many rows are found in one walk of the held rows in row-id order; a few by binary search.
        let many = total > 64 && total * 16 > rowids.count
        let byRowid = many ? positionsByRowid() : []
        var found: [Int] = []
        var patched: [[DatabaseValue]] = []
        found.reserveCapacity(min(total, rowids.count))
        patched.reserveCapacity(min(total, rowids.count))
        // A row two updates changed is patched twice, in place; one update changes a row once.
        var slotByPosition: [Int: Int] = [:]
        for update in updates {
            let places = update.columns.map { positions[$0] }
            let width = update.columns.count
            let located = many ? heldPositions(of: update.rowids, byRowid: byRowid) : []
            // (The in-place path excludes nothing: no set is hashed for its rows.)
            for (index, rowid) in update.rowids.enumerated() where excluding.isEmpty || !excluding.contains(rowid) {
                let held: Int
                if many {
                    guard located[index] >= 0 else { continue }
                    held = located[index]
                } else {
                    guard let key = keyByRowid[rowid] else { continue }
                    let position = lowerBound(key, rowid)
                    guard position < rowids.count, rowids[position] == rowid else { return nil }
                    held = position
                }
                let slot: Int
                if updates.count > 1, let existing = slotByPosition[held] {
                    slot = existing
                } else {
                    slot = found.count
                    found.append(held)
                    patched.append(rows[held])
                    if updates.count > 1 { slotByPosition[held] = slot }
                }
                for column in 0..<width {
                    if let place = places[column] { patched[slot][place] = update.values[index * width + column] }
                }
            }
        }
        return (found, patched)
    }

    /// Replaces the rows at `positions` with `rows` and `entities` (their identities unchanged,
    /// which the caller checked), recomputes the sort keys `keyColumns` read (the place of each key's
    /// column in a row, `nil` for a key the rows cannot change), re-sorts when a key moved a row,
    /// and returns the change set a full diff gives.
    mutating func replace(
        _ positions: [Int], rows newRows: [[DatabaseValue]], entities newEntities: [E], keyColumns: [Int?]
    )
        -> ChangeSet
    {
        var updated: [Int] = []
        var keyChanged = false
        let keyPlaces = keyColumns.enumerated().compactMap { offset, column in column.map { (offset, $0) } }
        for (slot, position) in positions.enumerated() {
            let row = newRows[slot]
            guard row != rows[position] else { continue }
            updated.append(position)
            rows[position] = row
            entities[position] = newEntities[slot]
            if !keyPlaces.isEmpty {
                var key = keys[position]
                for (offset, column) in keyPlaces { key[offset] = row[column] }
                if key != keys[position] {
                    keys[position] = key
                    keyByRowid[rowids[position]] = key
                    keyChanged = true
                }
            }
        }
        updated.sort()
        guard keyChanged else { return ChangeSet(updated: updated) }
        // Whether the rows are still in order: each changed row against its neighbours.
        let inOrder = updated.allSatisfy { position in
            (position == 0
                || SQLiteOrder.compare(
                    keys[position - 1], rowids[position - 1], keys[position], rowids[position], descending: descending)
                    < 0)
                && (position == rowids.count - 1
                    || SQLiteOrder.compare(
                        keys[position], rowids[position], keys[position + 1], rowids[position + 1],
                        descending: descending) < 0)
        }
        guard !inOrder else { return ChangeSet(updated: updated) }
        let order = rowids.indices.sorted {
            SQLiteOrder.compare(keys[$0], rowids[$0], keys[$1], rowids[$1], descending: descending) < 0
        }
        var newPosition = [Int](repeating: 0, count: order.count)
        for (position, old) in order.enumerated() { newPosition[old] = position }
        let stays = ChangeSet.longestIncreasing(order)
        var changes = ChangeSet(updated: updated.map { newPosition[$0] }.sorted())
        for (position, old) in order.enumerated() where !stays[position] {
            changes.moved.append(ChangeSet.Move(from: old, to: position))
        }
        entities = order.map { entities[$0] }
        ids = order.map { ids[$0] }
        rows = order.map { rows[$0] }
        rowids = order.map { rowids[$0] }
        keys = order.map { keys[$0] }
        return changes
    }

    /// The held rows' positions in row-id order, for finding many rows by row id in one walk.
    private func positionsByRowid() -> [Int] {
        let ids = rowids
        return ids.indices.sorted { ids[$0] < ids[$1] }
    }

    /// The held position of each of `ids` (`-1` for a row not held), found by walking `ids` and the
    /// held rows (`byRowid`, from ``positionsByRowid()``) both in row-id order.
    private func heldPositions(of ids: [Int64], byRowid: [Int]) -> [Int] {
        var order = Array(ids.indices)
        // An update's rows usually come in row-id order already.
        if zip(ids, ids.dropFirst()).contains(where: { $0 >= $1 }) { order.sort { ids[$0] < ids[$1] } }
        let held = rowids
        var result = [Int](repeating: -1, count: ids.count)
        var next = 0
        for index in order {
            let id = ids[index]
            while next < byRowid.count, held[byRowid[next]] < id { next += 1 }
            if next < byRowid.count, held[byRowid[next]] == id { result[index] = byRowid[next] }
        }
        return result
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
