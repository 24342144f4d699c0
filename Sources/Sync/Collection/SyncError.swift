public import FetchKit
import Foundation
public import Persistence

/// A sync failure, naming the collection and, where there is one, the record, the page and the
/// property.
///
/// Nothing is applied half: a page that fails is rolled back with its cursor, and a write that
/// fails stays in the outbox.
public struct SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        init(_ name: String) { self.name = name }

        /// A request failed (the server could not be reached, answered with an error, or
        /// timed out); ``SyncError/fetchError`` has the details. Retried.
        public static let requestFailed = Code("requestFailed")
        /// The server refused the credentials (`401` after the authenticator's refresh). The
        /// outbox waits; nothing is rejected.
        public static let unauthorized = Code("unauthorized")
        /// A page of changes did not decode, or does not make sense (more pages follow but no new
        /// cursor was given): ``SyncError/page`` names it, ``SyncError/property`` the value that
        /// did not decode when the reader said which.
        public static let undecodablePage = Code("undecodablePage")
        /// The store refused a record or a write (a value it cannot hold, a full disk);
        /// ``SyncError/persistenceError`` has the details.
        public static let storeFailed = Code("storeFailed")
        /// The server rejected the cursor again during the full resync it started.
        public static let cursorRejected = Code("cursorRejected")
        /// A pending write's payload does not decode as the entity (a schema change not upgraded).
        public static let undecodableWrite = Code("undecodableWrite")
        /// The server answered a write with something that is not an answer to it: a body that
        /// does not decode, or another record than the one written. The server may have applied
        /// the write, so it stays queued with its idempotency key and is sent again on a later run
        /// (a create then meets "already exists" and is confirmed by a read; a delete meets `404`).
        public static let badWriteResponse = Code("badWriteResponse")
        /// The server answered an update or a delete with `404 Not Found` while a read still finds
        /// the record: the write is addressed where the server does not take it (another
        /// identity, a path its rules refuse). It stays queued, and the error names the record.
        public static let misaddressedWrite = Code("misaddressedWrite")
        /// A write the collection refuses: one it cannot queue (a non-idempotent operator), or one
        /// made straight through the store to the entity of a collection the app changes, which
        /// would never reach the server (the `persist` block is rolled back).
        public static let refusedWrite = Code("refusedWrite")
        /// A record of a page refers (through a `ToOne` reference) to a parent of its
        /// ``SyncGroup`` that the store does not hold and the server did not send when the
        /// parent's collection was pulled again, nor when it was looked up: ``SyncError/record`` names the record,
        /// ``SyncError/property`` the reference, the message the parent. Nothing of the page is
        /// applied; the next sync reads it again.
        public static let missingParent = Code("missingParent")
        /// The server refused the listing of a scope (a `4xx` to its first page: a filter it
        /// does not take, a parameter it does not know): ``SyncError/page`` names the scope.
        /// Nothing of the scope is applied and the collection's rows stay; change or drop the
        /// scope (``SyncedCollection/scope(to:)``).
        public static let scopeRefused = Code("scopeRefused")
        /// The mirror was used in a way it does not support (a keyset cursor without a version).
        public static let misuse = Code("misuse")
        /// A record's file cannot be attached, found or kept on this device: the file to attach
        /// cannot be read, the store is in memory or its folder cannot be written, a file the
        /// record names is not on this device and not on the server, or a name the server sent is
        /// not one file name.
        public static let fileUnavailable = Code("fileUnavailable")

        /// The code's name.
        public var description: String { name }
    }

    /// The kind of failure.
    public let code: Code
    /// The collection's name.
    public let collection: String
    /// The record's identity, when the failure concerns one.
    public let record: String?
    /// The page's cursor, when the failure concerns a page of changes.
    public let page: String?
    /// The property (a coding path such as `items[3].title`, or a stored property's name), when
    /// the failure concerns one value.
    public let property: String?
    /// What went wrong and what to do, in one line.
    public let message: String
    /// The request's error, for ``Code-swift.struct/requestFailed`` and
    /// ``Code-swift.struct/unauthorized``.
    public let fetchError: FetchError?
    /// The store's error, for ``Code-swift.struct/storeFailed``.
    public let persistenceError: PersistenceError?

    init(
        _ code: Code, collection: String, record: String? = nil, page: String? = nil, property: String? = nil,
        _ message: String, fetchError: FetchError? = nil, persistenceError: PersistenceError? = nil
    ) {
        self.code = code
        self.collection = collection
        self.record = record
        self.page = page
        self.property = property ?? persistenceError?.property
        self.message = message
        self.fetchError = fetchError
        self.persistenceError = persistenceError
    }

    /// `SyncError.<code>: <message>`, on one line.
    public var description: String {
        "SyncError.\(code): \(message)".split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// Errors are equal when their code, collection, record, page, property and message are.
    public static func == (lhs: SyncError, rhs: SyncError) -> Bool {
        lhs.code == rhs.code && lhs.collection == rhs.collection && lhs.record == rhs.record
            && lhs.page == rhs.page && lhs.property == rhs.property && lhs.message == rhs.message
    }

    /// Hashes the code, collection, record, page, property and message.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(collection)
        hasher.combine(record)
        hasher.combine(page)
        hasher.combine(property)
        hasher.combine(message)
    }

    /// Whether a later run may succeed without anyone changing anything: a request that failed
    /// on the way (its `fetchError` is transient: `FetchError.isTransient`), a busy store.
    public var isTransient: Bool {
        switch code {
        case .requestFailed: fetchError?.isTransient ?? true
        case .storeFailed: persistenceError?.code == .busy
        default: false
        }
    }
}
