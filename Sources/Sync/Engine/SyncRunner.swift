import FetchKit
import Foundation
import Locking
import Persistence

/// The runs of collections synced together: a ``SyncGroup``'s, or one collection's alone (a group
/// of one). The one run loop, the one start (the outboxes watched), and the one status relay.
final class SyncRunner: Sendable {
    /// The collections' names, parents first; the status's name is them joined by `+`.
    let collections: [String]
    let store: ObjectStore
    let engine: SyncEngine
    /// The members, parents first: owned by the group, or the collection, that owns the runner.
    private let members = Locked<[Member]>([])
    /// The members' dates of a pull made without a transaction, by collection: the boxes
    /// themselves, so that the status, which may outlive the members, never reaches a member.
    private let quietPulls: Locked<[String: Locked<Date?>]>

    /// A member, held without owning it.
    private struct Member: Sendable {
        unowned let collection: any GroupMember
    }

    init(collections: [String], store: ObjectStore) {
        self.collections = collections
        self.store = store
        let name = collections.joined(separator: "+")
        let quietPulls = Locked<[String: Locked<Date?>]>([:])
        self.quietPulls = quietPulls
        engine = SyncEngine(collection: name, parts: collections.count) {
            let pulled = quietPulls.current.compactMapValues(\.current)
            return try? await store.context.read { tx in
                try SyncStatus.stored(of: collections, as: name, in: tx, quietPulls: pulled)
            }
        }
    }

    /// Gives the runner its members, parents first (once the group or the collection is made).
    func attach(_ members: [any GroupMember]) {
        self.members.withLock { $0 = members.map(Member.init) }
        quietPulls.withLock { boxes in
            for member in members { boxes[member.collectionName] = member.quietPull }
        }
    }

    private var current: [any GroupMember] { members.withLock { $0.map(\.collection) } }

    // MARK: Runs, triggers and status

    /// A run, or the one in progress.
    func sync() async throws(SyncError) -> SyncReport {
        try await engine.sync { () throws(SyncError) -> SyncReport in try await self.runOnce(pulling: true) }
    }

    /// Sends the outboxes now, after each commit that queues a write in any of them, and when a
    /// failed send's backoff ends; with `notifications`, pulls at each of them, sent by `client`.
    /// `owner` (the group or the collection alone) is kept alive until ``stop()``: the runs it
    /// starts in the background use its members.
    func start(
        keeping owner: some AnyObject & Sendable, following notifications: ChangeNotifications?, client: FetchClient
    )
        async
    {
        let names = collections
        let store = store
        var follow: (@Sendable (SyncEngine, Int) async -> Void)?
        if let notifications {
            let name = names.joined(separator: "+")
            follow = { engine, generation in
                await Self.follow(
                    notifications, client: client, collection: name, engine: engine, generation: generation)
            }
        }
        await engine.start(
            run: { () throws(SyncError) -> SyncReport in
                // The closure holds the owner, and the owner its members, until the run ends.
                defer { withExtendedLifetime(owner) {} }
                return try await self.runOnce(pulling: false)
            },
            observe: { engine in
                store.observe(
                    .value(tracking: PendingWrite.self) { tx in try OutboxTable.waitingCount(of: names, in: tx) }
                ) {
                    waiting in
                    Task { await engine.outboxChanged(waiting: waiting) }
                }
            },
            pullRun: { () throws(SyncError) -> SyncReport in
                defer { withExtendedLifetime(owner) {} }
                // A pull the server's traffic starts sends only the writes whose backoff ended.
                return try await self.runOnce(pulling: true, honouringBackoff: true)
            },
            follow: follow)
    }

    func stop() async {
        await engine.stop()
    }

    var status: SyncStatus {
        get async { await engine.currentStatus() }
    }

    var statusUpdates: AsyncStream<SyncStatus> {
        let engine = engine
        let names = collections
        let store = store
        let (stream, continuation) = AsyncStream<SyncStatus>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let relay = Task {
            let updates = await engine.follow { engine in
                // A delivery says the counts changed; the engine reads them again itself, one read at
                // a time, so deliveries handled out of order never leave an older count.
                store.observe(
                    .value(tracking: PendingWrite.self, SyncCheckpoint.self) { tx in
                        try SyncStatus.stored(of: names, as: names.joined(separator: "+"), in: tx)
                    }
                ) { _ in
                    Task { await engine.refreshCounts() }
                }
            }
            for await status in updates { continuation.yield(status) }
            continuation.finish()
        }
        continuation.onTermination = { _ in relay.cancel() }
        return stream
    }

    /// Waits for the run in progress, if any, to end.
    func idle() async {
        await engine.idle()
    }

    // MARK: The run

    /// One run: every member's start read, push (parents first, then once more for the parents'
    /// deletes that waited on their children), pull (parents first), the held deletes (children
    /// first), push what the pulls' rebases left. A started runner's own runs only push, unless a
    /// change notification asked for a pull; `honouringBackoff` (by default: for a push alone)
    /// sends only the writes whose backoff ended.
    func runOnce(pulling: Bool, honouringBackoff: Bool? = nil) async throws(SyncError) -> SyncReport {
        // A run the app asked for sends every write now; a started mirror's own runs wait out backoffs.
        let honouring = honouringBackoff ?? !pulling
        let members = current
        // The members of a group show its runs as their own.
        let shown = members.filter { $0.engine !== engine }
        for member in shown { await member.engine.groupRunBegan() }
        var report = SyncReport()
        var held: [String: Set<String>] = [:]
        var failure: SyncError?
        do throws(SyncError) {
            var starts: [String: RunStart] = [:]
            for member in members { starts[member.collectionName] = try await member.prepare() }
            failure = try await pushAll(
                members, &report, honouringBackoff: honouring, held: &held,
                waiting: starts.mapValues { Optional($0.outboxWaiting) })
            // Credentials refused (a refresh that failed): the run stops, every write kept.
            if pulling, failure?.code != .unauthorized {
                var waiting: [String: Bool?] = [:]
                for member in members {
                    // In a group, an earlier member's pages may store this one's rows (the parents
                    // a page needs): its start is read again just before its pull.
                    let start = members.count == 1 ? starts[member.collectionName] : try await member.prepare()
                    guard let start else { continue }
                    waiting[member.collectionName] = try await member.pull(&report, start: start)
                }
                for member in members.reversed() { try await member.applyHeldDeletes(&report) }
                // What a pull's last page read of its outbox holds for a collection alone; in a group a
                // later member's pull or a held delete may queue a write in an earlier one's outbox.
                let again = try await pushAll(
                    members, &report, honouringBackoff: honouringBackoff ?? false, held: &held,
                    waiting: members.count == 1 ? waiting : [:])
                failure = failure ?? again
            }
        } catch {
            failure = error
        }
        for member in shown { await member.engine.groupRunEnded(failure, report: report) }
        if let failure { throw failure }
        return report
    }

    /// Pushes every member, parents first; then the parents again, for the deletes that waited on
    /// their children's writes. Returns the first failure that left a write queued, at once when
    /// the credentials were refused. `waiting` holds, per collection, whether its outbox has a
    /// write to send when a read already said.
    private func pushAll(
        _ members: [any GroupMember], _ report: inout SyncReport, honouringBackoff: Bool,
        held: inout [String: Set<String>], waiting: [String: Bool?]
    ) async throws(SyncError) -> SyncError? {
        var failure: SyncError?
        for member in members {
            let name = member.collectionName
            let failed = try await member.push(
                &report, honouringBackoff: honouringBackoff, held: &held[name, default: []],
                waiting: waiting[name] ?? nil)
            if failed?.code == .unauthorized { return failed }
            failure = failure ?? failed
        }
        for member in members where member.isParentInGroup {
            let failed = try await member.push(
                &report, honouringBackoff: honouringBackoff, held: &held[member.collectionName, default: []],
                waiting: nil)
            if failed?.code == .unauthorized { return failed }
            failure = failure ?? failed
        }
        return failure
    }
}

/// What a collection's run starts from, read in one transaction: its checkpoint, whether its
/// outbox holds a write to send, and whether the store holds none of its rows.
struct RunStart: Sendable {
    var checkpoint: SyncCheckpoint
    var outboxWaiting: Bool
    var storeEmpty: Bool
    /// Taken from where the last run ended (that end), not read: the first page's transaction
    /// checks the checkpoint against it (another process may have moved it), or, for a page that
    /// changes nothing, the connection's `data_version` says nothing was committed since.
    var remembered: RunEnd?
}

extension SyncStatus {
    /// The counts and dates of these collections as the store holds them, added up under `name`
    /// (one collection's own, for a collection alone); a pull that finished without a
    /// transaction (`quietPulls`, by collection) is later than the stored date.
    static func stored(
        of collections: [String], as name: String, in tx: ObjectTransaction, quietPulls: [String: Date] = [:]
    ) throws -> SyncStatus {
        let each = try collections.map { collection in
            var status = SyncStatus(collection: collection)
            // Counts in SQL: the outbox can hold thousands of writes, and this runs after every run.
            try OutboxTable.count(collection, into: &status, in: tx)
            let checkpoint = try tx.fetch(SyncCheckpoint.self, id: collection)
            status.lastPull = [checkpoint?.lastPull, quietPulls[collection]].compactMap { $0 }.max()
            status.lastPush = checkpoint?.lastPush
            return status
        }
        return each.count == 1 && each[0].collection == name ? each[0] : SyncStatus(group: name, each)
    }
}
