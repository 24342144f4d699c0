/// Something each row of a query can bring with it, in ``Query/including(_:)``: the row a to-one
/// relation refers to (``ToOne``, as `T?`), the rows of a to-many or many-to-many relation
/// (``ToMany``, ``ManyToMany``, as `[T]`), or an aggregate of those rows (``RelatedAggregate``).
public protocol QueryInclusion<Included>: Sendable {
    /// What each row brings.
    associatedtype Included: Sendable
    /// How the store reads it.
    var inclusion: Inclusion<Included> { get }
}

extension ToOne: QueryInclusion {
    /// The row the relation refers to, `nil` for a `nil` reference, read in one more query.
    public var inclusion: Inclusion<Target?> {
        Inclusion(
            entity: ObjectIdentifier(Source.self), entityName: Source.entityName, label: column,
            part: ReferredRowPart<Target>(column: column))
    }
}

extension ToMany: QueryInclusion {
    /// The rows that refer to the row, in the relation's order, read in one more query.
    public var inclusion: Inclusion<[Target]> {
        Inclusion(
            entity: ObjectIdentifier(Source.self), entityName: Source.entityName, label: inverseColumn,
            part: RelatedRowsPart<Target>(many: self))
    }
}

extension ManyToMany: QueryInclusion {
    /// The rows the relation links the row to, in the order they were linked, read in one more
    /// query.
    public var inclusion: Inclusion<[Target]> {
        Inclusion(
            entity: ObjectIdentifier(Source.self), entityName: Source.entityName, label: "\(Target.entityName) links",
            part: RelatedRowsPart<Target>(many: self))
    }
}
