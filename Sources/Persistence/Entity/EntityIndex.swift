/// An index over one or more properties, declared by an entity to speed up filters and sorts.
public struct EntityIndex<Entity: StoredEntity>: Sendable, Hashable {
    /// The names of the indexed columns, in order.
    public let columns: [String]
    /// Whether the index holds text by its folded form (see ``Sort/caseInsensitive``), to serve
    /// case-insensitive sorts and filters.
    public let caseInsensitive: Bool

    /// Declares an index over one or more fields.
    ///
    /// - Parameters:
    ///   - fields: the indexed fields, in order.
    ///   - caseInsensitive: whether text is indexed by its folded form, ignoring case and
    ///     diacritics, to serve sorts with ``Sort/caseInsensitive`` and the case-insensitive
    ///     ``Field/equals(_:caseSensitive:)``, ``Field/hasPrefix(_:caseSensitive:)`` filters
    ///     (and `==`). The store keeps the folded text in a hidden column,
    ///     `fk_fold_<property>`, which it indexes; the file stays readable by any SQLite tool.
    public init<each Value>(_ fields: repeat Field<Entity, each Value>, caseInsensitive: Bool = false) {
        var names: [String] = []
        for field in repeat each fields { names.append(field.name) }
        columns = names
        self.caseInsensitive = caseInsensitive
    }
}
