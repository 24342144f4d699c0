import Foundation
import Locking

/// Checks, at ``ObjectStore/Configuration/externalCommitPolling``, whether the store's file changed
/// by a commit this store's contexts did not report, and then refreshes every observation.
///
/// Runs on the observation context's queue (the only place its connection is used). The store owns
/// the watcher; each check holds it weakly, so a store released without `close()` stops checking.
final class ExternalCommitWatcher: Sendable {
    private let interval: DispatchTimeInterval
    private let reader: ObjectContext
    /// The `data_version` last read; `nil` until the first reading.
    private let lastVersion = Locked<DatabaseValue?>(nil)

    init(interval: Duration, reader: ObjectContext) {
        let (seconds, attoseconds) = interval.components
        let nanoseconds = max(1_000_000, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        self.interval = .nanoseconds(Int(clamping: nanoseconds))
        self.reader = reader
    }

    /// Reads the file's version now, then checks it at every interval.
    ///
    /// The version is read from the start, observed or not: an observation's first fetch runs on
    /// the same queue after this first read, so a commit between the two is never missed (at worst
    /// it causes one refresh that finds nothing new).
    func start() {
        reader.queue.async { [weak self] in
            guard let self else { return }
            _ = self.versionChanged()
            self.scheduleCheck()
        }
    }

    private func scheduleCheck() {
        reader.queue.asyncAfter(deadline: .now() + interval) { [weak self] in self?.check() }
    }

    private func check() {
        let core = reader.core
        guard !core.closed.isSet else { return }
        defer { scheduleCheck() }
        guard versionChanged(), core.center.hasObservers else { return }
        core.center.countCommit(tables: [], everything: true)
        core.center.didCommit(CommitSummary(tables: [], everything: true, rowids: [:], unknown: []))
    }

    /// Reads `PRAGMA data_version` and says whether it differs from the last reading.
    private func versionChanged() -> Bool {
        guard let version = try? reader.performRead({ tx in try tx.connection.scalar("PRAGMA data_version") }) else {
            return false
        }
        let previous = lastVersion.withLock { last in
            defer { last = version }
            return last
        }
        return previous != nil && previous != version
    }
}
