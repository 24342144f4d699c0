/// One section of a sectioned query: the rows that share a key, in the query's order.
///
/// A row is what the query reads: an entity for a ``Query``, a tuple for an ``IncludingQuery``
/// such as `Query<Book>().including(Book.author)`.
public struct QuerySection<Key: Hashable & Sendable, Row: Sendable>: Sendable, Identifiable {
    /// The value the section's rows share.
    public let key: Key
    /// The section's rows, in the query's order.
    public let rows: [Row]
    /// The section's key, which identifies it among the sections.
    public var id: Key { key }

    /// Splits `rows` by their keys (`keys[i]` is `rows[i]`'s): sections in the order of their first
    /// rows, each holding its rows in their order.
    static func sections(of rows: [Row], keys: [Key]) -> [QuerySection] {
        var order: [Key] = []
        var members: [Key: [Row]] = [:]
        for (row, value) in zip(rows, keys) {
            if members[value] == nil { order.append(value) }
            members[value, default: []].append(row)
        }
        return order.map { QuerySection(key: $0, rows: members[$0] ?? []) }
    }
}

/// Splits observed results into sections and computes the per-section changes between deliveries.
struct Sectioner<Key: Hashable & Sendable, Entity: StoredEntity>: Sendable {
    /// The keys and row identities of the last delivery.
    private var previous: [(key: Key, ids: [Entity.ID])] = []

    /// Sections `change`'s results by their keys (`keys[i]` is `change.results[i]`'s) and diffs them
    /// with the previous delivery's sections.
    mutating func section(_ change: QueryChange<Entity>, keys: [Key]) -> SectionedChange<Key, Entity> {
        let sections = QuerySection.sections(of: change.results, keys: keys)
        let order = sections.map(\.key)
        let updatedIDs = Set(change.changes.updated.map { change.results[$0].id })
        var oldSections: [Key: [Entity.ID]] = [:]
        for section in previous { oldSections[section.key] = section.ids }

        var rowChanges: [ChangeSet] = []
        var changedSections: [Int] = []
        for (position, section) in sections.enumerated() {
            let ids = section.rows.map(\.id)
            guard let old = oldSections[section.key] else {
                rowChanges.append(ChangeSet(inserted: Array(ids.indices)))
                continue
            }
            var rows = Self.diff(old, ids)
            let kept = Set(old)
            rows.updated = ids.indices.filter { updatedIDs.contains(ids[$0]) && kept.contains(ids[$0]) }
            if !rows.isEmpty { changedSections.append(position) }
            rowChanges.append(rows)
        }
        var sectionChanges = Self.diff(previous.map(\.key), order)
        sectionChanges.updated = changedSections
        previous = sections.map { ($0.key, $0.rows.map(\.id)) }
        return SectionedChange(
            sections: sections, sectionChanges: sectionChanges, rowChanges: rowChanges, isInitial: change.isInitial)
    }

    /// Inserted, deleted and moved positions between two lists of identities.
    private static func diff<ID: Hashable>(_ old: [ID], _ new: [ID]) -> ChangeSet {
        let none = [[DatabaseValue]](repeating: [], count: Swift.max(old.count, new.count))
        return ChangeSet.diff(
            old: old, oldRows: Array(none.prefix(old.count)), new: new, newRows: Array(none.prefix(new.count)))
    }
}
