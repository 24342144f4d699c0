import Foundation
import Locking

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// The state shared by a store's contexts: where the file is, the schemas, the writer
/// lock, the observation center.
final class StoreCore: Sendable {
    let path: String
    let isMemory: Bool
    let configuration: ObjectStore.Configuration
    let schemas: [ObjectIdentifier: EntitySchema]
    let writerLock: WriterLock
    let center = ObservationCenter()
    let closed = LockedFlag()
    /// The store's live contexts, so ``ObjectStore/close()`` can finish their queued blocks
    /// and close their connections.
    let contexts = ContextList()
    /// The entities only their owner writes.
    let guards = WriteGuards()

    init(
        path: String, isMemory: Bool, configuration: ObjectStore.Configuration, entities: [any StoredEntity.Type]
    )
        throws(PersistenceError)
    {
        self.path = path
        self.isMemory = isMemory
        self.configuration = configuration
        var schemas: [ObjectIdentifier: EntitySchema] = [:]
        var ordered: [EntitySchema] = []
        var names: Set<String> = []
        for entity in entities {
            let schema = try Self.schema(of: entity)
            guard names.insert(schema.entityName).inserted else {
                throw PersistenceError(
                    .misuse,
                    "Two entities share the table name \"\(schema.entityName)\"; give one a different `entityName`.",
                    entity: schema.entityName)
            }
            guard !schema.entityName.hasPrefix("fk_"), !schema.entityName.hasPrefix("sqlite_") else {
                throw PersistenceError(
                    .misuse, "The table name \"\(schema.entityName)\" is reserved; choose another `entityName`.",
                    entity: schema.entityName)
            }
            ordered.append(schema)
        }
        ordered = try RelationDeclaration.resolve(ordered)
        for schema in ordered { schemas[schema.key] = schema }
        self.schemas = schemas
        let setup = try Self.connect(path: path, configuration: configuration, schemas: schemas, create: true)
        // Read-only checks first; the migration runner changes the file in one transaction that
        // rolls back on any failure; only then does the file switch to WAL.
        let version = try setup.scalar("PRAGMA user_version").integerValue ?? 0
        try Self.checkVersion(version, connection: setup)
        try MigrationRunner.run(setup, schemas: ordered, configuration: configuration)
        try Self.enableWAL(setup, isMemory: isMemory)
        writerLock = WriterLock(shared: isMemory ? setup : nil)
    }

    private static func schema<E: StoredEntity>(of type: E.Type) throws(PersistenceError) -> EntitySchema {
        try EntitySchema(E.self)
    }

    static func connect(
        path: String, configuration: ObjectStore.Configuration, schemas: [ObjectIdentifier: EntitySchema],
        create: Bool
    ) throws(PersistenceError) -> Connection {
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        let connection = try Connection(path: path, flags: flags)
        sqlite3_busy_timeout(connection.handle, Int32(max(0, min(configuration.busyTimeout.timeInterval * 1000, 2e9))))
        let synchronous = configuration.synchronous == .full ? "FULL" : "NORMAL"
        let cacheKiB = max(64, configuration.pageCacheSize / 1024)
        try connection.execute(
            "PRAGMA foreign_keys = ON; PRAGMA synchronous = \(synchronous); PRAGMA cache_size = -\(cacheKiB)")
        connection.pageCacheKiB = cacheKiB
        connection.schemas = schemas
        return connection
    }

    /// Refuses a file written by a newer store format, before anything is written.
    static func checkVersion(_ version: Int64, connection: Connection) throws(PersistenceError) {
        if version > SchemaReconciler.formatVersion {
            throw PersistenceError(
                .newerSchema,
                "The store at \(connection.path) was written by a newer version of this program (store format "
                    + "\(version), this version reads up to \(SchemaReconciler.formatVersion)). Update the program; "
                    + "the file was left untouched.")
        }
    }

    /// Switches the file to WAL, once it is known to be a compatible store.
    private static func enableWAL(_ connection: Connection, isMemory: Bool) throws(PersistenceError) {
        guard !isMemory else { return }
        let mode = try connection.scalar("PRAGMA journal_mode = WAL").textValue?.lowercased()
        guard mode == "wal" else {
            throw PersistenceError(
                .cannotOpen,
                "The store at \(connection.path) could not switch to WAL journaling (got \(mode ?? "none")).")
        }
    }

    func makeConnection() throws(PersistenceError) -> Connection {
        guard !closed.isSet else { throw PersistenceError(.closed, "The store at \(path) was closed.") }
        return try Self.connect(path: path, configuration: configuration, schemas: schemas, create: false)
    }

    func didCommit(_ transaction: ObjectTransaction) {
        center.didCommit(
            CommitSummary(
                tables: transaction.touched, everything: transaction.touchedEverything,
                rowids: transaction.changedRows, unknown: transaction.unknownChanges,
                written: transaction.writtenValues))
    }
}

extension EntitySchema {
    var key: ObjectIdentifier { keyStorage }
}

/// The live contexts of one store, held weakly: a context lives as long as its user or a block
/// queued on it holds it, and leaves the list when it is released.
final class ContextList: Sendable {
    private struct Weak { weak var context: ObjectContext? }
    private let entries = Locked<[Weak]>([])

    /// Adds `context`, dropping the entries of released contexts.
    func add(_ context: ObjectContext) {
        entries.withLock { entries in
            entries.removeAll { $0.context == nil }
            entries.append(Weak(context: context))
        }
    }

    /// The contexts still alive.
    var live: [ObjectContext] { entries.withLock { $0.compactMap(\.context) } }
}
