/// A set of properties whose combined values no two rows may share, declared by an entity.
///
/// A unique key is enforced by a unique index, and is what ``ObjectTransaction/upsert(_:matching:onConflict:)``
/// matches on: "a book added twice by ISBN is one book".
public struct UniqueKey<Entity: StoredEntity>: Sendable, Hashable {
    /// The names of the key's columns, in order.
    public let columns: [String]

    /// Declares a unique key over one or more fields.
    ///
    /// - Parameter fields: the key's fields, in order.
    public init<each Value>(_ fields: repeat Field<Entity, each Value>) {
        var names: [String] = []
        for field in repeat each fields { names.append(field.name) }
        columns = names
    }
}
