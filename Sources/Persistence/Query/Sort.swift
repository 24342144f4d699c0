/// One key of a sort order: a property, a direction, and whether text ignores case.
///
/// Make sorts with ``Field/ascending(caseInsensitive:)`` and
/// ``Field/descending(caseInsensitive:)``; pass several for a multi-key order. Rows that
/// tie on every key keep the order they were inserted in, so results are deterministic.
/// Without any sort key the order is unspecified.
public struct Sort<Entity: StoredEntity>: Sendable, Hashable {
    /// The column sorted on.
    public let column: String
    /// Whether larger values come first.
    public let descending: Bool
    /// Whether text is compared by its folded form, ignoring case and diacritics.
    ///
    /// The folded form is the text lower-cased with Unicode's default lowercase mapping,
    /// decomposed (NFD) and stripped of nonspacing marks (the combining accents), compared code
    /// point by code point: "Alien, Ångström, apple, Éclair, Émile, zebra, Zorro". Texts with the
    /// same folded form ("Apple", "apple") keep the order they were inserted in. On a property with
    /// a case-insensitive ``EntityIndex`` the sort reads the index.
    public let caseInsensitive: Bool
    /// Whether this sorts by full-text relevance (``Field/relevance``) rather than by value.
    let isRelevance: Bool

    /// The to-one relation the sorted property is reached through, when it belongs to another entity.
    let related: RelatedSort?

    init(
        column: String, descending: Bool, caseInsensitive: Bool, isRelevance: Bool = false,
        related: RelatedSort? = nil
    ) {
        self.column = column
        self.descending = descending
        self.caseInsensitive = caseInsensitive
        self.isRelevance = isRelevance
        self.related = related
    }
}
