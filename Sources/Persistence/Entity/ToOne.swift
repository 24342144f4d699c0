/// A reference from each row of `Source` to one row of `Target`, stored as a foreign-key column.
///
/// The column is an ordinary stored property of `Source` holding the target's identity:
/// `Target.ID` for a reference every row has, `Target.ID?` for an optional one. Declare the
/// relation once, next to the entity, and list it in ``StoredEntity/relations``:
///
/// ```swift
/// struct Author: StoredEntity {
///     var id: Int64
///     var name: String
///     static let name = Field<Author, String>("name")
/// }
///
/// struct Book: StoredEntity {
///     var id: Int64
///     var title: String
///     var authorID: Int64
///
///     static let title = Field<Book, String>("title")
///     static let author = ToOne<Book, Author>(Field("authorID"), onDelete: .cascade)
///     static let relations: [any Relation<Book>] = [author]
/// }
/// ```
///
/// The store makes the column a foreign key with the delete rule as its `ON DELETE` action, and
/// indexes it. Writing a reference to a row that does not exist fails at that write with
/// ``PersistenceError/Code-swift.struct/missingReference`` naming the property and the missing
/// identity. The types are checked by the compiler: a `ToOne<Book, Author>` filters, sorts and
/// prefetches `Book`s only.
///
/// A ``Field`` the target declares is reached through the relation by its name, for filters and
/// sorts on the source: `Book.author.name == "Ursula K. Le Guin"` (see ``RelatedField``).
@dynamicMemberLookup
public struct ToOne<Source: StoredEntity, Target: StoredEntity>: Relation, Hashable {
    /// The name of the foreign-key property (its coding key).
    public let column: String
    /// What deleting a target row does to the rows that refer to it.
    public let deleteRule: DeleteRule
    /// Whether the reference is optional (a `Target.ID?` property).
    public let isOptional: Bool

    /// Declares a reference every row has, held by a `Target.ID` property.
    ///
    /// - Parameters:
    ///   - key: the property holding the target's identity.
    ///   - onDelete: what deleting a target row does to the rows that refer to it;
    ///     ``DeleteRule/nullify`` needs an optional reference.
    public init(_ key: Field<Source, Target.ID>, onDelete: DeleteRule) {
        column = key.name
        deleteRule = onDelete
        isOptional = false
    }

    /// Declares an optional reference, held by a `Target.ID?` property.
    ///
    /// - Parameters:
    ///   - key: the property holding the target's identity, or `nil`.
    ///   - onDelete: what deleting a target row does to the rows that refer to it.
    public init(_ key: Field<Source, Target.ID?>, onDelete: DeleteRule) {
        column = key.name
        deleteRule = onDelete
        isOptional = true
    }

    /// The inverse to-many relation: every `Source` row that refers to a `Target`.
    ///
    /// - Parameter order: the order of each target's rows; insertion order without one.
    /// - Returns: the to-many relation.
    public func inverse(orderedBy order: [Sort<Source>] = []) -> ToMany<Target, Source> {
        ToMany(inverse: self, orderedBy: order)
    }
}

extension ToOne: DeclaredRelation {
    var declaration: RelationDeclaration {
        RelationDeclaration(
            kind: .toOne(column: column), sourceName: Source.entityName, target: ObjectIdentifier(Target.self),
            targetName: Target.entityName, targetTypeName: String(reflecting: Target.self), rule: deleteRule)
    }
}
