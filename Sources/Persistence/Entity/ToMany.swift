/// The rows of `Target` that refer to a `Source` row through a ``ToOne`` relation: a to-many
/// relation read through its inverse.
///
/// It needs no column of its own and is not listed in ``StoredEntity/relations``:
///
/// ```swift
/// extension Author {
///     static let books = ToMany<Author, Book>(inverse: Book.author, orderedBy: [Book.title.ascending()])
/// }
/// ```
public struct ToMany<Source: StoredEntity, Target: StoredEntity>: Sendable, Hashable {
    /// The foreign-key property of `Target` that refers to `Source`.
    public let inverseColumn: String
    /// The order of each source row's targets, most significant key first; rows that tie keep
    /// insertion order.
    public let order: [Sort<Target>]

    /// Declares the to-many relation read through `inverse`.
    ///
    /// - Parameters:
    ///   - inverse: the reference from `Target` to `Source`.
    ///   - order: the order of each source row's targets; insertion order without one.
    public init(inverse: ToOne<Target, Source>, orderedBy order: [Sort<Target>] = []) {
        inverseColumn = inverse.column
        self.order = order
    }
}
