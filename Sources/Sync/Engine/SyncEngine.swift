import FetchKit
import Foundation
import Persistence

/// A mirror's runs and status: one run at a time, shared by concurrent callers; the status and
/// its followers; the triggers of a started mirror.
actor SyncEngine {
    private var status: SyncStatus
    private var current: Task<SyncReport, any Error>?
    /// Whether `current` pulls (a started mirror's own runs only push).
    private var currentPulls = false
    /// Callers waiting on `current`, and how many of them were cancelled: the run is cancelled
    /// when every caller waiting on it was (a started mirror's own runs never are).
    private var waiting = 0
    private var abandoned = 0
    private var rerun = false
    /// A change notification arrived during a run: a pulling run follows it.
    private var pullWanted = false
    /// Whether `current` was started for a notification, or took one over: a notification's
    /// pull cancelled by its callers is wanted again.
    private var currentCoversNotification = false
    private var followers: [UUID: AsyncStream<SyncStatus>.Continuation] = [:]
    private var started = false
    private var run: (@Sendable () async throws(SyncError) -> SyncReport)?
    /// The pulling run a change notification starts, while the mirror follows notifications.
    private var pullRun: (@Sendable () async throws(SyncError) -> SyncReport)?
    /// The task that follows the server's change notifications.
    private var follower: Task<Void, Never>?
    /// Which following the follower is, so that one stopped before it ended cannot end the next.
    private var followerGeneration = 0
    private var wake: Task<Void, Never>?
    private var outboxToken: ObservationToken?
    /// Reads the status's counts and dates from the store.
    private let read: @Sendable () async -> SyncStatus?
    /// The reads of the counts asked for, and the newest request a finished read covers (a read
    /// covers every request made before it started); one read runs at a time, so a slower
    /// older read never overwrites a newer one.
    private var readsAsked = 0
    private var readsCovered = 0
    private var reading = false
    private var readWaiters: [(ask: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// Whether the next read takes the next retry too (a run just ended).
    private var readTakesRetry = false
    /// The run's pull progress, per collection (one, or a group's).
    private var progressParts: [String: SyncProgress] = [:]

    /// How many collections' pulls the progress adds up (a group's members): the expected total
    /// is known once each has given one.
    private let parts: Int

    init(collection: String, parts: Int = 1, read: @escaping @Sendable () async -> SyncStatus?) {
        status = SyncStatus(collection: collection)
        self.parts = parts
        self.read = read
    }

    // MARK: Runs

    /// Runs `body`, or joins the run in progress; then reads the status's counts when anyone keeps
    /// them (a follower, a started mirror). A run that pulls (`pulls`) joins only a run that
    /// pulls too: during a started mirror's push, it runs after it.
    func sync(
        pulls: Bool = true, _ body: @escaping @Sendable () async throws(SyncError) -> SyncReport
    ) async throws(SyncError) -> SyncReport {
        let task: Task<SyncReport, any Error>
        if let current, !current.isCancelled, currentPulls || !pulls {
            task = current
        } else {
            // No run, one every caller abandoned, or a push that this pull follows: a new caller
            // gets a run of its own, which takes the place of the push (whose callers see its end).
            let before = current
            task = Task {
                if let before { _ = await before.result }
                return try await body()
            }
            current = task
            currentPulls = pulls
            currentCoversNotification = pulls && pullWanted
            if pulls { pullWanted = false }
            (waiting, abandoned) = (0, 0)
            progressParts = [:]
            update {
                $0.isSyncing = true
                $0.progress = nil
            }
        }
        waiting += 1
        let result = await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            Task { await self.abandon(task) }
        }
        if current == task {
            current = nil
            // A notification's pull that its callers cancelled is still wanted.
            if task.isCancelled, currentCoversNotification { pullWanted = true }
            let reran = finish(result)
            readTakesRetry = true
            // The counts are read again for whoever keeps them: the followers, and a started mirror's
            // wake-up. A look at `status` reads them itself, so a run nobody follows ends here.
            if started || !followers.isEmpty { await refreshCounts() }
            if started, !reran { scheduleWake() }
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

    /// Ends a run: its error (or none) in the status; returns whether another run was started
    /// for writes queued during it.
    private func finish(_ result: Result<SyncReport, any Error>) -> Bool {
        progressParts = [:]
        update {
            $0.isSyncing = false
            $0.runsFinished += 1
            $0.progress = nil
            if case .failure(let error as SyncError) = result { $0.error = error } else { $0.error = nil }
            $0.lastReport = try? result.get()
        }
        guard started else { return false }
        if pullWanted, pullRun != nil {
            rerun = false
            startRun(pulling: true)
            return true
        }
        guard rerun else { return false }
        rerun = false
        trigger()
        return true
    }

    /// Starts a run now, or after the one in progress.
    private func trigger() {
        guard started, run != nil else { return }
        if current != nil {
            rerun = true
            return
        }
        startRun(pulling: false)
    }

    /// The server said something changed (or a connection to its notifications opened): a pull
    /// now, or one after the run in progress, however many notifications arrive meanwhile.
    func changeAnnounced() {
        guard started, pullRun != nil else { return }
        pullWanted = true
        if current == nil { startRun(pulling: true) }
    }

    /// Starts one of a started engine's own runs (a pull for a notification, or a push) in a
    /// task of its own, if the engine is still started when the task begins.
    private func startRun(pulling: Bool) {
        Task {
            guard let body = self.ownRun(pulling: pulling) else { return }
            _ = try? await self.sync(pulls: pulling, body)
        }
    }

    /// The started engine's run of that kind, or `nil` once stopped (or no longer following).
    private func ownRun(pulling: Bool) -> (@Sendable () async throws(SyncError) -> SyncReport)? {
        guard started else { return nil }
        return pulling ? pullRun : run
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

    /// A run of the collection's group began: the collection shows it as its own.
    func groupRunBegan() {
        progressParts = [:]
        update {
            $0.isSyncing = true
            $0.progress = nil
        }
    }

    /// A page of `collection` was applied: `records` records and tombstones, `bytes` of body,
    /// and the listing's `remaining` records from that page on when the server said.
    func pulledPage(_ collection: String, records: Int, bytes: Int, remaining: Int?) {
        var part = progressParts[collection] ?? SyncProgress()
        if let remaining { part.expectedRecords = part.recordsApplied + remaining }
        part.recordsApplied += records
        part.pagesApplied += 1
        part.bytesReceived += bytes
        if let expected = part.expectedRecords, expected < part.recordsApplied {
            part.expectedRecords = part.recordsApplied
        }
        progressParts[collection] = part
        var total = parts == 1 ? part : SyncProgress.sum(progressParts.values)
        // A collection not pulled yet adds records unknown: no estimate until each has said.
        if progressParts.count < parts { total.expectedRecords = nil }
        update { $0.progress = total }
    }

    /// A run of the collection's group ended with `failure` (or none, and its `report`): the
    /// collection shows the failure when it is its own, and reads its counts again when anyone
    /// keeps them.
    func groupRunEnded(_ failure: SyncError?, report: SyncReport) async {
        progressParts = [:]
        update {
            $0.isSyncing = false
            $0.runsFinished += 1
            $0.progress = nil
            $0.error = failure?.collection == $0.collection ? failure : nil
            $0.lastReport = failure == nil ? report : nil
        }
        readTakesRetry = true
        if started || !followers.isEmpty { await refreshCounts() }
    }

    // MARK: Starting

    /// Starts the triggers: `run` (a push) after each commit `observe` reports and when a
    /// backoff ends; with `follow`, a task that calls ``changeAnnounced()`` at each notification,
    /// answered by `pullRun`. A started engine's later starts only start following, when it
    /// does not follow (it never did, or following ended).
    func start(
        run: @escaping @Sendable () async throws(SyncError) -> SyncReport, observe: (SyncEngine) -> ObservationToken,
        pullRun: @escaping @Sendable () async throws(SyncError) -> SyncReport,
        follow: (@Sendable (SyncEngine, Int) async -> Void)?
    ) {
        if !started {
            started = true
            self.run = run
            outboxToken = observe(self)
            trigger()
        }
        if let follow, follower == nil {
            self.pullRun = pullRun
            followerGeneration += 1
            let generation = followerGeneration
            update {
                $0.isFollowing = true
                $0.followingError = nil
            }
            follower = Task { await follow(self, generation) }
        }
    }

    /// Following the notifications ended for good with `error` (`nil`: the server said it has
    /// nothing more); the pushes go on. `generation` names the following that ended: one that
    /// was stopped since changes nothing.
    func notificationsEnded(_ error: SyncError?, generation: Int) {
        guard started, follower != nil, generation == followerGeneration else { return }
        pullRun = nil
        pullWanted = false
        follower = nil
        update {
            $0.isFollowing = false
            $0.followingError = error
        }
    }

    func stop() {
        started = false
        // The run closures hold their group or collection (SyncRunner.start): a stopped one can be released.
        run = nil
        pullRun = nil
        pullWanted = false
        follower?.cancel()
        follower = nil
        update { $0.isFollowing = false }
        wake?.cancel()
        wake = nil
        outboxToken?.cancel()
        outboxToken = nil
        update { $0.nextRetry = nil }
    }

    /// A commit changed the outbox: send what it added (`waiting`: writes in the pending state),
    /// and read the counts again.
    func outboxChanged(waiting: Int) async {
        if waiting > 0 { trigger() }
        await refreshCounts()
    }

    /// The app queued or released a write through the mirror.
    func localWrite() {
        trigger()
    }

    /// Reads the counts and dates from the store, in a read that starts after this call: when it
    /// returns, the status holds what the store held then or later. Reads run one at a time, and
    /// calls made while one runs share the next.
    func refreshCounts() async {
        readsAsked += 1
        let ask = readsAsked
        guard !reading else {
            await withCheckedContinuation { continuation in readWaiters.append((ask, continuation)) }
            return
        }
        reading = true
        while readsCovered < readsAsked {
            let covers = readsAsked
            let retry = started || readTakesRetry
            readTakesRetry = false
            if let fresh = await read() {
                update { $0.takeCounts(of: fresh, dates: true, retry: retry) }
            }
            readsCovered = covers
            let done = readWaiters.filter { $0.ask <= covers }
            readWaiters.removeAll { $0.ask <= covers }
            for waiter in done { waiter.continuation.resume() }
        }
        reading = false
    }

    // MARK: Status

    /// The observation that keeps the counts of a followed status current (from the first
    /// follower on).
    private var countsToken: ObservationToken?

    /// The status, with the outbox's counts and the last pull and push read from the store now:
    /// true from the first look in a process, before any run.
    func currentStatus() async -> SyncStatus {
        await refreshCounts()
        return status
    }

    /// Waits for the run in progress, if any, to end.
    func idle() async {
        if let current { _ = await current.result }
    }

    func follow(observing observe: (SyncEngine) -> ObservationToken?) async -> AsyncStream<SyncStatus> {
        await refreshCounts()
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
