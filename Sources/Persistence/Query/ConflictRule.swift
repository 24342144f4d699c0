/// What an upsert does with a property of the row it finds already stored: keep the stored value,
/// or combine it with an assignment, instead of taking the new value; or whether it updates the
/// row at all, by comparing a version.
///
/// ```swift
/// let outcome = try tx.upsert(book, onConflict: [.keep(Book.rating), .assign(Book.score += 1)])
/// try tx.upsert(book, onConflict: [.onlyIfNewer(Book.updated)])  // never moves a row to an older version
/// ```
///
/// Without a rule for it, a property takes the new entity's value. The identity and the matched
/// key's properties are never changed by an upsert, so no rule names them.
public struct ConflictRule<Entity: StoredEntity>: Sendable {
    enum Action: Sendable {
        case keep
        case assign(Assignment<Entity>.Change)
        case newer
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

    /// Updates the matched row only when the new value of `field` is greater than the stored one
    /// (a server's `updated` timestamp, a revision number): a row is never moved back to an
    /// older version, and a version already stored is not written again. When either value is
    /// `nil` the row is updated. Otherwise the stored row is left whole and the upsert returns
    /// ``UpsertOutcome/kept``. The comparison is SQLite's, in the statement itself, with no read
    /// before it: numbers and dates by value, texts by their UTF-8 bytes (so timestamps in a
    /// sortable format, such as ISO 8601, order by time).
    ///
    /// `field` takes the new value with the rest of the row. An upsert has at most one such rule,
    /// and not with a `+=` assignment.
    ///
    /// - Parameter field: a property of a number, `Date` or `String` type holding the version.
    /// - Returns: the rule.
    public static func onlyIfNewer<V>(_ field: Field<Entity, V>) -> ConflictRule {
        ConflictRule(column: field.name, action: .newer)
    }
}
