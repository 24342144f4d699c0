/// An aggregate of the rows a to-many or many-to-many relation relates to each row, for
/// ``Query/including(_:)``: `Author.books.aggregate(Book.pages.sum())`.
public struct RelatedAggregate<Source: StoredEntity, Value: Sendable>: QueryInclusion {
    let part: RelatedAggregatesPart

    /// The aggregate, computed per row by a subquery in the query's own statement.
    public var inclusion: Inclusion<Value> {
        Inclusion(
            entity: ObjectIdentifier(Source.self), entityName: Source.entityName, label: "an aggregate", part: part)
    }
}

extension ToMany {
    /// An aggregate of the rows that refer to each row through this relation, for
    /// ``Query/including(_:)``: every author with the number of their books or their pages.
    ///
    /// ```swift
    /// let rows = try tx.fetch(Query<Author>().including(Author.books.aggregate(Aggregate.count(of: Book.self))))
    /// ```
    ///
    /// Each aggregate runs as a subquery over the related rows, using the relation's indexed
    /// reference. To filter or order by an aggregate, group the related rows by their reference
    /// instead (``ObjectTransaction/groups(_:by:aggregating:having:sortedBy:limit:)``). Reading it
    /// throws ``PersistenceError/Code-swift.struct/invalidQuery`` naming a related property stored
    /// as JSON text, and ``PersistenceError/Code-swift.struct/overflow`` for an integer sum beyond
    /// its property's type.
    ///
    /// - Parameters:
    ///   - aggregate: what to compute over each row's related rows.
    ///   - filter: which related rows count; `nil` for all.
    /// - Returns: the aggregate, to include.
    public func aggregate<V: Sendable>(
        _ aggregate: Aggregate<Target, V>, where filter: Filter<Target>? = nil
    ) -> RelatedAggregate<Source, V> {
        RelatedAggregate(part: RelatedAggregatesPart(path: path, aggregate, where: filter))
    }
}

extension ManyToMany {
    /// An aggregate of the rows this relation links each row to, for ``Query/including(_:)``:
    /// every book with its number of tags.
    ///
    /// Each linked row counts once per row: a join entity (``ManyToMany/init(through:_:)``)
    /// without a ``UniqueKey`` over its two references may hold the same pair twice (a person
    /// credited in two roles); the row it links to is still counted, summed and averaged once, as
    /// ``ManyToMany/count`` counts it. Reading it throws as ``ToMany/aggregate(_:where:)`` does,
    /// and ``PersistenceError/Code-swift.struct/misuse`` naming the linked entity or the join
    /// entity when the store was not opened with it, or the relation when a shorthand relation is
    /// not listed in the entity's ``StoredEntity/relations``.
    ///
    /// - Parameters:
    ///   - aggregate: what to compute over each row's linked rows.
    ///   - filter: which linked rows count; `nil` for all.
    /// - Returns: the aggregate, to include.
    public func aggregate<V: Sendable>(
        _ aggregate: Aggregate<Target, V>, where filter: Filter<Target>? = nil
    ) -> RelatedAggregate<Source, V> {
        RelatedAggregate(part: RelatedAggregatesPart(path: path, aggregate, where: filter))
    }
}
