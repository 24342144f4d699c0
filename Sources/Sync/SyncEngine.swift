import FetchKit
import Foundation
import Persistence

/// A mirror's runs and status: one run at a time, shared by concurrent callers; the status and
/// its followers; the triggers of a started mirror.
actor SyncEngine {
    private var status: SyncStatus
    private var current: Task<SyncReport, any Error>?
    /// Callers waiting on `current`, and how many of them were cancelled: the run is cancelled
    /// when every caller waiting on it was (a started mirror's own runs never are).
    private var waiting = 0
    private var abandoned = 0
    private var rerun = false
    private var followers: [UUID: AsyncStream<SyncStatus>.Continuation] = [:]
    private var started = false
    private var run: (@Sendable () async throws(SyncError) -> SyncReport)?
    private var statusRead: (@Sendable () async -> SyncStatus?)?
    private var wake: Task<Void, Never>?
    private var outboxToken: ObservationToken?

    init(collection: String) {
        status = SyncStatus(collection: collection)
    }

    // MARK: Runs

    /// Runs `body`, or joins the run in progress; then reads the status's counts with `read`.
    func sync(
        _ body: @escaping @Sendable () async throws(SyncError) -> SyncReport,
        read: @escaping @Sendable () async -> SyncStatus?
    ) async throws(SyncError) -> SyncReport {
        let task: Task<SyncReport, any Error>
        if let current, !current.isCancelled {
            task = current
        } else {
            // No run, or one every caller abandoned: a new caller gets a run of its own.
            task = Task { try await body() }
            current = task
            (waiting, abandoned) = (0, 0)
            update { $0.isSyncing = true }
        }
        waiting += 1
        let result = await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            Task { await self.abandon(task) }
        }
        if current == task {
            current = nil
            let fresh = await read()
            finish(result, fresh)
        }
        switch result {
        case .success(let report): return report
        case .failure(let error as SyncError): throw error
        case .failure(let error):
            throw SyncError(.misuse, collection: status.collection, "The sync run ended with \(error).")
        }
    }

    /// A caller waiting on `task` was cancelled: cancels the run when no caller wants it any more.
    private func abandon(_ task: Task<SyncReport, any Error>) {
        guard current == task else { return }
        abandoned += 1
        if abandoned >= waiting { task.cancel() }
    }

    private func finish(_ result: Result<SyncReport, any Error>, _ fresh: SyncStatus?) {
        update {
            $0.isSyncing = false
            if case .failure(let error as SyncError) = result { $0.error = error } else { $0.error = nil }
            if let fresh { $0.takeCounts(of: fresh, dates: true, retry: true) }
        }
        guard started else { return }
        if rerun {
            rerun = false
            trigger()
        } else {
            scheduleWake()
        }
    }

    /// Starts a run now, or after the one in progress.
    private func trigger() {
        guard started, let run, let statusRead else { return }
        if current != nil {
            rerun = true
            return
        }
        Task { _ = try? await self.sync(run, read: statusRead) }
    }

    private func scheduleWake() {
        wake?.cancel()
        guard let next = status.nextRetry else { return }
        let delay = max(0, next.timeIntervalSinceNow)
        wake = Task { [weak self] in
            try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000) + 1_000_000)
            guard !Task.isCancelled else { return }
            await self?.trigger()
        }
    }

    // MARK: Starting

    func start(
        run: @escaping @Sendable () async throws(SyncError) -> SyncReport,
        statusRead: @escaping @Sendable () async -> SyncStatus?, observe: (SyncEngine) -> ObservationToken
    ) {
        guard !started else { return }
        started = true
        self.run = run
        self.statusRead = statusRead
        outboxToken = observe(self)
        trigger()
    }

    func stop() {
        started = false
        wake?.cancel()
        wake = nil
        outboxToken?.cancel()
        outboxToken = nil
        update { $0.nextRetry = nil }
    }

    /// A commit changed the outbox: send what it added (`waiting`: writes in the pending state).
    func outboxChanged(_ fresh: SyncStatus, waiting: Int) {
        countsChanged(fresh)
        if waiting > 0 { trigger() }
    }

    /// The app queued or released a write through the mirror.
    func localWrite() {
        trigger()
    }

    func refreshStatus<E>(_ mirror: SyncedCollection<E>) async {
        if let fresh = await mirror.readStatus() {
            countsChanged(fresh)
        }
    }

    // MARK: Status

    /// The observation that keeps the counts of a followed status current (from the first
    /// follower on).
    private var countsToken: ObservationToken?

    /// The status, with the outbox's counts and the last pull and push read from the store now:
    /// true from the first look in a process, before any run.
    func currentStatus(reading read: @Sendable () async -> SyncStatus?) async -> SyncStatus {
        if let fresh = await read() { countsChanged(fresh) }
        return status
    }

    /// The store's counts changed (a commit touched the outbox, or a read found them).
    func countsChanged(_ fresh: SyncStatus) {
        update { $0.takeCounts(of: fresh, dates: true, retry: started) }
    }

    /// Waits for the run in progress, if any, to end.
    func idle() async {
        if let current { _ = await current.result }
    }

    func follow(
        reading read: @Sendable () async -> SyncStatus?, observing observe: (SyncEngine) -> ObservationToken?
    ) async -> AsyncStream<SyncStatus> {
        _ = await currentStatus(reading: read)
        if countsToken == nil { countsToken = observe(self) }
        let (stream, continuation) = AsyncStream<SyncStatus>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        followers[id] = continuation
        continuation.yield(status)
        continuation.onTermination = { _ in Task { await self.unfollow(id) } }
        return stream
    }

    private func unfollow(_ id: UUID) {
        followers[id] = nil
        if followers.isEmpty {
            countsToken?.cancel()
            countsToken = nil
        }
    }

    private func update(_ change: (inout SyncStatus) -> Void) {
        var next = status
        change(&next)
        guard next != status else { return }
        status = next
        for follower in followers.values { follower.yield(next) }
    }
}

extension SyncStatus {
    /// Takes the counts (and, with `dates`, the dates; with `retry`, the next retry) the store
    /// holds.
    mutating func takeCounts(of fresh: SyncStatus, dates: Bool, retry: Bool = false) {
        pendingCount = fresh.pendingCount
        rejectedCount = fresh.rejectedCount
        conflictedCount = fresh.conflictedCount
        if dates {
            lastPull = fresh.lastPull
            lastPush = fresh.lastPush
        }
        if retry { nextRetry = fresh.nextRetry }
    }
}
