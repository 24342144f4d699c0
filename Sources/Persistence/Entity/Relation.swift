/// A relation an entity declares in ``StoredEntity/relations``: a ``ToOne`` reference or a
/// ``ManyToMany`` relation.
///
/// The store makes the relation's schema (foreign keys, indexes, link tables) when it opens.
/// Only the relation types of this module conform.
public protocol Relation<Source>: Sendable {
    /// The entity that declares the relation.
    associatedtype Source: StoredEntity
}

/// What the store knows of a declared relation.
struct RelationDeclaration: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// A foreign-key column of the source.
        case toOne(column: String)
        /// A link table the store keeps (``ManyToMany/init(_:)``).
        case link(name: String)
        /// A join entity's two references (``ManyToMany/init(through:_:)``): declared by the
        /// join entity, checked only.
        case through(join: ObjectIdentifier, joinName: String, source: String, target: String)
    }

    let kind: Kind
    let sourceName: String
    let target: ObjectIdentifier
    let targetName: String
    let targetTypeName: String
    let rule: DeleteRule
    /// The name the entity declares the relation by, for messages (`Book.authorID`).
    var label: String {
        switch kind {
        case .toOne(let column): "\(sourceName).\(column)"
        case .link(let name): "\(sourceName).\(name)"
        case .through(_, let join, let source, let target): "\(sourceName) through \(join).\(source)/\(target)"
        }
    }
}

/// The relation types of this module describe themselves to the store.
protocol DeclaredRelation {
    var declaration: RelationDeclaration { get }
}

extension RelationDeclaration {
    static let linkPrefix = "fk_link_"

    static func linkTableName(source: String, name: String) -> String { linkPrefix + source + "_" + name }

    static func relationIndexName(table: String, column: String) -> String { "fk_relation_\(table)_\(column)" }
}
