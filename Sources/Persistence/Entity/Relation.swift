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

extension RelationDeclaration {
    static let linkPrefix = "fk_link_"

    static func linkTableName(source: String, name: String) -> String { linkPrefix + source + "_" + name }

    static func relationIndexName(table: String, column: String) -> String { "fk_relation_\(table)_\(column)" }
}
