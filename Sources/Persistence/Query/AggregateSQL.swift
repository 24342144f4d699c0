import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

extension QuerySQL {
    /// The result columns of an aggregate, after checking that its property can be aggregated so.
    func aggregateColumns(_ spec: AggregateSpec) throws(PersistenceError) -> [String] {
        guard let name = spec.column else { return ["COUNT(*)"] }
        let column = try schema.column(named: name, for: "an aggregate")
        let quoted = quote(name)
        switch spec.function {
        case .countRows, .count:
            return ["COUNT(\(quoted))"]
        case .sum, .average:
            guard [.integer, .double, .float].contains(column.kind) else {
                throw cannotAggregate(column, "\(spec.function.name) takes a number")
            }
            return ["\(spec.function == .sum ? "SUM" : "AVG")(\(quoted))", "COUNT(\(quoted))"]
        case .min, .max:
            guard column.kind != .json, column.kind != .decimal else {
                throw cannotAggregate(
                    column,
                    "\(spec.function.name) compares stored values, and "
                        + (column.kind == .json ? "JSON text" : "a Decimal's text") + " does not order by value")
            }
            let function = spec.function == .min ? "MIN" : "MAX"
            guard spec.caseInsensitive, column.kind == .string else { return ["\(function)(\(quoted))"] }
            // Ordered by the folded text, then the text: the hex digits of the folded text keep its
            // byte order, and '-' sorts before every hex digit, so a folded text sorts before the
            // folded texts it begins. The text itself follows the first '-'.
            let ordered = "\(function)(hex(\(foldedExpression(name))) || '-' || \(quoted))"
            return ["CAST(substr(CAST(\(ordered) AS BLOB), instr(\(ordered), '-') + 1) AS TEXT)"]
        }
    }

    /// The error for a property an aggregate or a grouping cannot use.
    func cannotAggregate(_ column: ColumnSchema, _ reason: String) -> PersistenceError {
        PersistenceError(
            .invalidQuery,
            "\(schema.entityName).\(column.name) (\(column.swiftType), stored as "
                + "\(column.kind == .json ? "JSON text" : column.kind.label)) cannot be used here: \(reason). "
                + "Aggregate or group by a property of its own, or fetch the entities and compute it in Swift.",
            entity: schema.entityName, property: column.name)
    }

    /// How rows are grouped by a key, and the value each group reports for it: text of a property
    /// with a case-insensitive index groups by its folded form and reports the group's smallest text
    /// by code point; a key through a to-one relation groups by the referred row (its foreign key) or
    /// by a property of it, read by a lookup of the referred row's identity.
    func groupKey(_ key: GroupKey) throws(PersistenceError) -> (group: String, select: String, folded: Bool) {
        switch key {
        case .column(let name):
            let column = try schema.column(named: name, for: "a grouping")
            guard column.kind != .json else {
                throw cannotAggregate(
                    column, "rows group by equal stored values, and equal values can differ as JSON text")
            }
            if column.kind == .string, schema.foldName(of: name) != nil {
                return (foldedExpression(name), "MIN(\(quote(name)))", true)
            }
            return (quote(name), quote(name), false)
        case .related(let via, nil):
            _ = try relatedTarget(via, for: "a grouping")
            return (quote(via.column), quote(via.column), false)
        case .related(let via, let name?):
            let target = try relatedTarget(via, for: "a grouping")
            let column = try target.column(named: name, for: "a grouping through a relation")
            guard column.kind != .json else {
                throw QuerySQL(schema: target).cannotAggregate(
                    column, "rows group by equal stored values, and equal values can differ as JSON text")
            }
            let value = relatedValue(via, target, quote(name))
            if column.kind == .string, let fold = target.foldName(of: name) {
                return (relatedValue(via, target, quote(fold)), "MIN(\(value))", true)
            }
            return (value, value, false)
        }
    }

    /// The schema of the entity a to-one relation of this one refers to, after checking that this
    /// entity stores the relation's foreign key.
    func relatedTarget(_ via: RelatedSort, for use: String) throws(PersistenceError) -> EntitySchema {
        _ = try schema.column(named: via.column, for: use)
        guard let target = registry?.byKey[via.target] else {
            throw PersistenceError(
                .misuse,
                "\(schema.entityName).\(via.column) refers to \(via.targetName), which is not one of this store's "
                    + "entities, so \(use) cannot go through it. Pass \(via.targetName).self in the entities list "
                    + "when opening the ObjectStore.", entity: schema.entityName, property: via.column)
        }
        return target
    }

    /// A correlated subquery reading `expression` (a column of `target`) from the row the relation
    /// `via` refers to; `NULL` for a `nil` reference. It looks the row up by its identity.
    func relatedValue(_ via: RelatedSort, _ target: EntitySchema, _ expression: String) -> String {
        let inner = nested(target).tableRef
        return "(SELECT \(expression) FROM \(target.table) AS \(inner) WHERE \(inner).\(quote(target.idName)) = "
            + "\(tableRef).\(quote(via.column)))"
    }

    /// The SQL of a grouped query: the keys' values, then each aggregate's columns, per group.
    ///
    /// A key through a to-one relation leaves out the rows whose reference is `nil`. With
    /// `selecting`, only that key's value is selected (for a subquery of the groups' keys). The rows
    /// grouped are those `rows` selects: its filter, and its window when it has one.
    static func groups<E>(
        keys: [GroupKey], aggregates: [AggregateSpec], rows: Query<E>, having: GroupFilter<E>?,
        sort: [GroupSort<E>], limit: Int?, schema: EntitySchema, selecting: Int? = nil
    ) throws(PersistenceError) -> QuerySQL {
        var builder = QuerySQL(schema: schema)
        var groups: [String] = []
        var folded: [Bool] = []
        var selects: [String] = []
        var conditions: [String] = []
        for key in keys {
            let (group, select, isFolded) = try builder.groupKey(key)
            groups.append(group)
            folded.append(isFolded)
            selects.append(select)
            if case .related(let via, _) = key {
                let condition = "\(quote(via.column)) IS NOT NULL"
                if !conditions.contains(condition) { conditions.append(condition) }
            }
        }
        for spec in aggregates {
            let columns = try builder.aggregateColumns(spec)
            if selecting == nil { selects += columns }
        }
        if let selecting { selects = [selects[selecting]] }
        builder.sql = "SELECT \(selects.joined(separator: ", ")) FROM \(schema.table)"
        if !conditions.isEmpty || rows.selection != nil {
            builder.sql += " WHERE " + conditions.joined(separator: " AND ")
            if let filter = rows.selection {
                builder.sql += conditions.isEmpty ? "" : " AND "
                try builder.render(filter.node)
            }
        }
        builder.sql += " GROUP BY " + groups.joined(separator: ", ")
        if let having {
            builder.sql += " HAVING "
            try builder.render(having.node)
        }
        var order: [String] = []
        for item in sort {
            let expression: String
            switch item.key {
            case .aggregate(let spec):
                expression = try builder.aggregateColumns(spec)[0]
            case .key(let name, let caseInsensitive, let relevance, let related):
                expression = try builder.groupOrder(
                    E.self, name, caseInsensitive: caseInsensitive, relevance: relevance, related: related, keys: keys,
                    groups: groups, folded: folded, descending: item.descending)
            }
            order.append(expression + (item.descending ? " DESC" : " ASC"))
        }
        // Then by the keys: every group has its own, so the order is complete.
        order += groups.map { $0 + " ASC" }
        builder.sql += " ORDER BY " + order.joined(separator: ", ")
        builder.appendWindow(limit: limit, offset: 0)
        return builder
    }

    /// The expression a sort by a grouping key orders groups by: the key's own, or its folded
    /// text; a property of the row a to-one relation refers to may sort groups whose keys include
    /// that relation's reference itself (its column, or the referred row), as every row of such a
    /// group refers to the same row.
    private mutating func groupOrder<E: StoredEntity>(
        _ type: E.Type, _ name: String, caseInsensitive: Bool, relevance: Bool, related: RelatedSort?, keys: [GroupKey],
        groups: [String], folded: [Bool], descending: Bool
    ) throws(PersistenceError) -> String {
        let wanted: GroupKey = related.map { .related($0, name) } ?? .column(name)
        let position =
            relevance
            ? nil
            : keys.firstIndex { key in
                if key == wanted { return true }
                // The referred row itself is grouped by its reference.
                if related == nil, case .related(let via, nil) = key { return via.column == name }
                return false
            }
        if let position {
            guard let related else {
                let column = try schema.column(named: name, for: "a sort")
                let fold = caseInsensitive && column.kind == .string && !folded[position]
                return fold ? foldedExpression(name) : groups[position]
            }
            let target = try relatedTarget(related, for: "a sort")
            let column = try target.column(named: name, for: "a sort")
            guard caseInsensitive, column.kind == .string, !folded[position] else { return groups[position] }
            return relatedValue(related, target, nested(target).foldedExpression(name))
        }
        if let related, !relevance,
            keys.contains(where: { key in
                switch key {
                case .column(let column): column == related.column
                // Keyed by the reference itself; a group keyed by a property of the referred row
                // may hold rows that refer to different rows.
                case .related(let via, let field): field == nil && via.column == related.column
                }
            })
        {
            return try sortExpression(
                Sort<E>(column: name, descending: descending, caseInsensitive: caseInsensitive, related: related))
        }
        let described = keys.map(\.label).joined(separator: ", ")
        let label = related.map { "\($0.targetName).\(name) through \(schema.entityName).\($0.column)" } ?? "'\(name)'"
        throw PersistenceError(
            .misuse,
            "Groups of \(schema.entityName) are sorted by \(label)"
                + (relevance ? "'s relevance, which orders rows, not groups" : ", which is not one of their keys")
                + " (\(described)). Sort by a key or by an aggregate.",
            entity: schema.entityName, property: related?.column ?? name)
    }
}

/// What a grouped query groups by.
enum GroupKey: Sendable, Hashable {
    /// A property of the grouped entity.
    case column(String)
    /// The row a to-one relation refers to (by its reference), or, with a name, a property of that row.
    case related(RelatedSort, String?)

    /// The key as messages name it.
    var label: String {
        switch self {
        case .column(let name): name
        case .related(let via, nil): "\(via.column) (\(via.targetName))"
        case .related(let via, let name?): "\(via.targetName).\(name) through \(via.column)"
        }
    }
}

/// Reads one row of an aggregate or grouped query, column by column, into typed values.
final class AggregateReader {
    let statement: Statement
    let schema: EntitySchema
    private var index: Int32 = 0
    private lazy var json = StoreJSON.makeDecoder()

    init(statement: Statement, schema: EntitySchema) {
        self.statement = statement
        self.schema = schema
    }

    /// Starts reading a new row, at column `position`.
    func rewind(to position: Int32 = 0) { index = position }

    private func take(_ count: Int32) -> Int32 {
        defer { index += count }
        return index
    }

    func count() -> Int { Int(statement.int64(take(1))) }

    /// The next column's value as SQLite holds it.
    func raw() -> DatabaseValue { statement.value(at: take(1)) }

    /// A value of the property `name`, of type `T` (an `Optional` reads `NULL` as `nil`).
    func value<T: Decodable>(_ type: T.Type, of name: String) throws(PersistenceError) -> T {
        try value(T.self, of: name, in: schema)
    }

    /// A value of the property `name` of the entity `schema` describes (the grouped entity, or one
    /// a relation refers to), of type `T`.
    func value<T: Decodable>(
        _ type: T.Type, of name: String, in schema: EntitySchema
    ) throws(PersistenceError) -> T {
        let at = take(1)
        let column = try schema.column(named: name, for: "an aggregate")
        if statement.isNull(at) {
            guard let none = (T.self as? any OptionalMarker.Type)?.none as? T else {
                throw PersistenceError(
                    .typeMismatch,
                    "\(schema.entityName).\(name) (\(column.swiftType)) has a NULL value; the row was changed outside "
                        + "the entity's own writes. Fix it with a Migration.",
                    entity: schema.entityName, property: name)
            }
            return none
        }
        if let optional = T.self as? any OptionalValueReading.Type {
            guard let value = try optional.readWrapped(self, at, column, schema) as? T else {
                throw PersistenceError(
                    .typeMismatch, "\(schema.entityName).\(name) could not be read as \(T.self).",
                    entity: schema.entityName, property: name)
            }
            return value
        }
        return try read(T.self, at, column, schema)
    }

    func read<T: Decodable>(
        _ type: T.Type, _ at: Int32, _ column: ColumnSchema, _ schema: EntitySchema
    ) throws(PersistenceError) -> T {
        do {
            return try withUnsafePointer(to: column) { column throws(RawFallback) in
                try ValueCoding.ownType(
                    T.self, at: at, stored: sqlite3_column_type(statement.handle, at), handle: statement.handle, column)
            }
        } catch {
            return try ValueCoding.read(
                T.self, at: at, handle: statement.handle, column: column, schema: schema, json: json)
        }
    }

    /// A sum of type `N`: zero for no values, NaN for a floating-point sum SQLite reports as `NULL`.
    func sum<N>(_ type: N.Type, of name: String) throws(PersistenceError) -> N {
        let at = take(2)
        let value = statement.value(at: at)
        let counted = statement.int64(at + 1)
        func overflow(_ detail: String) -> PersistenceError {
            PersistenceError(
                .overflow,
                "The sum of \(schema.entityName).\(name) over \(counted) rows is \(detail), which does not fit in "
                    + "\(N.self). Sum fewer rows, or sum a property of a wider type.",
                entity: schema.entityName, property: name)
        }
        if let integer = N.self as? any FixedWidthInteger.Type {
            guard case .integer(let total) = value else {
                if value == .null, let zero = integer.init(exactly: 0) as? N { return zero }
                throw overflow("\(value)")
            }
            guard let exact = integer.init(exactly: total) as? N else { throw overflow(String(total)) }
            return exact
        }
        if let floating = N.self as? any BinaryFloatingPoint.Type {
            let double: Double
            switch value {
            case .integer(let total): double = Double(total)
            case .real(let total): double = total
            default: double = counted > 0 ? .nan : 0
            }
            if let result = floating.init(double) as? N { return result }
        }
        throw PersistenceError(
            .misuse,
            "\(schema.entityName).\(name) is summed as \(N.self), which is neither an integer nor a "
                + "floating-point type.", entity: schema.entityName, property: name)
    }

    /// An average: `nil` for no values, NaN for a result SQLite reports as `NULL`.
    func average() -> Double? {
        let at = take(2)
        if statement.isNull(at) { return statement.int64(at + 1) > 0 ? .nan : nil }
        return statement.double(at)
    }
}

/// Lets a reader read the value inside an `Optional` type it only knows at run time.
protocol OptionalValueReading {
    static func readWrapped(
        _ reader: AggregateReader, _ at: Int32, _ column: ColumnSchema, _ schema: EntitySchema
    ) throws(PersistenceError) -> Self
}

extension Optional: OptionalValueReading where Wrapped: Decodable {
    static func readWrapped(
        _ reader: AggregateReader, _ at: Int32, _ column: ColumnSchema, _ schema: EntitySchema
    ) throws(PersistenceError) -> Self {
        .some(try reader.read(Wrapped.self, at, column, schema))
    }
}
