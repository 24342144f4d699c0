/// A test of a ``QueryExpression``'s value, as the comparison operators, ``QueryExpression/isIn(_:)``
/// and the null checks make it.
public struct ExpressionTest: Sendable {
    enum Kind: Sendable {
        /// `value` compared with `op`; a `NULL` value means a null check for `=` and `!=`.
        case compare(Comparison, DatabaseValue)
        /// One of `values`.
        case inList([DatabaseValue])
        /// `IS NULL`, or `IS NOT NULL` when negated.
        case isNull(negated: Bool)
    }

    enum Comparison: Sendable {
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    }

    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }
}
