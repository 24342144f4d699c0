public import FetchKit
import Foundation
import Locking

/// An operation that runs one asynchronous job, such as a fetch, and keeps its result.
///
/// The result is available from ``result`` once the operation has finished, so operations
/// that depend on it can read it. Cancelling the operation cancels the job's task; an
/// operation cancelled before it started has the result `.failure(CancellationError())`.
///
/// For example, an operation that updates one movie's popularity:
///
/// ```swift
/// let update = FetchOperation(changed: { $0 != movie.popularity }) {
///     try await client.fetch(TMDB.movie(id: movie.remoteID), extracting: .decode(Double.self, at: "popularity"))
/// }
/// ```
public final class FetchOperation<Value: Sendable>: AsyncOperation, ItemOutcomeReporting, @unchecked Sendable {
    // @unchecked Sendable: `storage` is a `Locked` (an `NSLock` around it); the other properties are
    // immutable.
    private struct Storage {
        var result: Result<Value, any Error>?
        var task: Task<Void, Never>?
    }

    private let job: @Sendable () async throws -> Value
    private let changed: @Sendable (Value) -> Bool
    private let storage = Locked(Storage())

    /// Creates an operation that runs `job` when the queue starts it.
    ///
    /// - Parameters:
    ///   - changed: whether the job's value changed anything; by default every success does.
    ///   - job: the work, such as a fetch. It runs in a new task; cancel the operation to
    ///     cancel it.
    public init(
        changed: @escaping @Sendable (Value) -> Bool = { _ in true },
        job: @escaping @Sendable () async throws -> Value
    ) {
        self.job = job
        self.changed = changed
        super.init()
    }

    /// The job's value or error, or `nil` while the operation has not finished.
    public var result: Result<Value, any Error>? {
        storage.withLock { $0.result }
    }

    /// The job's value, or `nil` if it failed or has not finished.
    public var value: Value? {
        try? result?.get()
    }

    /// What the item came to: changed or unchanged by the `changed` rule, or failed.
    public var itemOutcome: ItemOutcome? {
        switch result {
        case .none: return nil
        case .failure: return .failed
        case .success(let value): return changed(value) ? .changed : .unchanged
        }
    }

    /// Runs the job in a new task and finishes when it ends.
    public override func execute() {
        let task = Task { [job] in
            let result: Result<Value, any Error>
            do {
                result = .success(try await job())
            } catch {
                result = .failure(error)
            }
            storage.withLock { $0.result = result }
            finish()
        }
        storage.withLock { $0.task = task }
        if isCancelled { task.cancel() }
    }

    /// Records `CancellationError` as the result of an operation cancelled before it started.
    public override func cancelledBeforeStart() {
        storage.withLock { $0.result = .failure(CancellationError()) }
    }

    /// Cancels the operation and the job's task if it is running.
    public override func cancel() {
        super.cancel()
        storage.withLock { $0.task }?.cancel()
    }
}
