import Foundation
import Locking

/// An observed read: after each commit that touches one of its tables it runs the read again and
/// delivers the value.
///
/// Commits that land while a run is queued are folded into it, as for ``QueryObserver``; the last
/// delivery always reflects the last commit.
final class ValueObserver<Value: Sendable>: GatedObserver, Sendable {
    let table: String
    private let tables: Set<String>
    private let read: @Sendable (ObjectTransaction) throws -> Value
    let reader: ObjectContext
    let deliveryQueue: DispatchQueue
    private let handler: @Sendable (Value) -> Void
    private let onError: (@Sendable (any Error) -> Void)?
    let gate = RefreshGate(())

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

    var closeReport: (@Sendable (PersistenceError) -> Void)? {
        guard let onError else { return nil }
        return { error in onError(error) }
    }

    func isInterested(in commit: CommitSummary) -> Bool {
        tables.contains { commit.touches($0) }
    }

    func scheduleRefresh(after commit: CommitSummary?) {
        guard gate.schedule({ _ in }) else { return }
        reader.queue.async { self.refresh() }
    }

    /// Runs on the reader's queue.
    private func refresh() {
        gate.begin(leaving: ())
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
