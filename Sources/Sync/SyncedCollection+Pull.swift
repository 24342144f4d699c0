import FetchKit
import Foundation
import Locking
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response's body and head.
struct Exchange: Sendable {
    let data: Data
    let response: HTTPURLResponse
}

extension SyncedCollection {
    /// One run: push, pull, push what the rebase left. A started mirror's own runs only push.
    func runOnce(pulling: Bool = true) async throws(SyncError) -> SyncReport {
        var report = SyncReport()
        let start = try await prepare()
        var held = Set<String>()
        let pushed = try await push(&report, honouringBackoff: !pulling, held: &held, waiting: start.outboxWaiting)
        guard pulling else {
            if let pushed { throw pushed }
            return report
        }
        try await pull(&report, start: start)
        let again = try await push(&report, honouringBackoff: false, held: &held)
        if let failure = pushed ?? again { throw failure }
        return report
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
                tx.allowWrites(to: Entity.self)
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
        let keyset = if case .keyset = remote.cursor { true } else { false }
        @Sendable func start(_ tx: ObjectTransaction) throws -> RunStart? {
            guard let checkpoint = try tx.fetch(SyncCheckpoint.self, id: collection) else { return nil }
            let waiting = try tx.first(PendingWrite.unsent(in: collection)) != nil
            let empty = try keyset && tx.first(Query<Entity>()) == nil
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

    // MARK: Pull

    /// Pulls the collection's changes, resuming a walk a kill interrupted, and reconciles
    /// identities when due.
    func pull(_ report: inout SyncReport, start: RunStart) async throws(SyncError) {
        if case .keyset = remote.cursor, remote.version == nil {
            throw SyncError(
                .misuse, collection: remote.name,
                "The keyset cursor of \(remote.name) needs RemoteCollection.version (the records' updated or sequence)."
            )
        }
        // The checkpoint as the run started: the push before the pull changes only its `lastPush`.
        var checkpoint = start.checkpoint
        if checkpoint.walk == nil, remote.cursor == .snapshot {
            checkpoint = try await beginWalk(.snapshot)
        }
        // A keyset run that starts on a store without a row of the collection (a first launch)
        // stores only records of this run, in version order: each appears once, or again at a
        // newer version, so the look-up of stored versions is not needed. (The push before the
        // pull adds no row to an empty store: a local write's row was stored with it.)
        let startedEmpty = start.storeEmpty
        try await pages(&checkpoint, &report, startedEmpty: startedEmpty)
        if let identities = remote.identities, checkpoint.walk == nil {
            let due =
                checkpoint.lastReconcile.map { Date().timeIntervalSince($0) >= identities.interval.timeInterval }
                ?? true
            if due {
                try await reconcile(identities, &report)
            }
        }
    }

    /// Starts a walk over the whole collection, with a new generation of seen records (what an
    /// earlier walk left unfinished is forgotten).
    func beginWalk(_ kind: SyncWalk.Kind) async throws(SyncError) -> SyncCheckpoint {
        let collection = remote.name
        let first: SyncCursor? = remote.cursor == .snapshot && kind != .reconcile ? .page(1) : nil
        return try await persist { tx in
            var checkpoint = try Self.checkpoint(collection, in: tx)
            if let unfinished = checkpoint.walk {
                _ = try tx.delete(
                    Query<SyncSeenRecord>(
                        where: SyncSeenRecord.collection == collection
                            && SyncSeenRecord.generation == unfinished.generation))
            }
            checkpoint.generations += 1
            checkpoint.walk = SyncWalk(kind: kind, generation: checkpoint.generations, position: first)
            try tx.upsert(checkpoint)
            return checkpoint
        }
    }

    /// Reads and applies pages until the server has no more.
    private func pages(
        _ checkpoint: inout SyncCheckpoint, _ report: inout SyncReport, startedEmpty: Bool
    ) async throws(SyncError) {
        var position: SyncCursor? = checkpoint.walk.map(\.position) ?? shifted(checkpoint.cursor)
        while true {
            let exchange: Exchange
            do {
                exchange = try await self.exchange(remote.changes(position))
            } catch {
                guard remote.isCursorRejected(error) else { throw requestError(error, page: position) }
                let status = error.statusCode.map { "HTTP \($0)" } ?? error.code.description
                guard position != nil, position != .page(1) else {
                    throw SyncError(
                        .cursorRejected, collection: remote.name, page: position.map(Self.describe),
                        "The server rejected the full listing of \(remote.name) as an invalid cursor (\(status)). "
                            + "Check the collection's isCursorRejected.", fetchError: error)
                }
                if let walk = checkpoint.walk {
                    // A walk's own cursor expired (a resync, a snapshot walk): this run ends, and the next
                    // starts the walk again from the start, with the unsent writes kept.
                    checkpoint = try await beginWalk(walk.kind == .snapshot ? .snapshot : .resync)
                    throw SyncError(
                        .cursorRejected, collection: remote.name, page: position.map(Self.describe),
                        "The server rejected the cursor of \(remote.name)'s full listing while it was read (\(status)); "
                            + "the next sync starts the listing again from the start.", fetchError: error)
                }
                checkpoint = try await beginWalk(.resync)
                report.resynced = true
                position = nil
                continue
            }
            let page: ChangePage<Entity>
            do {
                page = try remote.page(exchange.data, exchange.response)
            } catch {
                let property = SyncJSON.failedProperty(error)
                throw SyncError(
                    .undecodablePage, collection: remote.name, page: position.map(Self.describe) ?? "first",
                    property: property,
                    "A page of \(remote.name) (cursor \(position.map(Self.describe) ?? "none")) does not decode"
                        + (property.map { " at \($0)" } ?? "") + ": \(SyncJSON.describe(error))"
                )
            }
            let next = try nextPosition(after: page, at: position)
            if page.hasMore, next == position {
                throw SyncError(
                    .undecodablePage, collection: remote.name, page: position.map(Self.describe) ?? "first",
                    "A page of \(remote.name) says more follow but gives no new cursor; stopping instead of reading it again."
                )
            }
            let walk = checkpoint.walk
            let applied = try await apply(
                page, at: position.map(Self.describe) ?? "first", next: next, walk: walk, startedEmpty: startedEmpty)
            report.pagesApplied += 1
            report.recordsApplied += applied.applied
            report.recordsDeleted += applied.deleted
            report.conflicts += applied.conflicts
            checkpoint.walk?.position = next
            guard page.hasMore else { break }
            position = next
        }
        if let walk = checkpoint.walk {
            report.recordsDeleted += try await finishWalk(walk, cursor: walk.position)
            checkpoint.walk = nil
        }
        // An incremental run's last page recorded the pull's date in its own transaction.
    }

    /// The position after `page`.
    private func nextPosition(after page: ChangePage<Entity>, at position: SyncCursor?) throws(SyncError) -> SyncCursor?
    {
        if let cursor = page.cursor { return cursor }
        switch remote.cursor {
        case .snapshot:
            if case .page(let number) = position { return .page(number + 1) }
            return .page(2)
        case .token:
            guard !page.hasMore else {
                throw SyncError(
                    .undecodablePage, collection: remote.name, page: position.map(Self.describe),
                    "A page of \(remote.name) says more follow but its reader returned no token (ChangePage.cursor).")
            }
            return position
        case .keyset:
            guard let last = page.records.last else { return position }
            guard let version = remote.version?(last) else {
                throw SyncError(
                    .undecodablePage, collection: remote.name, record: last.id.databaseValue.identityText,
                    "The record \(remote.name)/\(last.id.databaseValue.identityText) has no version for the keyset cursor."
                )
            }
            return .keyset(version: version, id: last.id.databaseValue.identityText)
        }
    }

    /// The cursor a keyset run starts from: the overlap before the last applied record.
    private func shifted(_ cursor: SyncCursor?) -> SyncCursor? {
        guard case .keyset(let version, _) = cursor, case .keyset(let overlap) = remote.cursor else { return cursor }
        switch (overlap, version) {
        case (.none, _):
            return cursor
        case (.units(let units), .number(let number)):
            return .keyset(version: .number(number - units), id: "")
        case (.time(let window), .text(let text)):
            guard let earlier = Timestamp.shift(text, by: -window.timeInterval) else { return cursor }
            return .keyset(version: .text(earlier), id: "")
        default:
            return cursor
        }
    }

    private struct Applied: Sendable {
        var applied = 0
        var deleted = 0
        var conflicts = 0
    }

    /// Applies a page and moves the cursor in one transaction.
    private func apply(
        _ page: ChangePage<Entity>, at position: String, next: SyncCursor?, walk: SyncWalk?, startedEmpty: Bool
    ) async throws(SyncError) -> Applied {
        let collection = remote.name
        let version = remote.version
        let policy = conflicts
        let keyset = if case .keyset = remote.cursor { true } else { false }
        @Sendable func moveCursor(_ tx: ObjectTransaction) throws {
            var checkpoint = try Self.checkpoint(collection, in: tx)
            if var walk = checkpoint.walk {
                walk.position = next
                checkpoint.walk = walk
            } else if keyset, let current = checkpoint.cursor, let next, !Self.precedes(current, next) {
                // Re-read overlap: the cursor never moves back.
            } else {
                checkpoint.cursor = next
            }
            // The last page of an incremental run ends the pull (a walk's end is dated by
            // finishWalk).
            if checkpoint.walk == nil, !page.hasMore { checkpoint.lastPull = Date() }
            try tx.upsert(checkpoint)
        }
        return try await persist(page: position) { tx in
            var result = Applied()
            let ids = page.records.map(\.id) + page.deleted
            let texts = ids.map { $0.databaseValue.identityText }
            // Each look-up is an index probe per record of the page: skipped when there is nothing to
            // find (no write waits in the collection's outbox; no row stored yet, as in a first pull).
            let anyPending = try tx.first(Query<PendingWrite>(where: PendingWrite.collection == collection)) != nil
            let pending =
                anyPending
                ? Dictionary(
                    grouping: try tx.fetch(
                        Query<PendingWrite>(
                            where: PendingWrite.collection == collection && PendingWrite.recordID.isIn(texts),
                            sortedBy: [PendingWrite.sequence.ascending()])), by: \.recordID)
                : [:]
            var storedVersions: [String: RecordVersion] = [:]
            if let version, !startedEmpty, try tx.first(Query<Entity>()) != nil {
                for row in try tx.fetch(Query<Entity>(where: Entity.idField.isIn(page.records.map(\.id)))) {
                    storedVersions[row.id.databaseValue.identityText] = version(row)
                }
            }
            if let walk {
                try Self.markSeen(texts, collection: collection, generation: walk.generation, in: tx)
            }
            try page.storingRelated?(tx)
            for record in page.records {
                let text = record.id.databaseValue.identityText
                if let writes = pending[text] {
                    if try self.rebase(writes, remote: record, policy: policy, in: tx) { result.conflicts += 1 }
                    continue
                }
                // An older version never replaces a newer one; the version already stored (a re-read
                // overlap, the server's answer to this device's own write) is not applied again.
                if let incoming = version?(record), let stored = storedVersions[text], incoming <= stored { continue }
                do {
                    try self.storeRemote(record, in: tx)
                } catch let error as PersistenceError {
                    // The page rolls back whole; the error names the record the store refused.
                    throw SyncError(
                        .storeFailed, collection: collection, record: text, page: position,
                        "The store refused the record \(collection)/\(text)"
                            + (error.property.map { " (property \($0))" } ?? "")
                            + " of page \(position): \(error.message)",
                        persistenceError: error)
                }
                result.applied += 1
            }
            for id in page.deleted {
                let text = id.databaseValue.identityText
                if let writes = pending[text] {
                    if try self.rebase(writes, remote: nil, policy: policy, in: tx) { result.conflicts += 1 }
                    continue
                }
                if try tx.delete(Entity.self, id: id) { result.deleted += 1 }
            }
            try moveCursor(tx)
            return result
        }
    }

    /// Ends a walk: deletes the rows it did not see (unless a write waits for them), forgets
    /// what it saw, and keeps its position as the incremental cursor.
    private func finishWalk(_ walk: SyncWalk, cursor: SyncCursor?) async throws(SyncError) -> Int {
        let collection = remote.name
        let kind = remote.cursor
        let retaining = remote.retaining
        return try await persist { tx in
            var deleted = 0
            do {
                let seen = Set(
                    try tx.fetch(
                        Query<SyncSeenRecord>(
                            where: SyncSeenRecord.collection == collection
                                && SyncSeenRecord.generation == walk.generation)
                    ).map(\.recordID))
                let waiting = Set(
                    try tx.fetch(Query<PendingWrite>(where: PendingWrite.collection == collection)).map(\.recordID))
                // Rows the filter matches stay; a row it cannot decide (NULL) goes like any other.
                let kept = Set(
                    try retaining.map { filter in
                        try tx.fetch(Query<Entity>(where: filter)).map { $0.id.databaseValue.identityText }
                    } ?? [])
                let stale = try tx.fetch(Query<Entity>()).map(\.id).filter {
                    let text = $0.databaseValue.identityText
                    return !seen.contains(text) && !waiting.contains(text) && !kept.contains(text)
                }
                var start = 0
                while start < stale.count {
                    let chunk = stale[start..<min(start + 500, stale.count)]
                    deleted += try tx.delete(Query<Entity>(where: Entity.idField.isIn(chunk)))
                    start += 500
                }
            }
            _ = try tx.delete(
                Query<SyncSeenRecord>(
                    where: SyncSeenRecord.collection == collection && SyncSeenRecord.generation == walk.generation))
            var checkpoint = try Self.checkpoint(collection, in: tx)
            checkpoint.walk = nil
            switch walk.kind {
            case .reconcile: checkpoint.lastReconcile = Date()
            case .resync:
                checkpoint.cursor = cursor
                checkpoint.lastPull = Date()
            case .snapshot:
                checkpoint.cursor = nil
                checkpoint.lastPull = Date()
            }
            if kind == .snapshot, walk.kind == .resync { checkpoint.cursor = nil }
            try tx.upsert(checkpoint)
            return deleted
        }
    }

    /// Lists every identity and deletes local rows the server no longer has.
    private func reconcile(_ identities: IdentityListing<Entity>, _ report: inout SyncReport) async throws(SyncError) {
        let checkpoint = try await beginWalk(.reconcile)
        guard let walk = checkpoint.walk else { return }
        let collection = remote.name
        var after: String?
        while true {
            let exchange: Exchange
            do {
                exchange = try await self.exchange(identities.request(after))
            } catch {
                throw requestError(error, page: after.map { "identities after \($0)" } ?? "identities")
            }
            let page: (identities: [Entity.ID], hasMore: Bool)
            do {
                page = try identities.page(exchange.data, exchange.response)
            } catch {
                throw SyncError(
                    .undecodablePage, collection: collection, page: "identities after \(after ?? "start")",
                    "A page of \(collection)'s identities does not decode: \(error)")
            }
            let texts = page.identities.map { $0.databaseValue.identityText }
            try await persist { tx in
                try Self.markSeen(texts, collection: collection, generation: walk.generation, in: tx)
            }
            guard page.hasMore, let last = texts.last, last != after else { break }
            after = last
        }
        report.recordsDeleted += try await finishWalk(walk, cursor: nil)
        report.reconciled = true
    }

    /// Records that a walk saw these identities. A record can be seen twice in one walk (a
    /// listing that moved on between two pages, a walk resumed after a kill): seen is seen.
    static func markSeen(
        _ identities: [String], collection: String, generation: Int64, in tx: ObjectTransaction
    ) throws {
        for identity in Set(identities) {
            try tx.upsert(SyncSeenRecord(collection: collection, generation: generation, recordID: identity))
        }
    }

    // MARK: Rebase

    /// A pull met a record with pending writes: keeps the local change and, when the server's
    /// version differs from the writes' base, resolves the conflict by the policy. Returns
    /// whether there was a conflict.
    func rebase(
        _ writes: [PendingWrite], remote record: Entity?, policy: ConflictPolicy<Entity>, in tx: ObjectTransaction
    ) throws -> Bool {
        guard var first = writes.first else { return false }
        let remoteData = try record.map(Self.encode)
        if first.attempts > 0 || first.state == .sending || first.state == .rejected {
            // Its outcome is unknown (or refused): keep the newest server version with it; the
            // acknowledgement (or the app's decision) settles the row.
            first.remote = remoteData
            try tx.update(first)
            return false
        }
        let base = try first.base(as: Entity.self)
        if first.state != .conflicted, sameVersion(base, record) { return false }
        var write = writes.last ?? first
        let local = try write.local(as: Entity.self)
        let resolution =
            first.state == .conflicted ? .park : policy.resolve(Conflict(base: base, local: local, remote: record))
        let identity = try SyncJSON.decode(Entity.ID.self, from: write.identity)
        switch resolution {
        case .keepRemote:
            for pending in writes { _ = try tx.delete(pending) }
            if let record { try storeRemote(record, in: tx) } else { _ = try tx.delete(Entity.self, id: identity) }
        case .keepLocal:
            for var pending in writes {
                pending.base = remoteData
                if record == nil, pending.operation == .update { pending.operation = .create }
                if record != nil, pending.operation == .create { pending.operation = .update }
                try tx.update(pending)
            }
            if record == nil, write.operation == .delete { for pending in writes { _ = try tx.delete(pending) } }
        case .use(let merged):
            write.payload = try Self.encode(merged)
            write.base = remoteData
            write.operation = record == nil ? .create : .update
            try tx.update(write)
            try tx.upsert(merged)
        case .park:
            first.state = .conflicted
            first.remote = remoteData
            try tx.update(first)
        }
        return true
    }

    /// Whether the server's record is the base (by version, else by content).
    /// Stores a server record in place of the row, carrying the row's local-only fields
    /// (``RemoteCollection/keepingLocal``).
    func storeRemote(_ record: Entity, in tx: ObjectTransaction) throws {
        if let keep = remote.keepingLocal, let stored = try tx.fetch(Entity.self, id: record.id) {
            try tx.upsert(keep(record, stored))
        } else {
            try tx.upsert(record)
        }
    }

    func sameVersion(_ base: Entity?, _ remote: Entity?) -> Bool {
        switch (base, remote) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case (let base?, let remote?):
            if let version = self.remote.version, let a = version(base), let b = version(remote) { return a == b }
            return (try? Self.encode(base)) == (try? Self.encode(remote))
        }
    }

    // MARK: Helpers

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

    /// Whether keyset cursor `a` comes before `b`.
    static func precedes(_ a: SyncCursor, _ b: SyncCursor) -> Bool {
        guard case .keyset(let va, let ia) = a, case .keyset(let vb, let ib) = b else { return true }
        if va != vb { return va < vb }
        return Array(ia.utf8).lexicographicallyPrecedes(ib.utf8)
    }
}

/// Text timestamps in the formats APIs use for `updated`: `2026-11-24 09:59:14.909Z` and ISO
/// 8601 (`T` separator, any number of fraction digits, `Z` or no zone, read as UTC).
enum Timestamp {
    /// `text` moved by `seconds`, written in the same shape, or `nil` when it is not a timestamp.
    static func shift(_ text: String, by seconds: Double) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0..<4), bytes[4] == 45, let month = number(5..<7), bytes[7] == 45,
            let day = number(8..<10), bytes[10] == 32 || bytes[10] == 84, let hour = number(11..<13), bytes[13] == 58,
            let minute = number(14..<16), bytes[16] == 58, let second = number(17..<19)
        else { return nil }
        var index = 19
        var fractionDigits = 0
        var fraction = 0.0
        if index < bytes.count, bytes[index] == 46 {
            index += 1
            var scale = 0.1
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                fractionDigits += 1
                index += 1
            }
        }
        let suffix = String(decoding: bytes[index...], as: UTF8.self)
        guard suffix.isEmpty || suffix == "Z" else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        guard
            let date = calendar.date(
                from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
        else { return nil }
        let shifted = date.timeIntervalSince1970 + fraction + seconds
        let whole = floor(shifted)
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: whole))
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        var result = String(format: "%04d", parts.year ?? 0) + "-" + two(parts.month) + "-" + two(parts.day)
        result += (bytes[10] == 84 ? "T" : " ") + two(parts.hour) + ":" + two(parts.minute) + ":" + two(parts.second)
        if fractionDigits > 0 {
            let scaled = Int(((shifted - whole) * pow(10, Double(fractionDigits))).rounded(.down))
            result += "." + String(format: "%0\(fractionDigits)d", scaled)
        }
        return result + suffix
    }
}
