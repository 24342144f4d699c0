import Foundation
import Locking

/// What one commit changed, handed to observers.
struct CommitSummary: Sendable {
    /// The entity tables the transaction wrote through the typed API.
    let tables: Set<String>
    /// Whether raw SQL wrote (any table may have changed in any way).
    let everything: Bool
    /// The row ids SQLite reported changed, by table.
    let rowids: [String: Set<Int64>]
    /// Tables whose changed rows are not all in ``rowids``.
    let unknown: Set<String>
    /// The updates by filter whose new values are known, by table, in the order they ran; their
    /// rows are not in ``rowids`` unless another write changed them too.
    var written: [String: [WrittenValues]] = [:]

    /// Whether the commit may have changed `table`.
    func touches(_ table: String) -> Bool {
        everything || tables.contains(table) || rowids[table] != nil || unknown.contains(table)
    }

    /// The rows of `table` it changed other than by the updates in ``written``, or `nil` when
    /// they are not all known.
    func changedRows(of table: String) -> Set<Int64>? {
        if everything || unknown.contains(table) { return nil }
        if let rows = rowids[table] { return rows }
        return tables.contains(table) ? nil : []
    }

    /// The updates of `table` whose new values are known, in the order they ran.
    func writtenValues(of table: String) -> [WrittenValues] {
        everything || unknown.contains(table) ? [] : written[table] ?? []
    }
}

/// Something refreshed after commits that touch its table.
protocol CommitObserver: AnyObject, Sendable {
    /// The table whose commits it follows.
    var table: String { get }
    /// The table whose updates by filter it applies from their new values, read back by the
    /// update's statement (`ObjectTransaction.update(_:set:)`); `nil` when it applies none (it
    /// reads again what changed).
    var appliesWrittenValues: String? { get }
    /// Whether `commit` may change what it observes.
    func isInterested(in commit: CommitSummary) -> Bool
    func scheduleRefresh(after commit: CommitSummary?)
    /// Told once when the store closes; it reports `error` to its owner and stops.
    func storeDidClose(_ error: PersistenceError)
}

extension CommitObserver {
    func isInterested(in commit: CommitSummary) -> Bool { commit.touches(table) }
    var appliesWrittenValues: String? { nil }
}

/// The store's registry of observers, told about each commit after it happened.
final class ObservationCenter: Sendable {
    private struct State {
        var observers: [ObjectIdentifier: any CommitObserver] = [:]
        /// The tables some observer applies updates' new values to, with how many do, and their
        /// names (handed to each write transaction as they are, without being built again).
        var valueTableCounts: [String: Int] = [:]
        var valueTables: Set<String> = []
        var refreshes = (incremental: 0, full: 0)
        /// Commits reported, by the entity table they may have changed.
        var commits: [String: UInt64] = [:]
        /// Commits reported that may have changed any table (raw SQL, another process's commit).
        var commitsOfEverything: UInt64 = 0
    }

    private let state = Locked(State())

    /// Whether anyone observes the store (commits then record the rows they change).
    var hasObservers: Bool { state.withLock { !$0.observers.isEmpty } }

    /// What a write transaction beginning now records: the rows it changes when anyone observes
    /// the store, and the new values of its updates by filter of the tables an observer applies
    /// them to (``CommitObserver/appliesWrittenValues``). An update of any other table is not
    /// read back: its rows are recorded, and an observer that starts meanwhile reads them.
    var recording: (observed: Bool, valueTables: Set<String>) {
        state.withLock { (!$0.observers.isEmpty, $0.valueTables) }
    }

    /// How many refreshes took each path since the store opened (for tests and diagnostics).
    var refreshCounts: (incremental: Int, full: Int) { state.withLock { $0.refreshes } }

    func noteRefresh(incremental: Bool) {
        state.withLock { state in
            if incremental { state.refreshes.incremental += 1 } else { state.refreshes.full += 1 }
        }
    }

    func add(_ observer: any CommitObserver) {
        state.withLock { state in
            guard state.observers.updateValue(observer, forKey: ObjectIdentifier(observer)) == nil else { return }
            guard let table = observer.appliesWrittenValues else { return }
            state.valueTableCounts[table, default: 0] += 1
            state.valueTables.insert(table)
        }
    }

    func remove(_ observer: any CommitObserver) {
        state.withLock { state in
            guard state.observers.removeValue(forKey: ObjectIdentifier(observer)) != nil,
                let table = observer.appliesWrittenValues
            else { return }
            let remaining = (state.valueTableCounts[table] ?? 1) - 1
            state.valueTableCounts[table] = remaining > 0 ? remaining : nil
            if remaining <= 0 { state.valueTables.remove(table) }
        }
    }

    /// Removes every observer, telling each that the store closed.
    func closeAll(_ error: PersistenceError) {
        let observers = state.withLock { state in
            defer {
                state.observers.removeAll()
                state.valueTableCounts.removeAll()
                state.valueTables.removeAll()
            }
            return Array(state.observers.values)
        }
        for observer in observers { observer.storeDidClose(error) }
    }

    /// Counts a commit about to happen, called just before its `COMMIT` while its transaction
    /// holds the store's write lock: a transaction that reads ``commitStamp(of:)`` then sees every
    /// commit counted so far, and every later one changes the stamp. (A commit that then fails was
    /// counted for nothing: a stamp changes more often than needed, never less.)
    func countCommit(tables: Set<String>, everything: Bool) {
        state.withLock { state in
            if everything {
                state.commitsOfEverything &+= 1
            } else {
                for table in tables { state.commits[table, default: 0] &+= 1 }
            }
        }
    }

    func didCommit(_ commit: CommitSummary) {
        let interested = state.withLock { state in
            // Tables only SQLite named (written by a cascade or a trigger) are counted now.
            if !commit.everything {
                for table in commit.rowids.keys where !commit.tables.contains(table) {
                    state.commits[table, default: 0] &+= 1
                }
                for table in commit.unknown where !commit.tables.contains(table) {
                    state.commits[table, default: 0] &+= 1
                }
            }
            return state.observers.isEmpty ? [] : state.observers.values.filter { $0.isInterested(in: commit) }
        }
        for observer in interested { observer.scheduleRefresh(after: commit) }
    }

    /// A number that changes with every counted commit that may have changed one of `tables`
    /// (a sum of counts, so it only grows).
    func commitStamp(of tables: [String]) -> UInt64 {
        state.withLock { state in
            tables.reduce(state.commitsOfEverything) { $0 &+ (state.commits[$1] ?? 0) }
        }
    }
}
