import Dispatch
import Foundation
import Locking

/// A context: one serial queue and one SQLite connection, through which blocks read and write.
///
/// Every block runs on the context's own queue inside one transaction, so there is no
/// thread to get wrong: Core Data's `moc.perform { movie.popularity = rating; try? moc.save() }`
/// becomes
///
/// ```swift
/// try await context.persist { tx in
///     guard var movie = try tx.fetch(Movie.self, id: movieID) else { return }
///     movie.popularity = rating
///     try tx.update(movie)
/// }
/// ```
///
/// **When a change is committed.** A `persist` block's changes are committed when the block
/// returns, before its completion handler runs (or its `async` form returns, or its blocking form
/// returns). From that moment they are visible to every context and durable: they survive the
/// program exiting, crashing or being killed, and, with ``ObjectStore/Configuration/Synchronous/full``,
/// a power loss. A block that throws is rolled back and leaves no trace.
///
/// **Nesting.** A `persist` started with ``persistAndWait(_:)`` *inside* a persist block on the
/// same context runs at once as a savepoint of the outer transaction: if it throws, only its
/// changes are undone and the error reaches its caller; if it returns, its changes are committed
/// with the outer block. ``persist(_:isolation:completion:)`` called inside a block is queued and runs after
/// the current block, in its own transaction. A read inside a persist block sees the block's own
/// uncommitted writes. Neither deadlocks.
///
/// **Concurrency.** Several contexts read at the same time while one writes (SQLite's WAL);
/// writers take turns. A context is thread-safe: call it from any thread.
public final class ObjectContext: @unchecked Sendable {
    // `@unchecked Sendable`: `connection`, `active` and `savepoints` are only touched on
    // `queue`, which every method that touches them asserts (`dispatchPrecondition`);
    // everything else is immutable.
    /// The context's name, also the label of its queue.
    public let label: String
    let core: StoreCore
    let queue: DispatchQueue
    private let specificKey = DispatchSpecificKey<UInt8>()
    private var connection: Connection?
    private var active: ObjectTransaction?
    private var savepoints = 0

    init(core: StoreCore, label: String) {
        self.core = core
        self.label = label
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: specificKey, value: 1)
        core.contexts.add(self)
    }

    /// Whether the caller is running on this context's queue.
    var isOnQueue: Bool { DispatchQueue.getSpecific(key: specificKey) != nil }

    // MARK: Persist

    /// Runs `block` on the context's queue inside one write transaction, then calls `completion`.
    ///
    /// The transaction commits when `block` returns and rolls back when it throws. The call
    /// returns at once; the block is queued behind earlier blocks of this context.
    ///
    /// `completion` runs in the caller's isolation: on the main actor from a `@MainActor` class
    /// (so it can update the class's state), on an actor from its method, and, from code
    /// isolated to no actor, on the context's own serial queue right after the block.
    ///
    /// ```swift
    /// @MainActor final class EditScreen {
    ///     var saved = false
    ///     func save(_ book: Book, in context: ObjectContext) {
    ///         context.persist({ tx in try tx.upsert(book) }) { result in
    ///             self.saved = (try? result.get()) != nil
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - block: the work; it receives the transaction.
    ///   - isolation: where `completion` runs; the caller's isolation (leave it out).
    ///   - completion: called once, after the commit (with the block's value) or the rollback
    ///     (with the block's error or a ``PersistenceError``). It has no default: a write that
    ///     nothing waits for is spelled `completion: nil` on purpose, and its error is then lost.
    ///
    /// `try await context.persist { tx in … }` always calls the `async` form
    /// ``persist(_:)``, in a function as in top-level code: this form needs its `completion:`
    /// argument, so a trailing closure alone never selects it.
    public func persist<T: Sendable>(
        _ block: @escaping @Sendable (ObjectTransaction) throws -> T, isolation: isolated (any Actor)? = #isolation,
        completion: ((Result<T, any Error>) -> Void)?
    ) {
        let (hop, completion) = callback(completion, CallerIsolation(isolation: isolation, queue: self.queue))
        self.queue.async {
            self.deliver(Result { try self.performWrite(block) }, on: hop, to: completion)
        }
    }

    /// `completion` wrapped to run where `caller` says, and the queue to call it on (`nil`: at
    /// once on the context's queue).
    private func callback<T: Sendable>(
        _ completion: ((Result<T, any Error>) -> Void)?, _ caller: CallerIsolation
    ) -> (DispatchQueue?, (@Sendable (Result<T, any Error>) -> Void)?) {
        guard let completion else { return (nil, nil) }
        return (caller.queue === self.queue ? nil : caller.queue, caller.wrap(completion))
    }

    /// Hands `result` to `completion` on `queue`, or at once on the context's queue when `queue` is `nil`.
    private func deliver<T: Sendable>(
        _ result: Result<T, any Error>, on queue: DispatchQueue?,
        to completion: (@Sendable (Result<T, any Error>) -> Void)?
    ) {
        guard let completion else { return }
        if let queue {
            queue.async { completion(result) }
        } else {
            completion(result)
        }
    }

    /// Runs `block` on the context's queue inside one write transaction and returns its value.
    ///
    /// If the task is cancelled before the block starts, the block does not run and the call
    /// throws `CancellationError`; once started, a block runs to its end.
    ///
    /// - Parameter block: the work; it receives the transaction.
    /// - Returns: the block's value, after the commit.
    /// - Throws: the block's error (after the rollback), a ``PersistenceError``, or `CancellationError`.
    @discardableResult
    public func persist<T: Sendable>(_ block: @escaping @Sendable (ObjectTransaction) throws -> T) async throws -> T {
        try await run { try self.performWrite(block) }
    }

    /// Runs `block` inside one write transaction and waits for it; inside another block of this
    /// context it runs at once as a savepoint.
    ///
    /// - Parameter block: the work; it receives the transaction.
    /// - Returns: the block's value, after the commit (or the savepoint's release).
    /// - Throws: the block's error (after the rollback), or a ``PersistenceError``.
    @discardableResult
    public func persistAndWait<T>(_ block: (ObjectTransaction) throws -> T) throws -> T {
        if isOnQueue { return try performWrite(block) }
        return try queue.sync { try performWrite(block) }
    }

    // MARK: Read

    /// Runs `block` on the context's queue inside a read transaction (a consistent snapshot),
    /// then calls `completion`.
    ///
    /// `completion` runs in the caller's isolation, as ``persist(_:isolation:completion:)``'s does.
    ///
    /// - Parameters:
    ///   - block: the reads; writes throw ``PersistenceError/Code-swift.struct/misuse``.
    ///   - isolation: where `completion` runs; the caller's isolation (leave it out).
    ///   - completion: called once with the block's value or error. It has no default (as for
    ///     ``persist(_:isolation:completion:)``), so `try await context.read { tx in … }` always
    ///     calls the `async` form ``read(_:)``.
    public func read<T: Sendable>(
        _ block: @escaping @Sendable (ObjectTransaction) throws -> T, isolation: isolated (any Actor)? = #isolation,
        completion: ((Result<T, any Error>) -> Void)?
    ) {
        let (hop, completion) = callback(completion, CallerIsolation(isolation: isolation, queue: self.queue))
        self.queue.async {
            self.deliver(Result { try self.performRead(block) }, on: hop, to: completion)
        }
    }

    /// Runs `block` on the context's queue inside a read transaction and returns its value.
    ///
    /// - Parameter block: the reads.
    /// - Returns: the block's value.
    /// - Throws: the block's error, a ``PersistenceError``, or `CancellationError`.
    public func read<T: Sendable>(_ block: @escaping @Sendable (ObjectTransaction) throws -> T) async throws -> T {
        try await run { try self.performRead(block) }
    }

    /// Runs `block` inside a read transaction and waits for it; inside another block of this
    /// context it runs at once in that block's transaction.
    ///
    /// - Parameter block: the reads.
    /// - Returns: the block's value.
    /// - Throws: the block's error, or a ``PersistenceError``.
    public func readAndWait<T>(_ block: (ObjectTransaction) throws -> T) throws -> T {
        if isOnQueue { return try performRead(block) }
        return try queue.sync { try performRead(block) }
    }

    /// Waits until every block queued on this context so far has finished.
    public func waitUntilIdle() {
        if isOnQueue { return }
        queue.sync {}
    }

    // MARK: Machinery

    private func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try Task.checkCancellation()
        let cancelled = LockedFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                queue.async {
                    if cancelled.isSet {
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    continuation.resume(with: Result { try work() })
                }
            }
        } onCancel: {
            cancelled.set()
        }
    }

    private func openConnection() throws(PersistenceError) -> Connection {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !core.closed.isSet else {
            throw PersistenceError(.closed, "The store was closed; open it again to use it.")
        }
        if let connection { return connection }
        let made = try core.makeConnection()
        connection = made
        return made
    }

    /// Locks the store for an in-memory store (one shared connection) or a write.
    private func withConnection<T>(write: Bool, _ body: (Connection) throws -> T) throws -> T {
        if core.isMemory {
            try core.writerLock.lock(timeout: core.configuration.busyTimeout, purpose: write ? "A write" : "A read")
            defer { core.writerLock.unlock() }
            guard !core.closed.isSet, let shared = core.writerLock.sharedConnection else {
                throw PersistenceError(.closed, "The store was closed; open it again to use it.")
            }
            return try body(shared)
        }
        let connection = try openConnection()
        if write {
            try core.writerLock.lock(timeout: core.configuration.busyTimeout, purpose: "A write")
            defer { core.writerLock.unlock() }
            return try body(connection)
        }
        return try body(connection)
    }

    func performWrite<T>(_ block: (ObjectTransaction) throws -> T) throws -> T {
        dispatchPrecondition(condition: .onQueue(queue))
        if let outer = active {
            guard outer.isWritable else {
                throw PersistenceError(
                    .misuse, "persist was called inside a read block of the same context; start it outside the read.")
            }
            return try savepoint(outer, block)
        }
        var committed: ObjectTransaction?
        let value = try withConnection(write: true) { connection in
            try connection.cached("BEGIN IMMEDIATE").run()
            let recording = core.center.recording
            connection.changeLog.begin(recording: recording.observed, valueTables: recording.valueTables)
            let tx = ObjectTransaction(connection: connection, writable: true)
            active = tx
            defer {
                active = nil
                tx.isOpen = false
                connection.restorePageCache()
            }
            let value: T
            do {
                value = try block(tx)
                try core.guards.check(tx)
                core.center.countCommit(tables: tx.touched, everything: tx.touchedEverything)
                try connection.cached("COMMIT").run()
                tx.changedRows = connection.changeLog.rowids
                tx.unknownChanges = connection.changeLog.overflowed
                tx.writtenValues = connection.changeLog.written
            } catch {
                if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
                throw error
            }
            committed = tx
            return value
        }
        if let committed { core.didCommit(committed) }
        return value
    }

    private func savepoint<T>(_ outer: ObjectTransaction, _ block: (ObjectTransaction) throws -> T) throws -> T {
        let name = "fk_savepoint_\(savepoints)"
        savepoints += 1
        defer { savepoints -= 1 }
        try outer.connection.execute("SAVEPOINT \(name)")
        let writtenMark = outer.connection.changeLog.writtenMark
        let inner = ObjectTransaction(connection: outer.connection, writable: true)
        active = inner
        defer {
            active = outer
            inner.isOpen = false
        }
        do {
            let value = try block(inner)
            try outer.connection.execute("RELEASE \(name)")
            outer.touched.formUnion(inner.touched)
            outer.written.formUnion(inner.written)
            outer.allowed.formUnion(inner.allowed)
            outer.allowsEveryGuardedWrite = outer.allowsEveryGuardedWrite || inner.allowsEveryGuardedWrite
            outer.touchedEverything = outer.touchedEverything || inner.touchedEverything
            return value
        } catch {
            try? outer.connection.execute("ROLLBACK TO \(name)")
            try? outer.connection.execute("RELEASE \(name)")
            outer.connection.changeLog.rollBack(to: writtenMark)
            throw error
        }
    }

    func performRead<T>(_ block: (ObjectTransaction) throws -> T) throws -> T {
        dispatchPrecondition(condition: .onQueue(queue))
        if let outer = active {
            let inner = ObjectTransaction(connection: outer.connection, writable: false)
            defer { inner.isOpen = false }
            return try block(inner)
        }
        return try withConnection(write: false) { connection in
            try connection.cached("BEGIN").run()
            let tx = ObjectTransaction(connection: connection, writable: false)
            active = tx
            defer {
                active = nil
                tx.isOpen = false
                if !connection.isAutocommit { try? connection.cached("COMMIT").run() }
                connection.restorePageCache()
            }
            return try block(tx)
        }
    }

    /// Closes the context's connection (on its queue, after queued blocks).
    func close() {
        let work = {
            dispatchPrecondition(condition: .onQueue(self.queue))
            self.connection?.closeStatements()
            self.connection = nil
        }
        if isOnQueue { work() } else { queue.sync(execute: work) }
    }
}
