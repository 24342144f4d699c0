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
    /// Each held row's sort key by row id, to find a few rows by binary search. Built by
    /// ``prepareLookup()`` once results are delivered, off the commit's path: after the first
    /// read, a full refresh, or an update that moved many keys (``lookupIsStale``).
    private var keyByRowid: [Int64: [DatabaseValue]] = [:]
    /// Whether ``keyByRowid`` is to be built again before a few rows are found by it.
    private var lookupIsStale = true
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

    /// The held position of each row `updates` changed, per update in its rows' order (`-1` for a
    /// row not held or in `excluding`); `nil` when the held rows disagree with their row-id map
    /// (the caller refreshes in full).
    private func locate(_ updates: [WrittenValues], excluding: Set<Int64>) -> [[Int]]? {
        let total = updates.reduce(0) { $0 + $1.rowids.count }
        // Many rows are found in one walk of the held rows in row-id order; a few by binary search
        // on the key the map gives (the caller prepares it: ``prepareLookup()``).
        let many = total > 64 && total * 16 > rowids.count
        guard many || !lookupIsStale else { return nil }
        let byRowid = many ? positionsByRowid() : []
        var located: [[Int]] = []
        located.reserveCapacity(updates.count)
        for update in updates {
            var places = many ? heldPositions(of: update.rowids, byRowid: byRowid) : []
            if !many {
                places = [Int](repeating: -1, count: update.rowids.count)
                for (index, rowid) in update.rowids.enumerated() {
                    guard let key = keyByRowid[rowid] else { continue }
                    let position = lowerBound(key, rowid)
                    guard position < rowids.count, rowids[position] == rowid else { return nil }
                    places[index] = position
                }
            }
            // (The in-place path excludes nothing: no set is hashed for its rows.)
            if !excluding.isEmpty {
                for (index, rowid) in update.rowids.enumerated() where excluding.contains(rowid) { places[index] = -1 }
            }
            located.append(places)
        }
        return located
    }

    /// The held rows `updates` changed (those in `excluding` are re-read instead), with their
    /// values after the updates, in no particular order, as copies: the held rows are not changed.
    /// `positions` maps an assigned column to its place in a row. `nil` when the held rows disagree
    /// with their row-id map (the caller refreshes in full).
    func patches(
        _ updates: [WrittenValues], excluding: Set<Int64>, positions: [String: Int]
    ) -> (positions: [Int], rows: [[DatabaseValue]])? {
        guard let located = locate(updates, excluding: excluding) else { return nil }
        var found: [Int] = []
        var patched: [[DatabaseValue]] = []
        // A row two updates changed is patched twice, in place; one update changes a row once.
        var slotByPosition: [Int: Int] = [:]
        for (number, update) in updates.enumerated() {
            let places = update.columns.map { positions[$0] }
            let width = update.columns.count
            for (index, held) in located[number].enumerated() where held >= 0 {
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

    /// What ``patchInPlace(_:positions:)`` overwrote, for ``restore(_:)``.
    struct Overwritten {
        fileprivate var values: [(position: Int, place: Int, value: DatabaseValue)] = []
    }

    /// Writes `updates`' values into the held rows themselves (no row is copied), and returns the
    /// positions whose values now differ from before, each once, with what was overwritten
    /// (``restore(_:)`` puts it back if decoding them fails). The entities and keys are not
    /// changed yet: ``replace(_:entities:keyColumns:)`` does it once the rows are decoded. `nil`
    /// (nothing changed) when the held rows disagree with their row-id map.
    mutating func patchInPlace(
        _ updates: [WrittenValues], positions: [String: Int]
    ) -> (changed: [Int], overwritten: Overwritten)? {
        guard let located = locate(updates, excluding: []) else { return nil }
        var changed: [Int] = []
        var overwritten = Overwritten()
        // With several updates a row may be changed twice, or changed and changed back.
        var before: [Int: [DatabaseValue]] = [:]
        for (number, update) in updates.enumerated() {
            let places = update.columns.map { positions[$0] }
            let width = update.columns.count
            for (index, held) in located[number].enumerated() where held >= 0 {
                let listed = updates.count > 1 && before[held] != nil
                var differs = false
                for column in 0..<width {
                    guard let place = places[column] else { continue }
                    let value = update.values[index * width + column]
                    guard rows[held][place] != value else { continue }
                    if updates.count > 1, before[held] == nil { before[held] = rows[held] }
                    overwritten.values.append((held, place, rows[held][place]))
                    rows[held][place] = value
                    differs = true
                }
                if differs, !listed { changed.append(held) }
            }
        }
        if updates.count > 1 { changed.removeAll { rows[$0] == before[$0] } }
        return (changed, overwritten)
    }

    /// Puts back what ``patchInPlace(_:positions:)`` overwrote.
    mutating func restore(_ overwritten: Overwritten) {
        for item in overwritten.values.reversed() { rows[item.position][item.place] = item.value }
    }

    /// The held rows at `positions`.
    func rows(at positions: [Int]) -> [[DatabaseValue]] { positions.map { rows[$0] } }

    /// Replaces the entities at `positions` (rows ``patchInPlace(_:positions:)`` changed) with
    /// `entities` (their identities unchanged, which the caller checked), recomputes the sort keys
    /// `keyColumns` read (the place of each key's column in a row, `nil` for a key the rows cannot
    /// change), re-sorts when a key moved a row, and returns the change set a full diff gives.
    mutating func replace(_ positions: [Int], entities newEntities: [E], keyColumns: [Int?]) -> ChangeSet {
        let keyPlaces = keyColumns.enumerated().compactMap { offset, column in column.map { (offset, $0) } }
        var keyChanged = false
        // Many rows' keys: the map is built again after the delivery (``prepareLookup()``) rather
        // than written a row at a time on the way to the delivery.
        let mapLater = positions.count > 64 && positions.count * 16 > rowids.count
        for (slot, position) in positions.enumerated() {
            entities[position] = newEntities[slot]
            // The key's values written in place (the key is held once: no copy of it is made).
            var moved = false
            for (offset, column) in keyPlaces where keys[position][offset] != rows[position][column] {
                keys[position][offset] = rows[position][column]
                moved = true
            }
            guard moved else { continue }
            keyChanged = true
            if mapLater {
                lookupIsStale = true
            } else if !lookupIsStale {
                keyByRowid[rowids[position]] = keys[position]
            }
        }
        let updated = positions.sorted()
        guard keyChanged else { return ChangeSet(updated: updated) }
        // Whether the rows are still in order: each changed row against its neighbours.
        var inOrder = true
        for position in updated {
            if position > 0,
                SQLiteOrder.compare(
                    keys[position - 1], rowids[position - 1], keys[position], rowids[position], descending: descending)
                    >= 0
            {
                inOrder = false
                break
            }
            if position < rowids.count - 1,
                SQLiteOrder.compare(
                    keys[position], rowids[position], keys[position + 1], rowids[position + 1], descending: descending)
                    >= 0
            {
                inOrder = false
                break
            }
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
