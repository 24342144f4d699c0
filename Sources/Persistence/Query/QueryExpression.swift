/// Something a filter tests: a stored property (``Field``, optional or not), a property through
/// a to-one relation (``RelatedField``), a count of related rows (``RelatedCount``), or an
/// aggregate of a grouped query (``Aggregate``).
///
/// The comparisons `==`, `!=`, `<`, `<=`, `>`, `>=`, ``isIn(_:)``, ``isNil`` and ``isNotNil``
/// are declared once, for every kind of expression; each makes the expression's ``Condition``:
/// a ``Filter`` of rows, or a ``GroupFilter`` of groups for an aggregate.
///
/// ```swift
/// let good = try tx.fetch(Query<Book>(where: Book.rating >= 4 && Book.author.name == "Frank Herbert"))
/// let busy = try tx.fetch(Query<Author>(where: Author.books.count >= 3))
/// let prolific = Aggregate.count(of: Book.self) >= 3
/// ```
///
/// `== nil` and ``isNil`` match a `NULL` value; every other comparison with an optional value
/// never matches `NULL`, as in SQL. The package's own types conform; there is nothing to implement.
public protocol QueryExpression<Value>: Sendable {
    /// The type of the value the expression stands for.
    associatedtype Value
    /// What a test of the expression makes: a ``Filter`` of rows or a ``GroupFilter`` of groups.
    associatedtype Condition

    /// The condition that `test` holds for this expression's value.
    ///
    /// - Parameter test: a comparison, a list of accepted values or a null check.
    /// - Returns: the condition.
    func condition(_ test: ExpressionTest) -> Condition
}

extension QueryExpression where Value: QueryableValue {
    /// Matches when the value is one of `values` (SQL `IN`; a `nil` among them matches `NULL`).
    ///
    /// - Parameter values: the accepted values; an empty list matches nothing.
    /// - Returns: the condition.
    public func isIn(_ values: some Sequence<Value>) -> Condition {
        condition(ExpressionTest(.inList(values.map(\.databaseValue))))
    }
}

extension QueryExpression where Value: ExpressibleByNilLiteral {
    /// Matches when the optional value is `nil` (SQL `IS NULL`).
    public var isNil: Condition { condition(ExpressionTest(.isNull(negated: false))) }
    /// Matches when the optional value is not `nil` (SQL `IS NOT NULL`).
    public var isNotNil: Condition { condition(ExpressionTest(.isNull(negated: true))) }
}

/// Matches when the expression's value equals `value` (`== nil` matches `NULL`).
///
/// Text compares exactly (code point by code point); use ``Field/equals(_:caseSensitive:)`` to
/// ignore case and diacritics. On a property with a case-insensitive ``EntityIndex`` an exact
/// comparison still uses that index.
///
/// - Parameters:
///   - lhs: a field, a field through a relation, a count of related rows or an aggregate.
///   - rhs: the value to compare with.
/// - Returns: the condition.
public func == <X: QueryExpression>(lhs: X, rhs: X.Value) -> X.Condition where X.Value: QueryableValue {
    lhs.condition(ExpressionTest(.compare(.equal, rhs.databaseValue)))
}

/// Matches when the expression's value differs from `value` (`!= nil` matches non-`NULL`; a
/// `NULL` value differs from every other value).
///
/// - Parameters:
///   - lhs: a field, a field through a relation, a count of related rows or an aggregate.
///   - rhs: the value to compare with.
/// - Returns: the condition.
public func != <X: QueryExpression>(lhs: X, rhs: X.Value) -> X.Condition where X.Value: QueryableValue {
    lhs.condition(ExpressionTest(.compare(.notEqual, rhs.databaseValue)))
}

/// Matches when the expression's value is less than `value`.
///
/// - Parameters:
///   - lhs: a field, a field through a relation, a count of related rows or an aggregate.
///   - rhs: the bound.
/// - Returns: the condition.
public func < <X: QueryExpression>(lhs: X, rhs: X.Value) -> X.Condition where X.Value: QueryableValue & Comparable {
    lhs.condition(ExpressionTest(.compare(.less, rhs.databaseValue)))
}

/// Matches when the expression's value is at most `value`.
///
/// - Parameters:
///   - lhs: a field, a field through a relation, a count of related rows or an aggregate.
///   - rhs: the bound.
/// - Returns: the condition.
public func <= <X: QueryExpression>(lhs: X, rhs: X.Value) -> X.Condition where X.Value: QueryableValue & Comparable {
    lhs.condition(ExpressionTest(.compare(.lessOrEqual, rhs.databaseValue)))
}

/// Matches when the expression's value is greater than `value`.
///
/// - Parameters:
///   - lhs: a field, a field through a relation, a count of related rows or an aggregate.
///   - rhs: the bound.
/// - Returns: the condition.
public func > <X: QueryExpression>(lhs: X, rhs: X.Value) -> X.Condition where X.Value: QueryableValue & Comparable {
    lhs.condition(ExpressionTest(.compare(.greater, rhs.databaseValue)))
}

/// Matches when the expression's value is at least `value`.
///
/// - Parameters:
///   - lhs: a field, a field through a relation, a count of related rows or an aggregate.
///   - rhs: the bound.
/// - Returns: the condition.
public func >= <X: QueryExpression>(lhs: X, rhs: X.Value) -> X.Condition where X.Value: QueryableValue & Comparable {
    lhs.condition(ExpressionTest(.compare(.greaterOrEqual, rhs.databaseValue)))
}

/// Matches when the optional value is less than `value` (`NULL` never matches).
///
/// - Parameters:
///   - lhs: an optional field, a field through a relation, or an aggregate that may be `nil`.
///   - rhs: the bound.
/// - Returns: the condition.
public func < <X: QueryExpression, W: QueryableValue & Comparable>(lhs: X, rhs: W) -> X.Condition where X.Value == W? {
    lhs.condition(ExpressionTest(.compare(.less, rhs.databaseValue)))
}

/// Matches when the optional value is at most `value` (`NULL` never matches).
///
/// - Parameters:
///   - lhs: an optional field, a field through a relation, or an aggregate that may be `nil`.
///   - rhs: the bound.
/// - Returns: the condition.
public func <= <X: QueryExpression, W: QueryableValue & Comparable>(lhs: X, rhs: W) -> X.Condition where X.Value == W? {
    lhs.condition(ExpressionTest(.compare(.lessOrEqual, rhs.databaseValue)))
}

/// Matches when the optional value is greater than `value` (`NULL` never matches).
///
/// - Parameters:
///   - lhs: an optional field, a field through a relation, or an aggregate that may be `nil`.
///   - rhs: the bound.
/// - Returns: the condition.
public func > <X: QueryExpression, W: QueryableValue & Comparable>(lhs: X, rhs: W) -> X.Condition where X.Value == W? {
    lhs.condition(ExpressionTest(.compare(.greater, rhs.databaseValue)))
}

/// Matches when the optional value is at least `value` (`NULL` never matches).
///
/// - Parameters:
///   - lhs: an optional field, a field through a relation, or an aggregate that may be `nil`.
///   - rhs: the bound.
/// - Returns: the condition.
public func >= <X: QueryExpression, W: QueryableValue & Comparable>(lhs: X, rhs: W) -> X.Condition where X.Value == W? {
    lhs.condition(ExpressionTest(.compare(.greaterOrEqual, rhs.databaseValue)))
}

// MARK: - The conformances

extension ExpressionTest.Comparison {
    /// The SQL operator for a non-`NULL` value (`!=` is `IS NOT`, which a `NULL` column matches).
    var sql: String {
        switch self {
        case .equal: "="
        case .notEqual: "IS NOT"
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        }
    }
}

extension Field: QueryExpression {
    /// A filter of this property's rows.
    public typealias Condition = Filter<Entity>

    /// The filter that `test` holds for this property.
    ///
    /// - Parameter test: a comparison, a list of accepted values or a null check.
    /// - Returns: the filter.
    public func condition(_ test: ExpressionTest) -> Filter<Entity> {
        switch test.kind {
        case .compare(.equal, .null): Filter(.isNull(column: name, negated: false))
        case .compare(.notEqual, .null): Filter(.isNull(column: name, negated: true))
        case .compare(let comparison, let value): Filter(.compare(column: name, op: comparison.sql, value: value))
        case .inList(let values): Filter(.inList(column: name, values: values))
        case .isNull(let negated): Filter(.isNull(column: name, negated: negated))
        }
    }
}

extension RelatedField: QueryExpression {
    /// A filter of the referring entity's rows.
    public typealias Condition = Filter<Source>

    /// The filter of rows whose referred row passes `test` (a row with a `nil` reference matches none).
    ///
    /// - Parameter test: a comparison, a list of accepted values or a null check.
    /// - Returns: the filter.
    public func condition(_ test: ExpressionTest) -> Filter<Source> {
        relation.has(field.condition(test))
    }
}

extension RelatedCount: QueryExpression {
    /// A count is an `Int`.
    public typealias Value = Int
    /// A filter of the counting entity's rows.
    public typealias Condition = Filter<Source>

    /// The filter of rows whose number of related rows passes `test`.
    ///
    /// - Parameter test: a comparison or a list of accepted counts (a count is never `nil`).
    /// - Returns: the filter.
    public func condition(_ test: ExpressionTest) -> Filter<Source> {
        func count(_ value: DatabaseValue) -> Int? {
            if case .integer(let count) = value { return Int(exactly: count) }
            return nil
        }
        switch test.kind {
        case .compare(let comparison, let value):
            guard let value = count(value) else { return comparison == .notEqual ? .all : .nothing }
            return make(comparison == .notEqual ? "!=" : comparison.sql, value)
        case .inList(let values):
            return values.compactMap(count).map { make("=", $0) }.reduce(Filter<Source>.nothing) { $0 || $1 }
        case .isNull(let negated):
            return negated ? .all : .nothing
        }
    }
}

extension Aggregate: QueryExpression {
    /// A condition on the groups.
    public typealias Condition = GroupFilter<Entity>

    /// The condition on the groups that their aggregate passes `test`.
    ///
    /// - Parameter test: a comparison, a list of accepted values or a null check.
    /// - Returns: the condition.
    public func condition(_ test: ExpressionTest) -> GroupFilter<Entity> {
        switch test.kind {
        case .compare(let comparison, let value):
            return GroupFilter(.aggregate(spec, op: comparison.sql, value: value))
        case .inList(let values):
            return values.map { GroupFilter(.aggregate(spec, op: "=", value: $0)) }
                .reduce(GroupFilter(.constant(false))) { $0 || $1 }
        case .isNull(let negated):
            return GroupFilter(.aggregate(spec, op: negated ? "IS NOT" : "=", value: .null))
        }
    }
}
