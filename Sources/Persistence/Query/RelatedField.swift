/// A property of the entity a ``ToOne`` relation refers to, reached through the relation, for
/// filters and sorts on the referring entity: `Book.author.name`.
///
/// Name any ``Field`` the target declares as a static property after the relation; the
/// comparisons, ``QueryExpression/isIn(_:)``, the text filters, ``QueryExpression/isNil`` and the
/// sorts of ``Field`` work on it and make a filter or sort of the source:
///
/// ```swift
/// let leGuin = try tx.fetch(Query<Book>(where: Book.author.name == "Ursula K. Le Guin"))
/// let byAuthor = try tx.fetch(Query<Book>(sortedBy: [Book.author.name.ascending()]))
/// ```
///
/// A filter through the relation is ``ToOne/has(_:)`` with the same condition on the target:
/// `Book.author.name == "Ursula K. Le Guin"` is `Book.author.has(Author.name == "Ursula K. Le Guin")`,
/// a subquery on the target (using its indexes) whose identities the indexed foreign key then
/// looks up. A row with a `nil` reference matches no such filter, `!=` and ``QueryExpression/isNil`` included.
/// A sort through the relation is ``ToOne/ascending(_:caseInsensitive:)``: rows with a `nil`
/// reference come first. A target field whose name is also a member of ``ToOne`` (`column`,
/// `deleteRule`, `isOptional`) is reached with ``ToOne/has(_:)`` instead.
public struct RelatedField<Source: StoredEntity, Target: StoredEntity, Value: QueryableValue>: Sendable, Hashable {
    let relation: ToOne<Source, Target>
    let field: Field<Target, Value>

    /// Sorts by this property of the referred row, smallest first; rows with a `nil` reference
    /// come first.
    ///
    /// - Parameter caseInsensitive: whether text is compared by its folded form (see ``Sort/caseInsensitive``).
    /// - Returns: the sort.
    public func ascending(caseInsensitive: Bool = false) -> Sort<Source> {
        relation.ascending(field, caseInsensitive: caseInsensitive)
    }

    /// Sorts by this property of the referred row, largest first; rows with a `nil` reference
    /// come last.
    ///
    /// - Parameter caseInsensitive: whether text is compared by its folded form (see ``Sort/caseInsensitive``).
    /// - Returns: the sort.
    public func descending(caseInsensitive: Bool = false) -> Sort<Source> {
        relation.descending(field, caseInsensitive: caseInsensitive)
    }
}

extension ToOne {
    /// The property of the referred entity that `field` names, reached through this relation:
    /// `Book.author.name` for `Author.name`.
    ///
    /// - Parameter field: the key path of a ``Field`` the target declares as a static property.
    /// - Returns: the property through the relation.
    public subscript<Value>(
        dynamicMember field: KeyPath<Target.Type, Field<Target, Value>>
    ) -> RelatedField<Source, Target, Value> {
        RelatedField(relation: self, field: Target.self[keyPath: field])
    }
}

extension RelatedField where Value: TextQueryableValue {
    /// Matches rows whose referred row's text equals `text`, by default ignoring case and
    /// diacritics (``Field/equals(_:caseSensitive:)`` on the target).
    ///
    /// - Parameters:
    ///   - text: the text to compare with.
    ///   - caseSensitive: when `true`, the same as `==`.
    /// - Returns: the filter.
    public func equals(_ text: String, caseSensitive: Bool = false) -> Filter<Source> {
        relation.has(field.equals(text, caseSensitive: caseSensitive))
    }

    /// Matches rows whose referred row's text contains `text`, by default ignoring case and
    /// diacritics (``Field/contains(_:caseSensitive:)`` on the target).
    ///
    /// - Parameters:
    ///   - text: the substring, matched literally.
    ///   - caseSensitive: when `false` (the default), compares folded forms.
    /// - Returns: the filter.
    public func contains(_ text: String, caseSensitive: Bool = false) -> Filter<Source> {
        relation.has(field.contains(text, caseSensitive: caseSensitive))
    }

    /// Matches rows whose referred row's text starts with `prefix`, by default ignoring case and
    /// diacritics (``Field/hasPrefix(_:caseSensitive:)`` on the target).
    ///
    /// - Parameters:
    ///   - prefix: the prefix, matched literally.
    ///   - caseSensitive: when `false` (the default), compares folded forms.
    /// - Returns: the filter.
    public func hasPrefix(_ prefix: String, caseSensitive: Bool = false) -> Filter<Source> {
        relation.has(field.hasPrefix(prefix, caseSensitive: caseSensitive))
    }
}
