/// A typed reference to one stored property of an entity, for filters, sorts and keys.
///
/// Declare fields once, next to the entity, and build filters from them. The value type
/// is checked by the compiler (`Book.title == 3` does not compile); the name is checked
/// against the columns the store derived from the entity's `Codable` conformance when the
/// query runs, and a wrong name throws ``PersistenceError/Code-swift.struct/unknownProperty``.
///
/// ```swift
/// extension Book {
///     static let title = Field<Book, String>("title")
///     static let rating = Field<Book, Double?>("rating")
/// }
/// let good = try tx.fetch(Query<Book>(where: Book.rating >= 4 && !Book.title.hasPrefix("The")))
/// ```
public struct Field<Entity: StoredEntity, Value: QueryableValue>: Sendable, Hashable {
    /// The property's name, as its coding key spells it.
    public let name: String

    /// Creates a reference to the property whose coding key is `name`.
    ///
    /// - Parameter name: the property's coding key (its name, unless `CodingKeys` renames it).
    public init(_ name: String) {
        self.name = name
    }

    /// Sorts by this field, smallest first.
    ///
    /// - Parameter caseInsensitive: whether text is compared by its folded form, ignoring case
    ///   and diacritics (see ``Sort/caseInsensitive``).
    /// - Returns: the sort.
    public func ascending(caseInsensitive: Bool = false) -> Sort<Entity> {
        Sort(column: name, descending: false, caseInsensitive: caseInsensitive)
    }

    /// Sorts by this field, largest first.
    ///
    /// - Parameter caseInsensitive: whether text is compared by its folded form, ignoring case
    ///   and diacritics (see ``Sort/caseInsensitive``).
    /// - Returns: the sort.
    public func descending(caseInsensitive: Bool = false) -> Sort<Entity> {
        Sort(column: name, descending: true, caseInsensitive: caseInsensitive)
    }
}

extension Field where Value: TextQueryableValue {
    /// Matches rows whose text equals `text`, by default ignoring case and diacritics.
    ///
    /// Case-insensitive comparison compares folded forms (see ``Sort/caseInsensitive``), so
    /// `Book.title.equals("eclair")` matches "Éclair". On a property with a case-insensitive
    /// ``EntityIndex`` it is an index lookup.
    ///
    /// - Parameters:
    ///   - text: the text to compare with.
    ///   - caseSensitive: when `true`, the same as `==`.
    /// - Returns: the filter.
    public func equals(_ text: String, caseSensitive: Bool = false) -> Filter<Entity> {
        Filter(.text(column: name, match: .equals, text: text, caseSensitive: caseSensitive))
    }

    /// Matches rows whose text contains `text`, by default ignoring case and diacritics.
    ///
    /// Works for a `text` of any length.
    ///
    /// - Parameters:
    ///   - text: the substring, matched literally (no pattern characters).
    ///   - caseSensitive: when `false` (the default), compares folded forms (see ``Sort/caseInsensitive``).
    /// - Returns: the filter.
    public func contains(_ text: String, caseSensitive: Bool = false) -> Filter<Entity> {
        Filter(.text(column: name, match: .contains, text: text, caseSensitive: caseSensitive))
    }

    /// Matches rows whose text starts with `prefix`, by default ignoring case and diacritics.
    ///
    /// Runs as an index range on a property with a matching index (a case-insensitive
    /// ``EntityIndex`` for the default, a plain one with `caseSensitive: true`), for a `prefix` of
    /// any length.
    ///
    /// - Parameters:
    ///   - prefix: the prefix, matched literally.
    ///   - caseSensitive: when `false` (the default), compares folded forms (see ``Sort/caseInsensitive``).
    /// - Returns: the filter.
    public func hasPrefix(_ prefix: String, caseSensitive: Bool = false) -> Filter<Entity> {
        Filter(.text(column: name, match: .prefix, text: prefix, caseSensitive: caseSensitive))
    }

    /// Matches rows whose text ends with `suffix`, by default ignoring case and diacritics.
    ///
    /// - Parameters:
    ///   - suffix: the suffix, matched literally, of any length.
    ///   - caseSensitive: when `false` (the default), compares folded forms (see ``Sort/caseInsensitive``).
    /// - Returns: the filter.
    public func hasSuffix(_ suffix: String, caseSensitive: Bool = false) -> Filter<Entity> {
        Filter(.text(column: name, match: .suffix, text: suffix, caseSensitive: caseSensitive))
    }

    /// Matches rows whose text matches a full-text query, using the entity's ``FullTextIndex``.
    ///
    /// The query is FTS5's query syntax: words (all must appear, in any order, ignoring case and
    /// diacritics), `"quoted phrases"`, prefix terms (`unre*`), `OR`, `NOT`, `NEAR(…)` and
    /// parentheses. Sort by ``relevance`` to get the best matches first. It composes with every
    /// other filter:
    ///
    /// ```swift
    /// let hits = try tx.fetch(
    ///     Book.self, where: Book.title.matches("unreal engine") && Book.rating >= 4,
    ///     sortedBy: [Book.title.relevance])
    /// ```
    ///
    /// A malformed query (an unbalanced quote, a bare operator) makes the fetch throw
    /// ``PersistenceError/Code-swift.struct/invalidQuery`` naming the query.
    ///
    /// - Parameter query: the full-text query.
    /// - Returns: the filter.
    public func matches(_ query: String) -> Filter<Entity> {
        Filter(.fullText(column: name, query: query))
    }

    /// Sorts the rows a ``matches(_:)`` filter on this field selects by relevance, best first
    /// (FTS5's BM25 rank).
    ///
    /// A query sorted by relevance must filter with ``matches(_:)`` on the same field.
    public var relevance: Sort<Entity> {
        Sort(column: name, descending: false, caseInsensitive: false, isRelevance: true)
    }

    /// Matches rows whose text matches a SQL `LIKE` pattern (`%` any run, `_` one character,
    /// `\` escapes; SQLite's `LIKE`, which ignores the case of ASCII letters only).
    ///
    /// SQLite refuses patterns longer than 50,000 bytes ("LIKE or GLOB pattern too complex");
    /// ``contains(_:caseSensitive:)``, ``hasPrefix(_:caseSensitive:)`` and
    /// ``hasSuffix(_:caseSensitive:)`` have no such limit.
    ///
    /// - Parameter pattern: the pattern, bound as a value.
    /// - Returns: the filter.
    public func like(_ pattern: String) -> Filter<Entity> {
        Filter(.like(column: name, pattern: pattern))
    }
}
