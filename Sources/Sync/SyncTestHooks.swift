package import Locking

/// The points of a sync run where the fault harness kills the process (`package`: tests only).
/// The fourth, after a write is sent and before its response arrives, is the harness's server
/// killing the client when the write reaches it.
package enum SyncKillPoint: String, Sendable, CaseIterable {
    /// A write is marked as sending, not yet sent.
    case beforeSend
    /// A write's response is received, not yet acknowledged in the store.
    case afterResponse
    /// A page of changes is received, not yet applied.
    case midPage
}

/// Guarantees the fault harness can remove, to show that each kill point and fault kind can
/// fail the oracle without the guarantee that covers it (`package`: tests only; never set in
/// a program).
package struct SyncWeakening: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// Each attempt of a write gets a new idempotency key (no deduplication of a resend).
    package static let freshKeyPerAttempt = SyncWeakening(rawValue: 1 << 0)
    /// Writes found `sending` at the start of a run are dropped instead of sent again.
    package static let dropSendingWrites = SyncWeakening(rawValue: 1 << 1)
    /// A page's cursor is committed before the page, in a transaction of its own.
    package static let cursorBeforePage = SyncWeakening(rawValue: 1 << 2)
    /// A write that failed on the way is dropped instead of retried.
    package static let dropFailedWrites = SyncWeakening(rawValue: 1 << 3)
    /// A `401` rejects the write instead of holding the queue.
    package static let rejectUnauthorized = SyncWeakening(rawValue: 1 << 4)
    /// A rejected cursor restarts the listing without pruning what the server no longer has.
    package static let resyncWithoutPrune = SyncWeakening(rawValue: 1 << 5)
    /// A keyset run starts exactly at the last applied record, with no overlap.
    package static let noOverlap = SyncWeakening(rawValue: 1 << 6)
    /// Writes of one record are sent at the same time instead of one after another.
    package static let concurrentPerRecord = SyncWeakening(rawValue: 1 << 7)
}

/// The harness's hooks (`package`: tests only).
package struct SyncTestHooks: Sendable {
    /// Called at each kill point.
    package var killPoint: (@Sendable (SyncKillPoint) -> Void)?
    /// The guarantees removed.
    package var weakenings: SyncWeakening = []

    package init() {}

    /// The hooks every mirror of the process reads.
    package static let shared = Locked(SyncTestHooks())

    static func reach(_ point: SyncKillPoint) {
        shared.withLock { $0.killPoint }?(point)
    }

    static func weakened(_ weakening: SyncWeakening) -> Bool {
        shared.withLock { $0.weakenings.contains(weakening) }
    }
}
