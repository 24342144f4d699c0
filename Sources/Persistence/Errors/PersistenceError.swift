/// An error thrown by the store, with a message a person can act on.
///
/// Match a kind of error with a `catch` pattern:
///
/// ```swift
/// do {
///     try context.persistAndWait { try $0.insert(book) }
/// } catch PersistenceError.uniqueKeyViolation {
///     print("That book is already in the library")
/// }
/// ```
///
/// New kinds can be added without breaking callers: the kinds are static values,
/// not enum cases.
public struct PersistenceError: Error, Sendable, CustomStringConvertible {
    /// The kind of an error; compare errors by kind with `~=` or ``kind``.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate let name: String

        /// The kind's name, for logs.
        public var description: String { name }
    }

    /// What kind of error this is.
    public let kind: Kind
    /// A sentence saying what went wrong and what to do about it.
    public let message: String
    /// The entity the error concerns, when there is one.
    public let entity: String?
    /// The property (column) the error concerns, when there is one.
    public let property: String?
    /// SQLite's extended result code, when SQLite reported the error.
    public let sqliteCode: Int32?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: the kind of error.
    ///   - message: what went wrong and what to do about it.
    ///   - entity: the entity concerned, if any.
    ///   - property: the property concerned, if any.
    ///   - sqliteCode: SQLite's extended result code, if SQLite reported it.
    public init(
        _ kind: Kind, _ message: String, entity: String? = nil, property: String? = nil, sqliteCode: Int32? = nil
    ) {
        self.kind = kind
        self.message = message
        self.entity = entity
        self.property = property
        self.sqliteCode = sqliteCode
    }

    /// The message, prefixed with the kind.
    public var description: String { "PersistenceError.\(kind.name): \(message)" }

    /// Whether `error` is a ``PersistenceError`` of the same kind as `pattern`.
    ///
    /// - Parameters:
    ///   - pattern: one of the static kinds, such as ``uniqueKeyViolation``.
    ///   - error: the error to test.
    /// - Returns: `true` when the kinds match.
    public static func ~= (pattern: PersistenceError, error: any Error) -> Bool {
        (error as? PersistenceError)?.kind == pattern.kind
    }

    private static func make(_ name: String, _ message: String) -> PersistenceError {
        PersistenceError(Kind(name: name), message)
    }

    /// The file exists but is not a SQLite database.
    public static let notADatabase = make("notADatabase", "The file is not a database.")
    /// The file is a SQLite database whose content is damaged.
    public static let corrupt = make("corrupt", "The database file is corrupt.")
    /// The file cannot be opened or created, for example because its directory is missing.
    public static let cannotOpen = make("cannotOpen", "The database file cannot be opened.")
    /// The file or its directory cannot be written.
    public static let readOnly = make("readOnly", "The database is read-only.")
    /// The disk (or the store's size limit) is full.
    public static let diskFull = make("diskFull", "The disk is full.")
    /// A value has a type the store cannot hold, or a value out of the column's range.
    public static let unsupportedValue = make("unsupportedValue", "The value cannot be stored.")
    /// A write would store a second row with the same identity or unique key.
    public static let uniqueKeyViolation = make("uniqueKeyViolation", "A unique key is violated.")
    /// A write breaks another constraint, such as a missing value for a non-optional property.
    public static let constraintViolation = make("constraintViolation", "A constraint is violated.")
    /// The file was written by a newer version of the program (a newer schema).
    public static let newerSchema = make("newerSchema", "The store was written by a newer version.")
    /// An entity changed in a way the store cannot apply on its own; a ``Migration`` is needed.
    public static let incompatibleSchema = make("incompatibleSchema", "The entity no longer matches its table.")
    /// A named ``Migration`` failed; its transaction was rolled back.
    public static let migrationFailed = make("migrationFailed", "A migration failed.")
    /// The store stayed locked by another writer for longer than the busy timeout.
    public static let busy = make("busy", "The database is locked.")
    /// A query names a property the entity does not store, or compares it with a value of another type.
    public static let unknownProperty = make("unknownProperty", "The entity has no such property.")
    /// A stored value's SQLite type is not the one its property is stored as (for example `TEXT`
    /// in a column that holds a `Double`), or an entity's `encode(to:)` writes a different type
    /// than its `init(from:)` reads. The message names `Entity.property`, the stored type and the
    /// expected one; the store never converts such a value silently.
    public static let typeMismatch = make("typeMismatch", "A stored value does not have its property's type.")
    /// A full-text query given to ``Field/matches(_:)`` is malformed (an unbalanced quote, a
    /// bare operator); the message names the query and what SQLite's FTS5 found wrong.
    public static let invalidQuery = make("invalidQuery", "A full-text query is malformed.")
    /// A row could not be turned into an entity value.
    public static let decodingFailed = make("decodingFailed", "A row could not be decoded.")
    /// An entity value could not be turned into a row.
    public static let encodingFailed = make("encodingFailed", "An entity could not be encoded.")
    /// An update or a fetch by identity found no row.
    public static let notFound = make("notFound", "No row has that identity.")
    /// A transaction was used outside its block, or a write was attempted in a read.
    public static let misuse = make("misuse", "The transaction cannot be used here.")
    /// The store or context was closed.
    public static let closed = make("closed", "The store is closed.")
    /// SQLite reported an error of another kind (see ``sqliteCode``).
    public static let sqlite = make("sqlite", "SQLite reported an error.")
}

extension PersistenceError: Equatable {
    /// Two errors are equal when they are of the same kind (messages and subjects are details).
    ///
    /// This lets `#expect(throws: PersistenceError.uniqueKeyViolation)` and `==` checks read naturally.
    ///
    /// - Parameters:
    ///   - lhs: an error.
    ///   - rhs: another error.
    /// - Returns: whether their kinds are equal.
    public static func == (lhs: PersistenceError, rhs: PersistenceError) -> Bool {
        lhs.kind == rhs.kind
    }
}
