public import Foundation

/// A store of your `Codable` entities in one SQLite file (or in memory), with contexts,
/// observation and migration.
///
/// ```swift
/// let store = try ObjectStore(at: url, entities: [Book.self])
/// try store.context.persistAndWait { tx in try tx.upsert(book, matching: Book.isbnKey) }
/// let books = try store.context.readAndWait { tx in
///     try tx.fetch(Query<Book>(sortedBy: [Book.title.ascending(caseInsensitive: true)]))
/// }
/// ```
///
/// Opening the store creates missing tables and columns and runs pending ``Migration``s;
/// see ``init(at:entities:configure:)``. The file is in WAL mode with foreign keys on.
public final class ObjectStore: Sendable {
    let core: StoreCore
    /// The store's file, or `nil` for an in-memory store.
    public let url: URL?
    /// The store's default context, ready to use from any thread.
    public let context: ObjectContext
    let observerContext: ObjectContext
    /// Checks for other processes' commits, when the configuration asks for it.
    private let externalCommits: ExternalCommitWatcher?

    /// Opens or creates the store at `url`, bringing its tables up to date with `entities`.
    ///
    /// On open the store compares each entity with its table: a new entity gets its table, a new
    /// `Optional` (or defaulted) property gets its column with existing rows intact, and a new
    /// index or unique key is created, and a table that holds no rows is created again in its
    /// entity's shape when nothing else refers to it or hangs on it (the Migrating Entities
    /// article lists the cases). Anything else stops the open with
    /// ``PersistenceError/Code-swift.struct/incompatibleSchema`` naming the entity and property, leaving the file
    /// untouched; add a ``Migration`` for it. A file written by an older store format is
    /// upgraded. All of it runs in one transaction, before the file is switched to WAL: an open
    /// that fails changes no byte of the file.
    ///
    /// - Parameters:
    ///   - url: the database file; its directory must exist and be writable.
    ///   - entities: every entity type the store holds.
    ///   - configure: adjusts the ``Configuration`` (durability, busy timeout, migrations).
    /// - Throws: ``PersistenceError``: ``PersistenceError/Code-swift.struct/cannotOpen`` (missing directory),
    ///   ``PersistenceError/Code-swift.struct/readOnly``, ``PersistenceError/Code-swift.struct/notADatabase``, ``PersistenceError/Code-swift.struct/corrupt``,
    ///   ``PersistenceError/Code-swift.struct/newerSchema``, ``PersistenceError/Code-swift.struct/incompatibleSchema``,
    ///   ``PersistenceError/Code-swift.struct/migrationFailed``, ``PersistenceError/Code-swift.struct/unsupportedValue``.
    public convenience init(
        at url: URL, entities: [any StoredEntity.Type], configure: (inout Configuration) -> Void = { _ in }
    ) throws(PersistenceError) {
        var configuration = Configuration()
        configure(&configuration)
        let path = url.path(percentEncoded: false)
        try Self.checkLocation(path)
        let core = try StoreCore(path: path, isMemory: false, configuration: configuration, entities: entities)
        self.init(core: core, url: url)
    }

    /// Creates an empty store that lives in memory, for tests and previews.
    ///
    /// All its contexts share one connection and take turns; nothing is written to disk.
    ///
    /// - Parameters:
    ///   - entities: every entity type the store holds.
    ///   - configure: adjusts the ``Configuration``.
    /// - Returns: the store.
    /// - Throws: ``PersistenceError/Code-swift.struct/unsupportedValue`` when an entity cannot be stored.
    public static func inMemory(
        entities: [any StoredEntity.Type], configure: (inout Configuration) -> Void = { _ in }
    ) throws(PersistenceError) -> ObjectStore {
        var configuration = Configuration()
        configure(&configuration)
        let core = try StoreCore(path: ":memory:", isMemory: true, configuration: configuration, entities: entities)
        return ObjectStore(core: core, url: nil)
    }

    private init(core: StoreCore, url: URL?) {
        self.core = core
        self.url = url
        let name = url?.lastPathComponent ?? "memory"
        context = ObjectContext(core: core, label: "Persistence.\(name).default")
        observerContext = ObjectContext(core: core, label: "Persistence.\(name).observation")
        if let interval = core.configuration.externalCommitPolling, !core.isMemory {
            let watcher = ExternalCommitWatcher(interval: interval, reader: observerContext)
            externalCommits = watcher
            watcher.start()
        } else {
            externalCommits = nil
        }
    }

    /// Makes another context, with its own queue and connection.
    ///
    /// Contexts of one store read at the same time and take turns to write.
    ///
    /// - Parameter label: a name for the context's queue, for debugging.
    /// - Returns: the new context.
    public func makeContext(label: String = "Persistence.context") -> ObjectContext {
        ObjectContext(core: core, label: label)
    }

    /// Runs the blocks already queued on every context of this store, then closes every
    /// context's connection.
    ///
    /// Every change whose block returned is already committed; closing only releases the file.
    /// Using the store or its contexts afterwards throws ``PersistenceError/Code-swift.struct/closed``. Call it from
    /// outside the store's blocks.
    ///
    /// Nothing runs at program exit: a block not started when the program exits is not run.
    /// Call `close()` (or await the last `persist`) before exiting. Releasing the store and
    /// its contexts without closing is safe too: each queued block holds its context, so the
    /// blocks run in order and the file closes when the last context is released.
    public func close() {
        for context in core.contexts.live { context.waitUntilIdle() }
        core.closed.set()
        for context in core.contexts.live { context.close() }
        if core.isMemory,
            (try? core.writerLock.lock(timeout: core.configuration.busyTimeout, purpose: "Closing")) != nil
        {
            core.writerLock.sharedConnection = nil
            core.writerLock.unlock()
        }
        core.center.closeAll(closedError())
    }

    private static func checkLocation(_ path: String) throws(PersistenceError) {
        let directory = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        let manager = FileManager.default
        guard manager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PersistenceError(
                .cannotOpen,
                "The directory \(directory) does not exist, so the store \(path) cannot be created there. "
                    + "Create the directory first.")
        }
        if manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw PersistenceError(.cannotOpen, "\(path) is a directory, not a database file.")
        }
        guard manager.isWritableFile(atPath: directory) else {
            throw PersistenceError(
                .readOnly,
                "The directory \(directory) is not writable; the store needs to write its file and its journal "
                    + "(-wal, -shm) there. Choose a writable directory.")
        }
        if manager.fileExists(atPath: path), !manager.isWritableFile(atPath: path) {
            throw PersistenceError(.readOnly, "The database file \(path) is read-only; the store needs to write it.")
        }
    }
}
