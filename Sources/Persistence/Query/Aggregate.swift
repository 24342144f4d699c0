import Foundation

/// A value computed over many rows, typed by what it computes: a count, a sum, an average, a
/// minimum or a maximum of a property.
///
/// Make aggregates from a ``Field`` (``Field/sum()``, ``Field/average()``,
/// ``Field/min(caseInsensitive:)``, ``Field/max(caseInsensitive:)``, ``Field/count()``) or count
/// rows with ``count(of:)``; compute one with ``ObjectTransaction/aggregate(_:where:)`` or one per
/// group with ``ObjectTransaction/groups(_:by:aggregating:having:sortedBy:limit:)``, filter
/// groups by them (`Book.pages.sum() > 1_000`) and sort groups by them
/// (``ascending()``, ``descending()``).
///
/// ```swift
/// let perAuthor = try tx.groups(
///     by: Book.author, aggregating: Aggregate.count(of: Book.self), Book.rating.average())
/// for (author, books, rating) in perAuthor { print(author, books, rating ?? 0) }
/// ```
public struct Aggregate<Entity: StoredEntity, Value>: Sendable {
    let spec: AggregateSpec
    let read: @Sendable (AggregateReader) throws(PersistenceError) -> Value

    init(_ spec: AggregateSpec, read: @escaping @Sendable (AggregateReader) throws(PersistenceError) -> Value) {
        self.spec = spec
        self.read = read
    }

    /// Sorts groups by this aggregate, smallest first (`NULL`, an empty group's average, first).
    ///
    /// - Returns: the sort key.
    public func ascending() -> GroupSort<Entity> { GroupSort(.aggregate(spec), descending: false) }

    /// Sorts groups by this aggregate, largest first (`NULL`, an empty group's average, last).
    ///
    /// - Returns: the sort key.
    public func descending() -> GroupSort<Entity> { GroupSort(.aggregate(spec), descending: true) }
}

extension Aggregate where Value == Int {
    /// The number of rows (SQL `COUNT(*)`).
    ///
    /// - Parameter type: the entity whose rows to count.
    /// - Returns: the aggregate.
    public static func count(of type: Entity.Type) -> Aggregate<Entity, Int> {
        Aggregate(AggregateSpec(.countRows, column: nil)) { reader throws(PersistenceError) in reader.count() }
    }
}

extension Field {
    /// The number of rows whose property has a value: rows where it is `nil` are not counted
    /// (SQL `COUNT(property)`).
    ///
    /// - Returns: the aggregate.
    public func count() -> Aggregate<Entity, Int> {
        Aggregate(AggregateSpec(.count, column: name)) { reader throws(PersistenceError) in reader.count() }
    }
}

extension Field where Value: AggregatableValue {
    /// The smallest value of the property, `nil` when no row has one.
    ///
    /// Values compare as ``Sort`` orders them: numbers by value, text by code point, or by its
    /// folded form with `caseInsensitive` (see ``Sort/caseInsensitive``), texts of the same folded
    /// form by code point, so `min(caseInsensitive: true)` of "apple", "Banana", "Apple" is "Apple".
    /// `nil` values are skipped.
    ///
    /// - Parameter caseInsensitive: whether text compares by its folded form.
    /// - Returns: the aggregate.
    public func min(caseInsensitive: Bool = false) -> Aggregate<Entity, Value.Unwrapped?> {
        extreme(.min, caseInsensitive)
    }

    /// The largest value of the property, `nil` when no row has one.
    ///
    /// Values compare as for ``min(caseInsensitive:)``; texts of the same folded form by code
    /// point, so `max(caseInsensitive: true)` of "apple", "Apple" is "apple".
    ///
    /// - Parameter caseInsensitive: whether text compares by its folded form.
    /// - Returns: the aggregate.
    public func max(caseInsensitive: Bool = false) -> Aggregate<Entity, Value.Unwrapped?> {
        extreme(.max, caseInsensitive)
    }

    private func extreme(
        _ function: AggregateSpec.Function, _ caseInsensitive: Bool
    ) -> Aggregate<
        Entity, Value.Unwrapped?
    > {
        let name = self.name
        return Aggregate(AggregateSpec(function, column: name, caseInsensitive: caseInsensitive)) {
            reader throws(PersistenceError) in
            try reader.value(Value.Unwrapped?.self, of: name)
        }
    }
}

extension Field where Value: AggregatableValue, Value.Unwrapped: Numeric {
    /// The sum of the property's values, of the property's own type; `nil` values are skipped,
    /// and no value at all sums to zero.
    ///
    /// Integers are summed exactly: a sum beyond the property's type (or SQLite's 64-bit
    /// integers) throws ``PersistenceError/Code-swift.struct/overflow`` naming the property, it never
    /// wraps. Floating-point numbers are summed by SQLite in double precision, and the result is
    /// the double it computes (a `Float` property's sum is that double rounded to a `Float`);
    /// `infinity` and `-infinity` together sum to NaN.
    ///
    /// - Returns: the aggregate.
    public func sum() -> Aggregate<Entity, Value.Unwrapped> {
        let name = self.name
        return Aggregate(AggregateSpec(.sum, column: name)) { reader throws(PersistenceError) in
            try reader.sum(Value.Unwrapped.self, of: name)
        }
    }

    /// The mean of the property's values, `nil` when no row has one; `nil` values are skipped.
    ///
    /// SQLite computes it in double precision (SQL `AVG`), for integers too.
    ///
    /// - Returns: the aggregate.
    public func average() -> Aggregate<Entity, Double?> {
        Aggregate(AggregateSpec(.average, column: name)) { reader throws(PersistenceError) in reader.average() }
    }
}

/// What an aggregate computes, without its value type: how its SQL is rendered.
struct AggregateSpec: Sendable, Hashable {
    enum Function: Sendable, Hashable {
        case countRows, count, sum, average, min, max

        var name: String {
            switch self {
            case .countRows, .count: "count"
            case .sum: "sum"
            case .average: "average"
            case .min: "min"
            case .max: "max"
            }
        }
    }

    let function: Function
    let column: String?
    let caseInsensitive: Bool

    init(_ function: Function, column: String?, caseInsensitive: Bool = false) {
        self.function = function
        self.column = column
        self.caseInsensitive = caseInsensitive
    }
}
