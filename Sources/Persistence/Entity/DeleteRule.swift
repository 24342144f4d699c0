/// What the store does to the rows that refer to a row when that row is deleted.
///
/// The store declares each rule to SQLite as the foreign key's `ON DELETE` action, so it holds
/// for every delete, raw SQL included, and a delete is applied whole or not at all.
public enum DeleteRule: Sendable, Hashable, CustomStringConvertible {
    /// Deleting the row deletes the rows that refer to it (and theirs, rule by rule).
    case cascade
    /// Deleting the row sets the references to it to `nil`; the reference must be optional.
    case nullify
    /// A row that is referred to cannot be deleted: the delete fails with
    /// ``PersistenceError/Code-swift.struct/deleteDenied`` naming the relation and how many rows
    /// block it, and changes nothing.
    case deny
    /// The store changes no referring row, and a delete that leaves one referring to a missing
    /// row fails like ``deny`` once its statement has run (SQLite's `NO ACTION`): one statement
    /// may delete a row together with the rows that refer to it.
    case none

    /// The rule's name, such as `cascade`.
    public var description: String {
        switch self {
        case .cascade: "cascade"
        case .nullify: "nullify"
        case .deny: "deny"
        case .none: "none"
        }
    }

    var sqlAction: String {
        switch self {
        case .cascade: "CASCADE"
        case .nullify: "SET NULL"
        case .deny: "RESTRICT"
        case .none: "NO ACTION"
        }
    }
}
