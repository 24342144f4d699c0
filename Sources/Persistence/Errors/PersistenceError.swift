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
    init(
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
