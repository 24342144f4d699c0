/// A full-text index over an entity's text properties, searched with ``Field/matches(_:)``.
///
/// Declare it on the entity; the store keeps it in SQLite's FTS5 and updates it in the same
/// transaction as every insert, update, upsert and delete (raw SQL included, through triggers).
/// Opening a store that has rows but no index yet builds it for them.
///
/// ```swift
/// struct Book: StoredEntity {
///     var id: String
///     var title: String
///     var authorNames: String
///
///     static let title = Field<Book, String>("title")
///     static let authorNames = Field<Book, String>("authorNames")
///     static let fullTextIndex: FullTextIndex<Book>? = FullTextIndex(title, authorNames)
/// }
/// ```
///
/// Words are split on spaces and punctuation (FTS5's `unicode61` tokenizer) and compared
/// ignoring case and diacritics.
public struct FullTextIndex<Entity: StoredEntity>: Sendable, Hashable {
    /// The names of the indexed properties, in order.
    public let columns: [String]

    /// Declares a full-text index over one or more text properties.
    ///
    /// - Parameter fields: the indexed fields (`String` or `String?` properties).
    public init<each Value: TextQueryableValue>(_ fields: repeat Field<Entity, each Value>) {
        var names: [String] = []
        for field in repeat each fields { names.append(field.name) }
        columns = names
    }
}
