/// What an upsert does with a property of the row it finds already stored: keep the stored value,
/// or combine it with an assignment, instead of taking the new value.
///
/// ```swift
/// let outcome = try tx.upsert(book, onConflict: [.keep(Book.rating), .assign(Book.score += 1)])
/// ```
///
/// Without a rule for it, a property takes the new entity's value. The identity and the matched
/// key's properties are never changed by an upsert, so no rule names them.
public struct ConflictRule<Entity: StoredEntity>: Sendable {
    enum Action: Sendable {
        case keep
        case assign(Assignment<Entity>.Change)
    }

    let column: String
    let action: Action

    /// The name of the property the rule is about (its column).
    public var property: String { column }

    /// Keeps the stored value of `field` (a first-seen date, a user's rating).
    ///
    /// - Parameter field: the property to keep.
    /// - Returns: the rule.
    public static func keep<V>(_ field: Field<Entity, V>) -> ConflictRule {
        ConflictRule(column: field.name, action: .keep)
    }

    /// Applies `assignment` to the stored row instead of taking the new value: `count += 1` adds to
    /// the stored count; `field.set(value)` stores `value`.
    ///
    /// - Parameter assignment: the change to the stored row.
    /// - Returns: the rule.
    public static func assign(_ assignment: Assignment<Entity>) -> ConflictRule {
        ConflictRule(column: assignment.column, action: .assign(assignment.change))
    }
}
