import Foundation
import Locking

/// An observed read: after each commit that touches one of its tables it runs the read again and
/// delivers the value.
///
/// Commits that land while a run is queued are folded into it, as for ``QueryObserver``; the last
/// delivery always reflects the last commit.
final class ValueObserver<Value: Sendable>: CommitObserver, Sendable {
    private struct State {
        var pending = false
        var cancelled = false
    }

    let table: String
    private let tables: Set<String>
    private let read: @Sendable (ObjectTransaction) throws -> Value
    private let reader: ObjectContext
    private let deliveryQueue: DispatchQueue
    private let handler: @Sendable (Value) -> Void
    private let onError: (@Sendable (any Error) -> Void)?
    private let state = Locked(State())

    init(
        tables: [String], reader: ObjectContext, queue: DispatchQueue,
        read: @escaping @Sendable (ObjectTransaction) throws -> Value,
        onError: (@Sendable (any Error) -> Void)?, handler: @escaping @Sendable (Value) -> Void
    ) {
        table = tables.first ?? ""
        self.tables = Set(tables)
        self.read = read
        self.reader = reader
        deliveryQueue = queue
        self.handler = handler
        self.onError = onError
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func cancel() {
        state.withLock { $0.cancelled = true }
        reader.core.center.remove(self)
    }

    func isInterested(in commit: CommitSummary) -> Bool {
        tables.contains { commit.touches($0) }
    }

    func storeDidClose(_ error: PersistenceError) {
        let wasObserving = state.withLock { state in
            defer { state.cancelled = true }
            return !state.cancelled
        }
        reader.core.center.remove(self)
        guard wasObserving, let onError else { return }
        deliveryQueue.async { onError(error) }
    }

    func scheduleRefresh(after commit: CommitSummary?) {
        let schedule = state.withLock { state in
            guard !state.cancelled, !state.pending else { return false }
            state.pending = true
            return true
        }
        guard schedule else { return }
        reader.queue.async { self.refresh() }
    }

    /// Runs on the reader's queue.
    private func refresh() {
        state.withLock { $0.pending = false }
        guard !isCancelled else { return }
        do {
            let value = try reader.performRead(read)
            deliveryQueue.async {
                if !self.isCancelled { self.handler(value) }
            }
        } catch {
            if let onError {
                deliveryQueue.async { if !self.isCancelled { onError(error) } }
            }
        }
    }
}
