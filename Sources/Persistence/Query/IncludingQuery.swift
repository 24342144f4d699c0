/// The rows of a ``Query``, each with what it includes: the tuple `(Entity, repeat each Included)`.
/// Make one with ``Query/including(_:)``.
public struct IncludingQuery<Entity: StoredEntity, each Included: Sendable>: FetchRequest {
    /// The rows: their filter, sort and window.
    public var query: Query<Entity>
    /// What each row brings, one per element of `Included`.
    let inclusions: [ErasedInclusion]

    /// Reads the rows in one statement with their aggregates, then what they include, one query
    /// per relation.
    public var plan: FetchPlan<[(Entity, repeat each Included)]> {
        FetchPlan { tx throws(PersistenceError) in try tx.rows(of: self) }
    }

    /// These rows in sections keyed by a property of each row's entity.
    ///
    /// ```swift
    /// let members = try tx.fetch(
    ///     Query<Movie>(sortedBy: [Movie.member.ascending()]).including(Movie.samples).sectioned(by: \.member))
    /// for member in members { print(member.key, member.rows.map { movie, samples in samples.count }) }
    /// ```
    ///
    /// Sort the query by the section's key first; then each section holds a contiguous run of the
    /// results. (Otherwise sections come in the order of their first rows.)
    ///
    /// - Parameter key: the section a row belongs to, a key path such as `\.member`.
    /// - Returns: the sectioned query.
    public func sectioned<Key: Hashable & Sendable>(
        by key: any KeyPath<Entity, Key> & Sendable
    ) -> SectionedQuery<Key, Entity, repeat each Included> {
        SectionedQuery(rows: self, key: .entity { entity in entity[keyPath: key] })
    }

    /// These rows in sections keyed by a property of the row a to-one relation refers to: books in
    /// sections by their author's name. A row whose reference is `nil` is in the section keyed `nil`.
    ///
    /// ```swift
    /// let shelves = try tx.fetch(
    ///     Query<Book>(sortedBy: [Book.author.ascending(Author.name), Book.title.ascending()])
    ///         .sectioned(by: Book.author.name))
    /// for shelf in shelves { print(shelf.key ?? "no author", shelf.rows.map(\.title)) }
    /// ```
    ///
    /// The key is read in the same statement as the rows, by a lookup of the referred row's
    /// identity. Reading it throws ``PersistenceError/Code-swift.struct/misuse`` naming the
    /// reference when the relation refers to an entity the store was not opened with.
    ///
    /// - Parameter field: the property of the referred row, such as `Book.author.name`.
    /// - Returns: the sectioned query.
    public func sectioned<T: StoredEntity, K: QueryableValue & Decodable & Hashable>(
        by field: RelatedField<Entity, T, K>
    ) -> SectionedQuery<K?, Entity, repeat each Included> {
        SectionedQuery(
            rows: self, key: .part(RelatedKeyPart<Entity, T, K>(relation: field.relation, field: field.field)))
    }
}

extension Query {
    /// This query's rows, each with what `inclusions` add to it, in order: related rows and
    /// aggregates of them.
    ///
    /// ```swift
    /// let rows = try tx.fetch(
    ///     Query<Author>(sortedBy: [Author.name.ascending()])
    ///         .including(Author.books, Author.books.aggregate(Book.pages.sum())))
    /// for (author, books, pages) in rows { print(author.name, books.count, pages) }
    /// ```
    ///
    /// - A to-one relation (`Book.author`) brings the row it refers to, `nil` for a `nil`
    ///   reference, read in one more query for every referred row.
    /// - A to-many relation (`Author.books`) brings the rows that refer to the row, in the
    ///   relation's order (insertion order when it has none), read in one more query for all rows.
    /// - A many-to-many relation (`Book.tags`) brings the linked rows, in the order they were linked
    ///   (``ObjectTransaction/setLinks(_:of:to:)`` sets it; for a join entity, the order its rows
    ///   were inserted in). Each linked row comes once per row, where its first link puts it.
    /// - An aggregate (`Author.books.aggregate(Book.pages.sum())`) is computed by a subquery in
    ///   the query's own statement; rows without related rows have a count of 0, a sum of 0, an
    ///   average, minimum or maximum of `nil`.
    ///
    /// Reading it throws ``PersistenceError/Code-swift.struct/misuse`` for a relation of another
    /// entity than the query's, or to an entity the store was not opened with.
    ///
    /// - Parameter inclusions: what each row brings, in order.
    /// - Returns: the query, whose rows are tuples of the entity and what it brings.
    public func including<each I: QueryInclusion>(
        _ inclusions: repeat each I
    ) -> IncludingQuery<Entity, repeat (each I).Included> {
        var parts: [ErasedInclusion] = []
        for inclusion in repeat each inclusions { parts.append(inclusion.inclusion.erased) }
        return IncludingQuery(query: self, inclusions: parts)
    }

    /// This query's entities in sections keyed by a property: books in sections by their author.
    ///
    /// ```swift
    /// let shelves = try tx.fetch(Query<Book>(sortedBy: [Book.author.ascending()]).sectioned(by: \.author))
    /// for shelf in shelves { print(shelf.key, shelf.rows.map(\.title)) }
    /// ```
    ///
    /// - Parameter key: the section a row belongs to, a key path such as `\.author`.
    /// - Returns: the sectioned query.
    public func sectioned<Key: Hashable & Sendable>(
        by key: any KeyPath<Entity, Key> & Sendable
    ) -> SectionedQuery<Key, Entity> {
        IncludingQuery<Entity>(query: self, inclusions: []).sectioned(by: key)
    }

    /// This query's entities in sections keyed by a property of the row a to-one relation refers
    /// to: books in sections by their author's name.
    ///
    /// - Parameter field: the property of the referred row, such as `Book.author.name`.
    /// - Returns: the sectioned query; see ``IncludingQuery/sectioned(by:)->SectionedQuery<K?,Entity,Included>``.
    public func sectioned<T: StoredEntity, K: QueryableValue & Decodable & Hashable>(
        by field: RelatedField<Entity, T, K>
    ) -> SectionedQuery<K?, Entity> {
        IncludingQuery<Entity>(query: self, inclusions: []).sectioned(by: field)
    }
}
