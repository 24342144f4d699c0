/// A many-to-many relation between `Source` and `Target`.
///
/// The shorthand, ``init(_:)``, needs nothing but a name: the store keeps a link table with a
/// foreign key to each side (deleting either row deletes its links) and the order links were
/// made in. Write links with ``ObjectTransaction/link(_:_:to:)``,
/// ``ObjectTransaction/unlink(_:_:from:)`` and ``ObjectTransaction/setLinks(_:of:to:)``:
///
/// ```swift
/// extension Book {
///     static let tags = ManyToMany<Book, Tag>("tags")
///     static let relations: [any Relation<Book>] = [author, tags]
/// }
/// try tx.link(Book.tags, book.id, to: tag.id)
/// ```
///
/// ``init(through:_:)`` reads the relation through a join entity of your own (one that holds
/// more than the two references, such as a role or a date).
public struct ManyToMany<Source: StoredEntity, Target: StoredEntity>: Relation, Hashable {
    enum Storage: Hashable, Sendable {
        case link(name: String)
        case through(join: ObjectIdentifier, joinName: String, source: String, target: String)
    }

    let storage: Storage

    /// Declares a many-to-many relation the store keeps in a link table named after the relation.
    ///
    /// - Parameter name: the relation's name, unique among the entity's relations.
    public init(_ name: String) {
        storage = .link(name: name)
    }

    /// Declares a many-to-many relation read through a join entity's two references.
    ///
    /// The join entity declares both ``ToOne`` relations in its own ``StoredEntity/relations``
    /// (with ``DeleteRule/cascade``, usually) and a unique key over the two properties, so one
    /// pair is stored once.
    ///
    /// - Parameters:
    ///   - source: the join entity's reference to `Source`.
    ///   - target: the join entity's reference to `Target`.
    public init<Join: StoredEntity>(through source: ToOne<Join, Source>, _ target: ToOne<Join, Target>) {
        storage = .through(
            join: ObjectIdentifier(Join.self), joinName: Join.entityName, source: source.column, target: target.column)
    }

    /// The link table of the shorthand form.
    var linkTable: String? {
        guard case .link(let name) = storage else { return nil }
        return RelationDeclaration.linkTableName(source: Source.entityName, name: name)
    }
}

extension ManyToMany: DeclaredRelation {
    var declaration: RelationDeclaration {
        let kind: RelationDeclaration.Kind
        switch storage {
        case .link(let name): kind = .link(name: name)
        case .through(let join, let joinName, let source, let target):
            kind = .through(join: join, joinName: joinName, source: source, target: target)
        }
        return RelationDeclaration(
            kind: kind, sourceName: Source.entityName, target: ObjectIdentifier(Target.self),
            targetName: Target.entityName, targetTypeName: String(reflecting: Target.self), rule: .cascade)
    }
}
