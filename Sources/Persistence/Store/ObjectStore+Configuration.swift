public import Foundation

extension ObjectStore {
    /// How a store opens its file: durability, lock waiting, and named migrations.
    ///
    /// ```swift
    /// let store = try ObjectStore(at: url, entities: [Book.self]) { config in
    ///     config.synchronous = .full
    ///     config.migrations = [Migration("fill-years") { tx in try tx.execute("UPDATE Book SET year = 0") }]
    /// }
    /// ```
    public struct Configuration: Sendable {
        /// When SQLite waits for the disk on commit.
        public enum Synchronous: Sendable {
            /// `synchronous=NORMAL` (the default): a commit survives the program crashing or
            /// being killed; after a power loss or OS crash the last commits may be rolled back
            /// (the file is never corrupted).
            case normal
            /// `synchronous=FULL`: a commit also survives a power loss or OS crash, at the cost
            /// of one disk flush per commit.
            case full
        }

        /// The durability setting; ``Synchronous/normal`` by default.
        public var synchronous: Synchronous = .normal
        /// How long a writer waits for another writer before failing with
        /// ``PersistenceError/Code-swift.struct/busy``; 5 seconds by default.
        public var busyTimeout: Duration = .seconds(5)
        /// How much memory each connection may use to cache database pages, in bytes; 64 MiB by
        /// default (SQLite's own default is 2 MiB).
        ///
        /// Index and table pages that stay cached spare disk reads: with SQLite's default, inserting
        /// into a table of a million rows with a secondary index slows down once the index outgrows
        /// the cache. The memory is only used as pages are read; each context has its own connection
        /// and cache. See the size sweep in `Docs/Benchmarks.md` for the measurements behind the
        /// default.
        public var pageCacheSize: Int = 64 << 20
        /// The named migrations, in the order they must run. Keep every migration in this list
        /// for the life of the app: the store refuses to open a file that records a migration it
        /// does not know (the file was written by a newer version).
        public var migrations: [Migration] = []
        /// How often the store checks whether another process (or another `ObjectStore` on the same
        /// file) committed, so that observations (however started, ``LiveValue`` included) see those commits
        /// too; `nil` (the default) never checks.
        ///
        /// Commits made through this store's own contexts reach observers at once, with the rows they
        /// changed; nothing else tells a process about another's commits. With a value, the store
        /// reads SQLite's `PRAGMA data_version` at that interval while anything observes it, and when
        /// the file changed it refreshes every observation in full (another process's commit does not
        /// say which rows it changed; when this process writes too, a check cannot tell whose commit it
        /// saw, so it refreshes anyway: a refresh that finds nothing new delivers nothing). An
        /// in-memory store has no other writers and never checks.
        public var externalCommitPolling: Duration?
        /// Where ``ObjectStore/observe(_:isolation:onError:handler:)`` runs its callbacks for a
        /// caller isolated to no actor (a command-line tool, a worker); `nil` (the default) for a
        /// serial queue of each observation's own. Callers on the main actor or another actor get
        /// their callbacks there, whatever this says. A serial queue keeps the deliveries of
        /// every observation in one order.
        public var callbackQueue: DispatchQueue?

        /// The default configuration.
        public init() {}
    }
}
