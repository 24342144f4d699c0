/// A filter condition through a relation, rendered as a subquery on the related entity.
struct RelatedFilter: Sendable {
    /// The related tables the condition reads (nested relations included), for observation.
    let tables: Set<String>
    let render: @Sendable (inout QuerySQL) throws(PersistenceError) -> Void
}

/// A sort key on a property of the entity a to-one relation refers to.
struct RelatedSort: Sendable, Hashable {
    /// The foreign-key column of the sorted entity.
    let column: String
    let target: ObjectIdentifier
    let targetName: String
}

extension ToOne {
    /// Matches `Source` rows whose referred `Target` row matches `filter`:
    /// `Book.author.has(Author.name == "Ursula K. Le Guin")`.
    ///
    /// Rows with a `nil` reference never match. The condition runs as a subquery on `Target`
    /// (using its indexes) whose identities the indexed foreign key then looks up.
    ///
    /// - Parameter filter: the condition on the referred row.
    /// - Returns: the filter on `Source`.
    public func has(_ filter: Filter<Target>) -> Filter<Source> {
        let column = self.column
        let tables = filter.relatedTables.union([Target.entityName])
        return Filter(
            .related(
                RelatedFilter(tables: tables) { (outer: inout QuerySQL) throws(PersistenceError) in
                    let target = try outer.schema(of: Target.self)
                    _ = try outer.schema.column(named: column, for: "a filter through a relation")
                    var inner = outer.nested(target)
                    inner.sql =
                        "\(outer.tableRef).\(quote(column)) IN (SELECT \(inner.tableRef).\(quote(target.idName)) FROM "
                        + "\(target.table) AS \(inner.tableRef) WHERE "
                    try inner.render(filter.node)
                    inner.sql += ")"
                    outer.absorb(inner)
                }))
    }

    /// Sorts `Source` rows by a property of the row they refer to, smallest first; rows with a
    /// `nil` reference come first.
    ///
    /// - Parameters:
    ///   - field: the property of `Target`.
    ///   - caseInsensitive: whether text is compared by its folded form (see ``Sort/caseInsensitive``).
    /// - Returns: the sort.
    public func ascending<Value>(_ field: Field<Target, Value>, caseInsensitive: Bool = false) -> Sort<Source> {
        Sort(
            column: field.name, descending: false, caseInsensitive: caseInsensitive,
            related: RelatedSort(column: column, target: ObjectIdentifier(Target.self), targetName: Target.entityName))
    }

    /// Sorts `Source` rows by a property of the row they refer to, largest first; rows with a
    /// `nil` reference come last.
    ///
    /// - Parameters:
    ///   - field: the property of `Target`.
    ///   - caseInsensitive: whether text is compared by its folded form (see ``Sort/caseInsensitive``).
    /// - Returns: the sort.
    public func descending<Value>(_ field: Field<Target, Value>, caseInsensitive: Bool = false) -> Sort<Source> {
        Sort(
            column: field.name, descending: true, caseInsensitive: caseInsensitive,
            related: RelatedSort(column: column, target: ObjectIdentifier(Target.self), targetName: Target.entityName))
    }
}

/// How a to-many condition or aggregate reaches the related rows from the outer row.
enum ManyPath: Sendable {
    /// Target rows whose column refers to the source's identity.
    case inverse(column: String)
    /// Target rows linked through a table of (source, target) columns. `uniquePairs` says whether
    /// a key of the table stores a pair once (a shorthand relation's link table, a join entity with
    /// a unique key over its references); otherwise a pair may be stored twice.
    case joined(RelationPath, uniquePairs: Bool)

    /// The FROM and WHERE of a subquery over the target rows related to the outer row, with the
    /// target aliased as `inner.tableRef`; the caller appends ` AND <condition>`, whose unqualified
    /// column names are the target's: no other table of the FROM shows a column of the link table
    /// or join entity under its own name (`source`, `position`, `id`).
    /// Each related target row is one row of the subquery, however many times a join entity links it.
    func from(_ outer: QuerySQL, _ inner: QuerySQL, target: EntitySchema) -> String {
        let outerID = "\(outer.tableRef).\(quote(outer.schema.idName))"
        let targetID = "\(inner.tableRef).\(quote(target.idName))"
        let join = "\(inner.tableRef)_j"
        switch self {
        case .inverse(let column):
            return "FROM \(target.table) AS \(inner.tableRef) WHERE \(inner.tableRef).\(quote(column)) = \(outerID)"
        case .joined(let path, true):
            // SQLite flattens the renaming subquery: the plan is the join's, led by the link table's key.
            return "FROM (SELECT \(quote(path.sourceColumn)) AS fk_link_source, \(quote(path.targetColumn)) AS "
                + "fk_link_target FROM \(quote(path.table))) AS \(join) JOIN \(target.table) AS \(inner.tableRef) "
                + "ON \(targetID) = \(join).fk_link_target WHERE \(join).fk_link_source = \(outerID)"
        case .joined(let path, false):
            // The identities the outer row links to, as a set: a pair stored twice counts once.
            return "FROM \(target.table) AS \(inner.tableRef) WHERE \(targetID) IN (SELECT "
                + "\(join).\(quote(path.targetColumn)) FROM \(quote(path.table)) AS \(join) WHERE "
                + "\(join).\(quote(path.sourceColumn)) = \(outerID))"
        }
    }
}

/// Builds the filters of to-many relations (``ToMany`` and ``ManyToMany``).
private enum ManyFilter {
    static func exists<Source, Target>(
        _ path: @escaping @Sendable (SchemaRegistry?) throws(PersistenceError) -> ManyPath, tables: Set<String>,
        _ filter: Filter<Target>?, negated: Bool
    ) -> Filter<Source> {
        subquery(path, tables: tables, filter, opening: (negated ? "NOT " : "") + "EXISTS (SELECT 1", closing: ")")
    }

    static func count<Source, Target>(
        _ path: @escaping @Sendable (SchemaRegistry?) throws(PersistenceError) -> ManyPath, tables: Set<String>,
        _ filter: Filter<Target>?
    ) -> RelatedCount<Source> {
        RelatedCount { op, value in
            subquery(
                path, tables: tables, filter, opening: "(SELECT COUNT(*)", closing: ") \(op) ?",
                argument: .integer(Int64(value)))
        }
    }

    /// A filter of `Source` rows by a subquery over their related `Target` rows: `opening`, the
    /// relation's `FROM`, the target rows' `filter`, then `closing` (and its `argument`).
    private static func subquery<Source, Target>(
        _ path: @escaping @Sendable (SchemaRegistry?) throws(PersistenceError) -> ManyPath, tables: Set<String>,
        _ filter: Filter<Target>?, opening: String, closing: String, argument: DatabaseValue? = nil
    ) -> Filter<Source> {
        Filter<Source>(
            .related(
                RelatedFilter(tables: tables.union(filter?.relatedTables ?? [])) {
                    (outer: inout QuerySQL) throws(PersistenceError) in
                    let target = try outer.schema(of: Target.self)
                    var inner = outer.nested(target)
                    let from = try path(outer.registry).from(outer, inner, target: target)
                    inner.sql = "\(opening) \(from)"
                    if let filter {
                        inner.sql += " AND "
                        try inner.render(filter.node)
                    }
                    inner.sql += closing
                    if let argument { inner.arguments.append(argument) }
                    outer.absorb(inner)
                }))
    }
}

extension ToMany {
    /// How a subquery reaches the related rows: by their reference to the outer row.
    var path: @Sendable (SchemaRegistry?) throws(PersistenceError) -> ManyPath {
        let column = inverseColumn
        return { (_: SchemaRegistry?) throws(PersistenceError) in .inverse(column: column) }
    }

    /// Matches `Source` rows with at least one related row matching `filter`:
    /// `Book.reviews.any(Review.stars > 4)`. Runs as `EXISTS` over the indexed foreign key.
    ///
    /// - Parameter filter: the condition on a related row.
    /// - Returns: the filter on `Source`.
    public func any(_ filter: Filter<Target>) -> Filter<Source> {
        ManyFilter.exists(path, tables: [Target.entityName], filter, negated: false)
    }

    /// Matches `Source` rows with at least one related row.
    public var isNotEmpty: Filter<Source> {
        ManyFilter.exists(path, tables: [Target.entityName], Filter<Target>?.none, negated: false)
    }

    /// Matches `Source` rows without related rows.
    public var isEmpty: Filter<Source> {
        ManyFilter.exists(path, tables: [Target.entityName], Filter<Target>?.none, negated: true)
    }

    /// Matches `Source` rows none of whose related rows matches `filter`.
    ///
    /// - Parameter filter: the condition on a related row.
    /// - Returns: the filter on `Source`.
    public func none(_ filter: Filter<Target>) -> Filter<Source> {
        ManyFilter.exists(path, tables: [Target.entityName], filter, negated: true)
    }

    /// The number of related rows, to compare with a number: `Author.books.count >= 3`.
    public var count: RelatedCount<Source> { ManyFilter.count(path, tables: [Target.entityName], Filter<Target>?.none) }

    /// The number of related rows matching `filter`, to compare with a number.
    ///
    /// - Parameter filter: the condition on a related row.
    /// - Returns: the count.
    public func count(where filter: Filter<Target>) -> RelatedCount<Source> {
        ManyFilter.count(path, tables: [Target.entityName], filter)
    }
}

extension ManyToMany {
    /// How a subquery reaches the linked rows: through the link table or the join entity, after
    /// checking that the store keeps it.
    var path: @Sendable (SchemaRegistry?) throws(PersistenceError) -> ManyPath {
        let relation = self
        return { (registry: SchemaRegistry?) throws(PersistenceError) in
            let path = try RelationPath.manyToMany(relation, registry: registry)
            switch relation.storage {
            case .link:
                // The link table's primary key is the pair.
                return .joined(path, uniquePairs: true)
            case .through(let join, _, let source, let target):
                // A join entity stores a pair once when a unique key covers it.
                let keys = registry?.byKey[join]?.uniqueKeys ?? []
                let unique = keys.contains { !$0.isEmpty && Set($0).isSubset(of: [source, target]) }
                return .joined(path, uniquePairs: unique)
            }
        }
    }

    private var tables: Set<String> {
        switch storage {
        case .link(let name):
            [Target.entityName, RelationDeclaration.linkTableName(source: Source.entityName, name: name)]
        case .through(_, let joinName, _, _): [Target.entityName, joinName]
        }
    }

    /// Matches `Source` rows linked to at least one row matching `filter`.
    ///
    /// - Parameter filter: the condition on a linked row.
    /// - Returns: the filter on `Source`.
    public func any(_ filter: Filter<Target>) -> Filter<Source> {
        ManyFilter.exists(path, tables: tables, filter, negated: false)
    }

    /// Matches `Source` rows linked to no row matching `filter`.
    ///
    /// - Parameter filter: the condition on a linked row.
    /// - Returns: the filter on `Source`.
    public func none(_ filter: Filter<Target>) -> Filter<Source> {
        ManyFilter.exists(path, tables: tables, filter, negated: true)
    }

    /// The number of linked rows, to compare with a number: `Book.tags.count >= 2`.
    ///
    /// A row linked twice (by two rows of a join entity without a ``UniqueKey`` over the pair)
    /// counts once.
    public var count: RelatedCount<Source> { ManyFilter.count(path, tables: tables, Filter<Target>?.none) }

    /// The number of linked rows matching `filter`, to compare with a number; a row linked twice
    /// counts once.
    ///
    /// - Parameter filter: the condition on a linked row.
    /// - Returns: the count.
    public func count(where filter: Filter<Target>) -> RelatedCount<Source> {
        ManyFilter.count(path, tables: tables, filter)
    }
}
