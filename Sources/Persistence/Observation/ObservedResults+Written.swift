/// The updates by filter an observer applies to the rows it holds: finding the changed rows,
/// patching them (as copies for the general path, in place for the in-place path), and putting
/// the decoded entities and their sort keys in place.
extension ObservedResults {
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
}
