extension ObjectTransaction {
    /// Runs `related` (rows of `target` whose column `keyIndex` holds the identity of the entity
    /// they belong to) and groups the related rows by entity, keeping their order: one group per
    /// identity of `ids`, in their order. When `distinct`, a row that comes again for the same
    /// entity is left out.
    func relatedGroups<T: StoredEntity>(
        of ids: [DatabaseValue], _ type: T.Type, target: EntitySchema, related: QuerySQL, keyIndex: Int32,
        distinct: Bool
    ) throws(PersistenceError) -> [[T]] {
        guard !ids.isEmpty else { return [] }
        // This code runs unspecialized: index loops (no zip, no enumerated, whose iterators look
        // up generic metadata at every step), and integer identities, the usual kind, looked up
        // as `Int64`s rather than as database values.
        var integerPosition: [Int64: Int] = [:]
        var position: [DatabaseValue: Int] = [:]
        for offset in 0..<ids.count {
            let key = ids[offset]
            if case .integer(let id) = key {
                integerPosition[id] = offset
            } else {
                position[key] = offset
            }
        }
        let statement = try connection.statement(for: related)
        defer { statement.reset() }
        let decoder = RowDecoder.make(schema: target, statement: statement)
        defer { decoder.recycle() }
        // The rows first, in one buffer, with the offset of their entity; then each entity's
        // group at its final size. The buffers are raw memory: an append to a `[T]` in this
        // unspecialized code looks up `Array<T>`'s metadata each time (about 330 instructions a
        // row), and growing 10,000 small arrays would look it up at every reallocation.
        var rows = RowBuffer<T>()
        defer { rows.free() }
        var owners: [Int] = []
        var counts = [Int](repeating: 0, count: ids.count)
        // The (entity, row identity) pairs seen, when rows may come twice.
        var seen = Set<OwnedRow>()
        let idIndex = Int32(target.idColumn)
        while try statement.step() {
            let offset =
                statement.isInteger(keyIndex)
                ? integerPosition[statement.int64(keyIndex)] : position[statement.value(at: keyIndex)]
            guard let offset else { continue }
            if distinct, !seen.insert(OwnedRow(owner: offset, id: statement.value(at: idIndex))).inserted { continue }
            rows.append(try decoder.decodeRow(T.self))
            owners.append(offset)
            counts[offset] += 1
        }
        // Where each entity's group starts once the rows are ordered by entity, keeping each
        // group's rows in the order the statement returned them.
        var starts = [Int](repeating: 0, count: ids.count)
        var total = 0
        for offset in 0..<ids.count {
            starts[offset] = total
            total += counts[offset]
        }
        let ordered = rows.movedInOrder(of: owners, starts: &starts)
        defer { ordered.deallocate() }
        var groups: [[T]] = []
        groups.reserveCapacity(ids.count)
        var start = 0
        for offset in 0..<ids.count {
            let count = counts[offset]
            groups.append(
                [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                    if count > 0, let target = buffer.baseAddress {
                        target.moveInitialize(from: ordered + start, count: count)
                    }
                    initialized = count
                })
            start += count
        }
        return groups
    }
}

/// A related row's identity and the offset of the entity it belongs to, in a prefetch.
private struct OwnedRow: Hashable {
    let owner: Int
    let id: DatabaseValue
}

/// How a many-to-many relation is stored: a table with a column for each side, and the column
/// that orders one source's links.
struct RelationPath: Sendable {
    let table: String
    let sourceColumn: String
    let targetColumn: String
    let orderColumn: String

    static func manyToMany<S, T>(
        _ relation: ManyToMany<S, T>, registry: SchemaRegistry?
    ) throws(PersistenceError) -> RelationPath {
        switch relation.storage {
        case .link(let name):
            let table = RelationDeclaration.linkTableName(source: S.entityName, name: name)
            guard registry?.byName[S.entityName]?.links.contains(where: { $0.table == table }) == true else {
                throw PersistenceError(
                    .misuse,
                    "The many-to-many relation \(S.entityName).\(name) is not listed in \(S.entityName).relations; "
                        + "declare it there so the store keeps its links.", entity: S.entityName, property: name)
            }
            return RelationPath(table: table, sourceColumn: "source", targetColumn: "target", orderColumn: "position")
        case .through(let join, let joinName, let source, let target):
            guard registry?.byKey[join] != nil else {
                throw PersistenceError(
                    .misuse,
                    "\(S.entityName)'s many-to-many relation goes through \(joinName), which is not one of this store's "
                        + "entities. Pass it in the entities list.", entity: S.entityName, property: joinName)
            }
            return RelationPath(table: joinName, sourceColumn: source, targetColumn: target, orderColumn: "rowid")
        }
    }
}
