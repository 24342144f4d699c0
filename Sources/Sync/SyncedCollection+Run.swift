import FetchKit
import Foundation
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response's body and head.
struct Exchange: Sendable {
    let data: Data
    let response: HTTPURLResponse
}

/// A run, and the plumbing every part of it shares: requests through the client, store work
/// whose failures name the collection, and errors that name the request.
extension SyncedCollection {
    /// One run: push, pull, push what the rebase left. A started mirror's own runs only push.
    func runOnce(pulling: Bool = true) async throws(SyncError) -> SyncReport {
        var report = SyncReport()
        let start = try await prepare()
        var held = Set<String>()
        let pushed = try await push(&report, honouringBackoff: !pulling, held: &held, waiting: start.outboxWaiting)
        // Credentials refused (a refresh that failed): the run stops, every write kept.
        guard pulling, pushed?.code != .unauthorized else {
            if let pushed { throw pushed }
            return report
        }
        let waiting = try await pull(&report, start: start)
        let again = try await push(&report, honouringBackoff: false, held: &held, waiting: waiting)
        if let failure = pushed ?? again { throw failure }
        return report
    }

    /// What a run starts from, read in one transaction: the collection's checkpoint, whether
    /// its outbox holds a write to send, and whether the store holds none of its rows.
    struct RunStart: Sendable {
        var checkpoint: SyncCheckpoint
        var outboxWaiting: Bool
        var storeEmpty: Bool
    }

    /// Makes sure the sync tables exist and the collection has its checkpoint, and reads what the
    /// run starts from.
    func prepare() async throws(SyncError) -> RunStart {
        let collection = remote.name
        let outbox = outbox
        let keyset = if case .keyset = remote.cursor { true } else { false }
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

    /// Sends a request and returns its body and head.
    func exchange(_ endpoint: any Endpoint, headers: [String: String] = [:]) async throws(FetchError) -> Exchange {
        try await client.fetch(
            UncachedRequest(endpoint, extraHeaders: headers),
            extracting: .custom { data, response in Exchange(data: data, response: response) })
    }

    /// Runs a store block, turning its failures into ``SyncError``s naming the collection.
    func persist<T: Sendable>(
        record: String? = nil, page: String? = nil, _ block: @escaping @Sendable (ObjectTransaction) throws -> T
    ) async throws(SyncError) -> T {
        try await storeWork(record: record, page: page) {
            try await self.store.context.persist { tx in
                // The collection's own transaction: its rows, and the related rows a page stores.
                tx.allowEveryGuardedWrite()
                return try block(tx)
            }
        }
    }

    /// Runs a block of reads, turning its failures into ``SyncError``s naming the collection.
    func read<T: Sendable>(_ block: @escaping @Sendable (ObjectTransaction) throws -> T) async throws(SyncError) -> T {
        try await storeWork { try await self.store.context.read(block) }
    }

    private func storeWork<T: Sendable>(
        record: String? = nil, page: String? = nil, _ work: () async throws -> T
    ) async throws(SyncError) -> T {
        do {
            return try await work()
        } catch let error as SyncError {
            throw error
        } catch let error as PersistenceError {
            let what = record.map { " record \($0)" } ?? page.map { " page \($0)" } ?? ""
            throw SyncError(
                .storeFailed, collection: remote.name, record: record, page: page,
                "The store refused\(what) of \(remote.name): \(error.message)", persistenceError: error)
        } catch {
            throw SyncError(
                .storeFailed, collection: remote.name, record: record, page: page,
                "The store refused a change of \(remote.name): \(error)")
        }
    }

    /// Whether the server refused a request for what it asks (a `4xx` other than the ones a
    /// later request may pass: `401`, `408`, `425`, `429`): a scope's listing, a batch.
    static func refuses(_ error: FetchError) -> Bool {
        guard let status = error.statusCode else { return false }
        return (400..<500).contains(status) && ![401, 408, 425, 429].contains(status)
    }

    func requestError(_ error: FetchError, page: SyncCursor?) -> SyncError {
        requestError(error, page: page.map(Self.describe) ?? "first")
    }

    func requestError(_ error: FetchError, page: String? = nil, record: String? = nil) -> SyncError {
        let unauthorized = error.code == .authenticationFailed || error.statusCode == 401
        let what = record.map { "the write of \(remote.name)/\($0)" } ?? "the changes of \(remote.name)"
        return SyncError(
            unauthorized ? .unauthorized : .requestFailed, collection: remote.name, record: record, page: page,
            "Could not \(record == nil ? "pull" : "send") \(what): \(error.description)", fetchError: error)
    }

    static func describe(_ cursor: SyncCursor) -> String {
        switch cursor {
        case .keyset(let version, let id): "after \(version) / \(id)"
        case .token(let token): token.count > 64 ? "token \(token.prefix(61))…" : "token \(token)"
        case .page(let number): "page \(number)"
        }
    }
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
        if let group { return try await group.sync() }
        return try await engine.sync { () throws(SyncError) -> SyncReport in try await self.runOnce() }
    }

    /// Starts the mirror's own triggers: sends the outbox now (writes an earlier launch left),
    /// after each commit that queues a write, and when a failed send's backoff ends. Call it at
    /// launch; pulls run on ``sync()`` (from a `PeriodicFetcher`, a realtime hint, or the UI). A
    /// collection in a ``SyncGroup`` starts its group's triggers.
    public func start() async {
        if let group { return await group.start() }
        startedAlone.withLock { $0 = true }
        await engine.start(
            run: { () throws(SyncError) -> SyncReport in try await self.runOnce(pulling: false) },
            observe: { engine in
                let collection = remote.name
                return store.observe(
                    .value(tracking: PendingWrite.self) { tx in
                        try OutboxTable.waitingCount(of: [collection], in: tx)
                    }
                ) { waiting in
                    Task { await engine.outboxChanged(waiting: waiting) }
                }
            })
    }

    /// Stops the triggers ``start()`` started (its group's, for a collection in a ``SyncGroup``);
    /// a run in progress finishes.
    public func stop() async {
        if let group { return await group.stop() }
        startedAlone.withLock { $0 = false }
        await engine.stop()
    }

    /// The collection's status now. The first look in a process reads the outbox's counts and
    /// the last pull and push from the store, so a new launch shows the writes an earlier one
    /// left before any run.
    public var status: SyncStatus {
        get async { await engine.currentStatus() }
    }

    /// The collection's status as it changes: the status now (with the store's counts, as
    /// ``status`` gives them), then each change.
    public var statusUpdates: AsyncStream<SyncStatus> {
        let engine = engine
        let (stream, continuation) = AsyncStream<SyncStatus>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let relay = Task {
            let updates = await engine.follow { engine in
                let collection = remote.name
                // A delivery says the counts changed; the engine reads them again itself, one read
                // at a time, so deliveries handled out of order never leave an older count.
                return store.observe(
                    .value(tracking: PendingWrite.self, SyncCheckpoint.self) { tx in try Self.counts(of: collection, in: tx) }
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


    /// The status's counts and dates, as the store holds them.
    static func counts(of collection: String, in tx: ObjectTransaction) throws -> SyncStatus {
        var status = SyncStatus(collection: collection)
        // Counts in SQL: the outbox can hold thousands of writes, and this runs after every run.
        try OutboxTable.count(collection, into: &status, in: tx)
        let checkpoint = try tx.fetch(SyncCheckpoint.self, id: collection)
        status.lastPull = checkpoint?.lastPull
        status.lastPush = checkpoint?.lastPush
        return status
    }
}
