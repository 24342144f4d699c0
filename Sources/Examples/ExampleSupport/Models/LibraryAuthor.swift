public import Persistence

/// An author of books in booklab's library: one row per name, linked to the books they wrote
/// through ``LibraryBook/writtenBy``.
public struct LibraryAuthor: StoredEntity, Equatable {
    /// The author's name, as Google Books lists it (the identity).
    public var id: String

    /// The name column (the identity).
    public static let name = Field<LibraryAuthor, String>("id")

    /// Creates an author.
    ///
    /// - Parameter name: the author's name.
    public init(name: String) {
        id = name
    }
}
