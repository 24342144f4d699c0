/// A change to one property of every row an update by filter touches: a new value, or an
/// amount added to a number.
///
/// Make assignments with ``Field/set(_:)``, `+=` and `-=`, and pass them to
/// ``ObjectTransaction/update(_:set:)``:
///
/// ```swift
/// try tx.update(Query<Book>(where: Book.pages > 500), set: [Book.pages += 1, Book.rating.set(nil)])
/// ```
public struct Assignment<Entity: StoredEntity>: Sendable {
    enum Change: Sendable {
        /// The property takes this value (checked and converted as an upsert does).
        case set(any QueryableValue)
        /// The property's value grows by this amount (`nil` stays `nil`).
        case add(DatabaseValue)
    }

    let column: String
    let change: Change
}

extension Field {
    /// Sets the property to `value` on every row an update touches.
    ///
    /// The value is checked as an upsert checks it: a NaN, or an integer beyond the property's
    /// type, refuses the whole update with ``PersistenceError/Code-swift.struct/unsupportedValue``
    /// naming the property.
    ///
    /// - Parameter value: the new value (`nil` for an optional property).
    /// - Returns: the assignment.
    public func set(_ value: Value) -> Assignment<Entity> {
        Assignment(column: name, change: .set(value))
    }
}

/// Adds `amount` to the numeric property of every row an update touches (`nil` stays `nil`).
///
/// A result beyond the property's type (or a NaN, from `infinity` and `-infinity`) refuses the
/// whole update with ``PersistenceError/Code-swift.struct/unsupportedValue`` naming the property. A
/// `Float` property cannot be changed so (its sums are computed in double precision); set it instead.
///
/// - Parameters:
///   - field: an integer or `Double` property, optional or not.
///   - amount: the amount to add.
/// - Returns: the assignment.
public func += <E, V: AggregatableValue>(field: Field<E, V>, amount: V.Unwrapped) -> Assignment<E>
where V.Unwrapped: Numeric {
    Assignment(column: field.name, change: .add(amount.databaseValue))
}

/// Subtracts `amount` from the numeric property of every row an update touches (`nil` stays `nil`).
///
/// As `+=`: a result beyond the property's type refuses the whole update.
///
/// - Parameters:
///   - field: an integer or `Double` property, optional or not.
///   - amount: the amount to subtract.
/// - Returns: the assignment.
public func -= <E, V: AggregatableValue>(field: Field<E, V>, amount: V.Unwrapped) -> Assignment<E>
where V.Unwrapped: Numeric {
    let negated: DatabaseValue
    switch amount.databaseValue {
    case .integer(let value):
        // -Int64.min does not exist: subtracting it is adding a value no property can absorb.
        negated = value == .min ? .real(9_223_372_036_854_775_808.0) : .integer(-value)
    case .real(let value): negated = .real(-value)
    case let other: negated = other
    }
    return Assignment(column: field.name, change: .add(negated))
}
