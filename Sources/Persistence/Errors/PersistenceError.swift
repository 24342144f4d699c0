import Locking

/// An error thrown by the store: a ``code`` a caller can switch on, the entity and property it
/// concerns, and a message a person can act on.
///
/// Match a kind of error with its ``Code-swift.struct``, in a `catch` or a `switch`:
///
/// ```swift
/// do {
///     try context.persistAndWait { try $0.insert(book) }
/// } catch PersistenceError.Code.uniqueKeyViolation {
///     print("That book is already in the library")
/// }
/// ```
///
/// New codes can be added without breaking callers: they are static values, not enum cases.
public struct PersistenceError: Error, Sendable, CustomStringConvertible {
    /// The kind of a ``PersistenceError``. New codes may be added without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The file exists but is not a SQLite database.
        public static let notADatabase = Code("notADatabase")
        /// The file is a SQLite database whose content is damaged.
        public static let corrupt = Code("corrupt")
        /// The file cannot be opened or created, for example because its directory is missing.
        public static let cannotOpen = Code("cannotOpen")
        /// The file or its directory cannot be written.
        public static let readOnly = Code("readOnly")
        /// The disk (or the store's size limit) is full.
        public static let diskFull = Code("diskFull")
        /// A value has a type the store cannot hold, or a value out of the column's range.
        public static let unsupportedValue = Code("unsupportedValue")
        /// A write would store a second row with the same identity or unique key.
        public static let uniqueKeyViolation = Code("uniqueKeyViolation")
        /// A write breaks another constraint, such as a missing value for a non-optional property.
        public static let constraintViolation = Code("constraintViolation")
        /// The file was written by a newer version of the program (a newer schema).
        public static let newerSchema = Code("newerSchema")
        /// An entity changed in a way the store cannot apply on its own; a ``Migration`` is needed.
        public static let incompatibleSchema = Code("incompatibleSchema")
        /// A named ``Migration`` failed; its transaction was rolled back.
        public static let migrationFailed = Code("migrationFailed")
        /// The store stayed locked by another writer for longer than the busy timeout.
        public static let busy = Code("busy")
        /// A query names a property the entity does not store, or compares it with a value of another type.
        public static let unknownProperty = Code("unknownProperty")
        /// A stored value's SQLite type is not the one its property is stored as (for example `TEXT`
        /// in a column that holds a `Double`), or an entity's `encode(to:)` writes a different type
        /// than its `init(from:)` reads. The message names `Entity.property`, the stored type and the
        /// expected one; the store never converts such a value silently.
        public static let typeMismatch = Code("typeMismatch")
        /// A query cannot run as asked: a full-text query given to ``Field/matches(_:)`` is
        /// malformed (an unbalanced quote, a bare operator; the message names the query and what
        /// SQLite's FTS5 found wrong), or an ``Aggregate`` or a grouping names a property it cannot
        /// use (one stored as JSON text; the message names `Entity.property`).
        public static let invalidQuery = Code("invalidQuery")
        /// A sum of integers does not fit in the property's type (or in SQLite's 64-bit integers);
        /// the message names `Entity.property`. The store never lets such a sum wrap.
        public static let overflow = Code("overflow")
        /// A row could not be turned into an entity value.
        public static let decodingFailed = Code("decodingFailed")
        /// An entity value could not be turned into a row.
        public static let encodingFailed = Code("encodingFailed")
        /// A delete was refused because rows refer to the row through a relation whose delete rule is
        /// ``DeleteRule/deny`` (or ``DeleteRule/none``); the message names the deleted entity, the
        /// relation and how many rows block it. Nothing was deleted.
        public static let deleteDenied = Code("deleteDenied")
        /// A write stores a reference (a ``ToOne`` property or a link) to a row that does not exist;
        /// the message names `Entity.property` and the missing identity. Nothing was written.
        public static let missingReference = Code("missingReference")
        /// An update or a fetch by identity found no row.
        public static let notFound = Code("notFound")
        /// A transaction was used outside its block, or a write was attempted in a read.
        public static let misuse = Code("misuse")
        /// The store or context was closed.
        public static let closed = Code("closed")
        /// SQLite reported an error of another kind (see ``sqliteCode``).
        public static let sqlite = Code("sqlite")

        /// The code's name, such as `busy`.
        public var description: String { name }

        /// Whether `value` is a ``PersistenceError`` with this code, so a `catch` or `case` names
        /// the kind of error: `catch PersistenceError.Code.busy`.
        ///
        /// - Parameters:
        ///   - pattern: the code to match, such as ``busy``.
        ///   - value: any error.
        /// - Returns: `true` when `value` is a ``PersistenceError`` whose ``PersistenceError/code`` is `pattern`.
        public static func ~= (pattern: Code, value: any Error) -> Bool {
            (value as? PersistenceError)?.code == pattern
        }
    }

    /// What kind of error this is.
    public let code: Code
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
    ///   - code: the kind of error.
    ///   - message: what went wrong and what to do about it.
    ///   - entity: the entity concerned, if any.
    ///   - property: the property concerned, if any.
    ///   - sqliteCode: SQLite's extended result code, if SQLite reported it.
    public init(
        _ code: Code, _ message: String, entity: String? = nil, property: String? = nil, sqliteCode: Int32? = nil
    ) {
        self.code = code
        self.message = message
        self.entity = entity
        self.property = property
        self.sqliteCode = sqliteCode
    }

    /// The message, prefixed with the code, on one line: `PersistenceError.busy: …`.
    public var description: String { "PersistenceError.\(code): \(message)".oneLine }

    // MARK: Deprecated names

    /// What kind of error this is; renamed ``code``.
    @available(*, deprecated, renamed: "code")
    public var kind: Code { code }

    /// The kind of an error; renamed ``Code-swift.struct``.
    @available(*, deprecated, renamed: "Code")
    public typealias Kind = Code

    /// Whether `error` is a ``PersistenceError`` of the same code as `pattern`.
    ///
    /// - Parameters:
    ///   - pattern: one of the deprecated error constants.
    ///   - error: the error to test.
    /// - Returns: `true` when the codes match.
    @available(*, deprecated, message: "match the code: catch PersistenceError.Code.busy")
    public static func ~= (pattern: PersistenceError, error: any Error) -> Bool {
        (error as? PersistenceError)?.code == pattern.code
    }

    /// A ``Code-swift.struct/notADatabase`` error; match `PersistenceError.Code.notADatabase` instead.
    @available(*, deprecated, renamed: "Code.notADatabase", message: "match the code: catch PersistenceError.Code.notADatabase")
    public static let notADatabase = PersistenceError(.notADatabase, "The file is not a database.")
    /// A ``Code-swift.struct/corrupt`` error; match `PersistenceError.Code.corrupt` instead.
    @available(*, deprecated, renamed: "Code.corrupt", message: "match the code: catch PersistenceError.Code.corrupt")
    public static let corrupt = PersistenceError(.corrupt, "The database file is corrupt.")
    /// A ``Code-swift.struct/cannotOpen`` error; match `PersistenceError.Code.cannotOpen` instead.
    @available(*, deprecated, renamed: "Code.cannotOpen", message: "match the code: catch PersistenceError.Code.cannotOpen")
    public static let cannotOpen = PersistenceError(.cannotOpen, "The database file cannot be opened.")
    /// A ``Code-swift.struct/readOnly`` error; match `PersistenceError.Code.readOnly` instead.
    @available(*, deprecated, renamed: "Code.readOnly", message: "match the code: catch PersistenceError.Code.readOnly")
    public static let readOnly = PersistenceError(.readOnly, "The database is read-only.")
    /// A ``Code-swift.struct/diskFull`` error; match `PersistenceError.Code.diskFull` instead.
    @available(*, deprecated, renamed: "Code.diskFull", message: "match the code: catch PersistenceError.Code.diskFull")
    public static let diskFull = PersistenceError(.diskFull, "The disk is full.")
    /// A ``Code-swift.struct/unsupportedValue`` error; match `PersistenceError.Code.unsupportedValue` instead.
    @available(*, deprecated, renamed: "Code.unsupportedValue", message: "match the code: catch PersistenceError.Code.unsupportedValue")
    public static let unsupportedValue = PersistenceError(.unsupportedValue, "The value cannot be stored.")
    /// A ``Code-swift.struct/uniqueKeyViolation`` error; match `PersistenceError.Code.uniqueKeyViolation` instead.
    @available(*, deprecated, renamed: "Code.uniqueKeyViolation", message: "match the code: catch PersistenceError.Code.uniqueKeyViolation")
    public static let uniqueKeyViolation = PersistenceError(.uniqueKeyViolation, "A unique key is violated.")
    /// A ``Code-swift.struct/constraintViolation`` error; match `PersistenceError.Code.constraintViolation` instead.
    @available(*, deprecated, renamed: "Code.constraintViolation", message: "match the code: catch PersistenceError.Code.constraintViolation")
    public static let constraintViolation = PersistenceError(.constraintViolation, "A constraint is violated.")
    /// A ``Code-swift.struct/newerSchema`` error; match `PersistenceError.Code.newerSchema` instead.
    @available(*, deprecated, renamed: "Code.newerSchema", message: "match the code: catch PersistenceError.Code.newerSchema")
    public static let newerSchema = PersistenceError(.newerSchema, "The store was written by a newer version.")
    /// A ``Code-swift.struct/incompatibleSchema`` error; match `PersistenceError.Code.incompatibleSchema` instead.
    @available(*, deprecated, renamed: "Code.incompatibleSchema", message: "match the code: catch PersistenceError.Code.incompatibleSchema")
    public static let incompatibleSchema = PersistenceError(.incompatibleSchema, "The entity no longer matches its table.")
    /// A ``Code-swift.struct/migrationFailed`` error; match `PersistenceError.Code.migrationFailed` instead.
    @available(*, deprecated, renamed: "Code.migrationFailed", message: "match the code: catch PersistenceError.Code.migrationFailed")
    public static let migrationFailed = PersistenceError(.migrationFailed, "A migration failed.")
    /// A ``Code-swift.struct/busy`` error; match `PersistenceError.Code.busy` instead.
    @available(*, deprecated, renamed: "Code.busy", message: "match the code: catch PersistenceError.Code.busy")
    public static let busy = PersistenceError(.busy, "The database is locked.")
    /// A ``Code-swift.struct/unknownProperty`` error; match `PersistenceError.Code.unknownProperty` instead.
    @available(*, deprecated, renamed: "Code.unknownProperty", message: "match the code: catch PersistenceError.Code.unknownProperty")
    public static let unknownProperty = PersistenceError(.unknownProperty, "The entity has no such property.")
    /// A ``Code-swift.struct/typeMismatch`` error; match `PersistenceError.Code.typeMismatch` instead.
    @available(*, deprecated, renamed: "Code.typeMismatch", message: "match the code: catch PersistenceError.Code.typeMismatch")
    public static let typeMismatch = PersistenceError(.typeMismatch, "A stored value does not have its property's type.")
    /// A ``Code-swift.struct/invalidQuery`` error; match `PersistenceError.Code.invalidQuery` instead.
    @available(*, deprecated, renamed: "Code.invalidQuery", message: "match the code: catch PersistenceError.Code.invalidQuery")
    public static let invalidQuery = PersistenceError(.invalidQuery, "A full-text query is malformed.")
    /// A ``Code-swift.struct/decodingFailed`` error; match `PersistenceError.Code.decodingFailed` instead.
    @available(*, deprecated, renamed: "Code.decodingFailed", message: "match the code: catch PersistenceError.Code.decodingFailed")
    public static let decodingFailed = PersistenceError(.decodingFailed, "A row could not be decoded.")
    /// A ``Code-swift.struct/encodingFailed`` error; match `PersistenceError.Code.encodingFailed` instead.
    @available(*, deprecated, renamed: "Code.encodingFailed", message: "match the code: catch PersistenceError.Code.encodingFailed")
    public static let encodingFailed = PersistenceError(.encodingFailed, "An entity could not be encoded.")
    /// A ``Code-swift.struct/notFound`` error; match `PersistenceError.Code.notFound` instead.
    @available(*, deprecated, renamed: "Code.notFound", message: "match the code: catch PersistenceError.Code.notFound")
    public static let notFound = PersistenceError(.notFound, "No row has that identity.")
    /// A ``Code-swift.struct/misuse`` error; match `PersistenceError.Code.misuse` instead.
    @available(*, deprecated, renamed: "Code.misuse", message: "match the code: catch PersistenceError.Code.misuse")
    public static let misuse = PersistenceError(.misuse, "The transaction cannot be used here.")
    /// A ``Code-swift.struct/closed`` error; match `PersistenceError.Code.closed` instead.
    @available(*, deprecated, renamed: "Code.closed", message: "match the code: catch PersistenceError.Code.closed")
    public static let closed = PersistenceError(.closed, "The store is closed.")
    /// A ``Code-swift.struct/sqlite`` error; match `PersistenceError.Code.sqlite` instead.
    @available(*, deprecated, renamed: "Code.sqlite", message: "match the code: catch PersistenceError.Code.sqlite")
    public static let sqlite = PersistenceError(.sqlite, "SQLite reported an error.")
}

extension PersistenceError: Equatable {
    /// Two errors are equal when they are of the same code (messages and subjects are details).
    ///
    /// - Parameters:
    ///   - lhs: an error.
    ///   - rhs: another error.
    /// - Returns: whether their codes are equal.
    public static func == (lhs: PersistenceError, rhs: PersistenceError) -> Bool {
        lhs.code == rhs.code
    }
}
