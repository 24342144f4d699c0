import Locking

extension ObjectContext {
    /// Runs `block` on the context's queue inside one write transaction, then calls
    /// `completion` on the main actor, for UI code.
    ///
    /// The same as ``persist(_:queue:completion:)`` with `queue: .main`, but the completion is
    /// `@MainActor`, so a `@MainActor` class updates its own state in it:
    ///
    /// ```swift
    /// context.persist({ tx in try tx.upsert(book) }, on: MainActor.self) { result in
    ///     self.saved = (try? result.get()) != nil
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - block: the work; it receives the transaction.
    ///   - mainActor: `MainActor.self`: `completion` runs on the main actor.
    ///   - completion: called once, after the commit (with the block's value) or the rollback
    ///     (with the block's error or a ``PersistenceError``).
    public func persist<T: Sendable>(
        _ block: @escaping @Sendable (ObjectTransaction) throws -> T, on mainActor: MainActor.Type,
        completion: @escaping @MainActor (Result<T, any Error>) -> Void
    ) {
        persist(block, queue: .main, completion: onMainActor(completion))
    }

    /// Runs `block` on the context's queue inside a read transaction, then calls `completion`
    /// on the main actor, for UI code.
    ///
    /// The same as ``read(_:queue:completion:)`` with `queue: .main`, but the completion is
    /// `@MainActor`.
    ///
    /// - Parameters:
    ///   - block: the reads; writes throw ``PersistenceError/Code-swift.struct/misuse``.
    ///   - mainActor: `MainActor.self`: `completion` runs on the main actor.
    ///   - completion: called once with the block's value or error.
    public func read<T: Sendable>(
        _ block: @escaping @Sendable (ObjectTransaction) throws -> T, on mainActor: MainActor.Type,
        completion: @escaping @MainActor (Result<T, any Error>) -> Void
    ) {
        read(block, queue: .main, completion: onMainActor(completion))
    }
}
