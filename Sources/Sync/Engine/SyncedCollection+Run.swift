import FetchKit
import Foundation
import Persistence

/// What a run of the collection starts from, and the collection's runs, triggers and status (its
/// runner's, or the runner of the ``SyncGroup`` the collection is in).
extension SyncedCollection {
    /// Makes sure the sync tables exist and the collection has its checkpoint, and reads what the
    /// run starts from.
    ///
    /// After a quiet run (an incremental pull whose last page left nothing to send), the next run
    /// starts from where that page's transaction left the checkpoint, without a read, when no
    /// commit of this store's contexts has touched the checkpoints or the outbox since. What
    /// another process wrote meanwhile is not missed: the page's transaction reads the checkpoint
    /// again (a cursor never moves back; a walk begun elsewhere is left to it) and says whether a
    /// write waits, which the push after the pull sends; a page that changes nothing skips that
    /// transaction only when the connection's `data_version` says no other connection committed
    /// (``quietPage(_:next:walk:_:expecting:since:)``).
    func prepare() async throws(SyncError) -> RunStart {
        if let remembered = lastEnd.withLock({ last in
            defer { last = nil }
            return last
        }), remembered.end.stamp == syncTablesStamp {
            var start = remembered.start
            start.remembered = remembered.end
            return start
        }
        let collection = remote.name
        let outbox = outbox
        let keyset = if case .keyset = remote.changes.cursor { true } else { false }
        @Sendable func start(_ tx: ObjectTransaction) throws -> RunStart? {
            guard let checkpoint = try tx.fetch(SyncCheckpoint.self, id: collection) else { return nil }
            let waiting = try outbox.hasUnsent(in: tx)
            let empty = try keyset && !tx.exists(Query<Entity>())
            return RunStart(checkpoint: checkpoint, outboxWaiting: waiting, storeEmpty: empty)
        }
        // A collection synced before has its checkpoint: one read, no write.
        if let ready = try await read(start) { return ready }
        return try await persist { tx in
            _ = try tx.count(Query<SyncSeenRecord>())
            if try tx.fetch(SyncCheckpoint.self, id: collection) == nil {
                try tx.insert(try Self.checkpoint(collection, in: tx))
            }
            guard let ready = try start(tx) else {
                throw SyncError(.misuse, collection: collection, "The checkpoint of \(collection) was not stored.")
            }
            return ready
        }
    }
}

/// Where a run ended (see ``SyncedCollection/prepare()``).
struct RememberedStart: Sendable {
    var start: RunStart
    var end: RunEnd
}

/// What says nothing was committed since a run's last page: the stamp of the sync tables'
/// commits just after it (this store's contexts), and `PRAGMA data_version` of the connection it
/// committed through, read in its transaction (which changes with any other connection's commit,
/// another process's included).
struct RunEnd: Sendable {
    var stamp: UInt64
    var dataVersion: Int64?
}

extension SyncedCollection {
    /// The tables whose commits make a remembered start stale: the checkpoints and the outbox.
    static var syncTables: [any StoredEntity.Type] { [SyncCheckpoint.self, PendingWrite.self] }

    /// The stamp of the commits that may have changed a checkpoint or the outbox.
    var syncTablesStamp: UInt64 { store.commitStamp(of: Self.syncTables) }
}

// MARK: Runs, triggers and status

extension SyncedCollection {
    /// Sends the outbox, pulls the server's changes, and sends what the pull's rebase left.
    /// Two calls at once share one run. A collection in a ``SyncGroup`` runs its group's sync.
    ///
    /// Cancelling the task that called it cancels the run when no other caller waits on it: the
    /// request in flight stops, a page already applied stays (with its cursor), and the call
    /// throws a ``SyncError`` whose `fetchError` says `cancelled`.
    ///
    /// A write that fails on the way stays queued (a started mirror retries it on the client's
    /// backoff); a write the server refuses for good is parked as rejected and the others go
    /// on. The run throws the first failure that stopped it, or, when the pull went through, the
    /// first failed send; the status keeps it until a run succeeds.
    ///
    /// A token that expires during the run is refreshed by the client's `TokenAuthenticator`
    /// once, and the request it refused is sent again: the pull goes on from the page it was at,
    /// the drain from the write. A refresh that fails stops the run with
    /// ``SyncError/Code-swift.struct/unauthorized`` (no pull after a refused push), every write
    /// kept pending.
    ///
    /// - Returns: what the run did.
    /// - Throws: ``SyncError``, naming the collection and the record or page.
    @discardableResult
    public func sync() async throws(SyncError) -> SyncReport {
        try await (group?.runner ?? runner).sync()
    }

    /// Starts the mirror's own triggers: sends the outbox now (writes an earlier launch left),
    /// after each commit that queues a write, and when a failed send's backoff ends; with
    /// `notifications`, pulls whenever the server says something changed. Call it at launch.
    /// Without notifications, pulls run on ``sync()`` (from a `PeriodicFetcher`, or the UI). A
    /// collection in a ``SyncGroup`` starts its group's triggers.
    ///
    /// ```swift
    /// await notes.start(following: .pocketBase(at: server, collections: ["notes"]))
    /// ```
    ///
    /// Following the notifications (``ChangeNotifications``) pulls once connected, at each
    /// notification (one pull after a run in progress, however many arrive during it), and again
    /// after each reconnection; ``SyncStatus/isFollowing`` and ``SyncStatus/followingError`` say
    /// whether it follows (for a collection in a group, the group's status says it). A later
    /// start of a started collection follows `notifications` when it does not follow now (it never
    /// did, or following ended); to follow other notifications, stop it first.
    ///
    /// - Parameter notifications: the server's change notifications to follow, sent through the
    ///   collection's client; `nil` (the default) for none.
    public func start(following notifications: ChangeNotifications? = nil) async {
        if let group { return await group.start(following: notifications) }
        startedAlone.withLock { $0 = true }
        await runner.start(keeping: self, following: notifications, client: client)
    }

    /// Stops the triggers ``start(following:)`` started (its group's, for a collection in a
    /// ``SyncGroup``), and closes the connection to the notifications it followed; a run in
    /// progress finishes.
    public func stop() async {
        if let group { return await group.stop() }
        startedAlone.withLock { $0 = false }
        await runner.stop()
    }

    /// The collection's status now. The first look in a process reads the outbox's counts and
    /// the last pull and push from the store, so a new launch shows the writes an earlier one
    /// left before any run.
    public var status: SyncStatus {
        get async { await runner.status }
    }

    /// The collection's status as it changes: the status now (with the store's counts, as
    /// ``status`` gives them), then each change.
    public var statusUpdates: AsyncStream<SyncStatus> { runner.statusUpdates }
}
