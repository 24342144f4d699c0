/// A typed reference to one stored property of an entity, for filters, sorts and keys.
///
/// Declare fields once, next to the entity, and build filters from them. The value type
/// is checked by the compiler (`Book.title == 3` does not compile); the name is checked
/// against the columns the store derived from the entity's `Codable` conformance when the
/// query runs, and a wrong name throws ``PersistenceError/unknownProperty``.
///
/// ```swift
/// extension Book {
///     static let title = Field<Book, String>("title")
///     static let rating = Field<Book, Double?>("rating")
/// }
/// let good = try tx.fetch(Book.self, where: Book.rating >= 4 && !Book.title.hasPrefix("The"))
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
    /// - Parameter caseInsensitive: whether text is compared ignoring ASCII case.
    /// - Returns: the sort.
    public func ascending(caseInsensitive: Bool = false) -> Sort<Entity> {
        Sort(column: name, descending: false, caseInsensitive: caseInsensitive)
    }

    /// Sorts by this field, largest first.
    ///
    /// - Parameter caseInsensitive: whether text is compared ignoring ASCII case.
    /// - Returns: the sort.
    public func descending(caseInsensitive: Bool = false) -> Sort<Entity> {
        Sort(column: name, descending: true, caseInsensitive: caseInsensitive)
    }

    /// Matches rows whose value is one of `values` (SQL `IN`).
    ///
    /// - Parameter values: the accepted values; an empty list matches nothing.
    /// - Returns: the filter.
    public func isIn(_ values: some Sequence<Value>) -> Filter<Entity> {
        Filter(.inList(column: name, values: values.map(\.databaseValue)))
    }
}

/// Text fields (`String` and `String?`) support substring and pattern filters.
public protocol TextQueryableValue: QueryableValue {}

extension String: TextQueryableValue {}
extension Optional: TextQueryableValue where Wrapped == String {}

extension Field where Value: TextQueryableValue {
    /// Matches rows whose text contains `text`.
    ///
    /// - Parameters:
    ///   - text: the substring; `%`, `_` and `\` in it are matched literally.
    ///   - caseSensitive: when `false` (the default), ASCII letters match regardless of case.
    /// - Returns: the filter.
    public func contains(_ text: String, caseSensitive: Bool = false) -> Filter<Entity> {
        caseSensitive
            ? Filter(.instr(column: name, text: text))
            : Filter(.like(column: name, pattern: "%" + Self.escape(text) + "%"))
    }

    /// Matches rows whose text starts with `prefix` (ASCII case-insensitive).
    ///
    /// - Parameter prefix: the prefix; `%`, `_` and `\` in it are matched literally.
    /// - Returns: the filter.
    public func hasPrefix(_ prefix: String) -> Filter<Entity> {
        Filter(.like(column: name, pattern: Self.escape(prefix) + "%"))
    }

    /// Matches rows whose text ends with `suffix` (ASCII case-insensitive).
    ///
    /// - Parameter suffix: the suffix; `%`, `_` and `\` in it are matched literally.
    /// - Returns: the filter.
    public func hasSuffix(_ suffix: String) -> Filter<Entity> {
        Filter(.like(column: name, pattern: "%" + Self.escape(suffix)))
    }

    /// Matches rows whose text matches a SQL `LIKE` pattern (`%` any run, `_` one character,
    /// `\` escapes; ASCII case-insensitive).
    ///
    /// - Parameter pattern: the pattern, bound as a value.
    /// - Returns: the filter.
    public func like(_ pattern: String) -> Filter<Entity> {
        Filter(.like(column: name, pattern: pattern))
    }

    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            if character == "%" || character == "_" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result
    }
}

extension Field where Value: ExpressibleByNilLiteral {
    /// Matches rows where this optional property is `nil` (SQL `IS NULL`).
    public var isNil: Filter<Entity> { Filter(.isNull(column: name, negated: false)) }
    /// Matches rows where this optional property has a value (SQL `IS NOT NULL`).
    public var isNotNil: Filter<Entity> { Filter(.isNull(column: name, negated: true)) }
}
