import FetchKit
import Foundation
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a pull pages through: the whole collection, or one of its scopes.
struct PullTarget: Sendable {
    /// The id of its checkpoint: the collection's name, or the scope's key.
    var key: String
    /// The scope, or `nil` for the whole collection.
    var scope: SyncScope?
}

/// Pulling: pages of changes from the cursor, each applied with its cursor in one transaction.
extension SyncedCollection {
    /// Pulls the collection's changes, whole or scope by scope, resuming a walk a kill
    /// interrupted, and reconciles identities when due. Returns whether the outbox holds a write
    /// to send, when the pull's last transaction read it (see ``pages(_:_:_:startedEmpty:)``).
    @discardableResult
    func pull(_ report: inout SyncReport, start: RunStart) async throws(SyncError) -> Bool? {
        let changed = report.recordsApplied + report.recordsDeleted
        var waiting: Bool?
        if start.checkpoint.scoped == true {
            try await pullScopes(&report)
        } else {
            // A keyset run that starts on a store without a row of the collection (a first launch) stores
            // only this run's records, in version order (the push before it adds no row to an empty store),
            // so the look-up of stored versions is not needed.
            waiting = try await pull(
                whole, from: start.checkpoint, &report, startedEmpty: start.storeEmpty, remembered: start.remembered)
        }
        if report.recordsApplied + report.recordsDeleted > changed, !remote.files.names.isEmpty { await sweepFiles() }
        return waiting
    }

    /// Pulls `target` (the whole collection, or a scope) from its checkpoint as the run started
    /// (`remembered`: as the last run left it, not read). Returns whether the outbox holds a write
    /// to send, when the pull's last transaction read it.
    @discardableResult
    func pull(
        _ target: PullTarget, from checkpoint: SyncCheckpoint, _ report: inout SyncReport, startedEmpty: Bool,
        remembered: RunEnd? = nil
    ) async throws(SyncError) -> Bool? {
        // The push before the pull changes only the checkpoint's `lastPush`.
        var checkpoint = checkpoint
        if checkpoint.walk == nil, remote.changes.cursor == .snapshot {
            checkpoint = try await beginWalk(.snapshot, of: target)
        }
        let waiting = try await pages(&checkpoint, &report, target, startedEmpty: startedEmpty, remembered: remembered)
        // Moved to scopes by another process meanwhile: the next run pulls the scopes.
        if target.scope == nil, checkpoint.scoped == true { return nil }
        if let identities = remote.identities, checkpoint.walk == nil {
            let due =
                checkpoint.lastReconcile.map { Date().timeIntervalSince($0) >= identities.interval.timeInterval }
                ?? true
            if due {
                try await reconcile(identities, target, &report)
                return nil
            }
        }
        return waiting
    }

    /// The whole collection, as a pull's target.
    var whole: PullTarget { PullTarget(key: remote.name, scope: nil) }

    /// A listing request (of changes or identities) narrowed to `target`'s scope.
    func listing(_ request: any Endpoint, _ target: PullTarget) -> any Endpoint {
        target.scope.map { remote.narrowing(request, $0) } ?? request
    }

    /// Starts a walk over the whole of `target`, with a new generation of seen records (what an
    /// earlier walk left unfinished is forgotten).
    func beginWalk(_ kind: SyncWalk.Kind, of target: PullTarget) async throws(SyncError) -> SyncCheckpoint {
        let key = target.key
        let first: SyncCursor? = remote.changes.cursor == .snapshot && kind != .reconcile ? .page(1) : nil
        return try await persist { tx in
            var checkpoint = try Self.checkpoint(key, in: tx)
            try Self.begin(kind, first: first, on: &checkpoint, in: tx)
            try tx.upsert(checkpoint)
            return checkpoint
        }
    }

    /// Begins a walk on `checkpoint` (not stored): a new generation, the unfinished walk's seen
    /// records deleted.
    static func begin(
        _ kind: SyncWalk.Kind, first: SyncCursor?, on checkpoint: inout SyncCheckpoint, in tx: ObjectTransaction
    ) throws {
        if let unfinished = checkpoint.walk {
            _ = try tx.delete(
                Query<SyncSeenRecord>(
                    where: SyncSeenRecord.collection == checkpoint.id
                        && SyncSeenRecord.generation == unfinished.generation))
        }
        checkpoint.generations += 1
        checkpoint.walk = SyncWalk(kind: kind, generation: checkpoint.generations, position: first)
    }

    /// Reads and applies pages until the server has no more. Returns whether the outbox holds a
    /// write to send as the last page's transaction left it (`nil` when a walk's end wrote after
    /// it), so the push after the pull needs no read of its own.
    ///
    /// When `checkpoint` was `remembered` from the last run (not read), the first page's
    /// transaction compares it with the stored one first: when another process moved it (a
    /// cursor, a walk, scopes), the page is not applied, and the pull starts again from the stored
    /// checkpoint (or ends, for a collection now pulled by scopes: the next run pulls them). A
    /// first page that is the last and changes nothing needs no transaction while nothing was
    /// committed since that run (``quietPage(_:next:walk:_:expecting:since:)``).
    @discardableResult
    func pages(
        _ checkpoint: inout SyncCheckpoint, _ report: inout SyncReport, _ target: PullTarget, startedEmpty: Bool,
        remembered: RunEnd? = nil
    ) async throws(SyncError) -> Bool? {
        var waiting: Bool?
        var ended: RememberedStart?
        var expected = remembered == nil ? nil : checkpoint
        let quietCheck = remembered.flatMap(quietCheck(since:))
        var position: SyncCursor? = checkpoint.walk.map(\.position) ?? shifted(checkpoint.cursor)
        // The next page, requested while this one is applied.
        var ahead: PageAhead?
        defer { ahead?.request.cancel() }
        while true {
            let exchange: Exchange
            do {
                if let early = ahead, early.position == position {
                    ahead = nil
                    exchange = try await early.answer()
                } else {
                    ahead?.request.cancel()
                    ahead = nil
                    exchange = try await self.exchange(listing(remote.changes.request(position), target))
                }
            } catch {
                if let scope = target.scope, position == nil || position == .page(1), Self.refuses(error) {
                    throw SyncError(
                        .scopeRefused, collection: remote.name, page: "scope \(scope)",
                        "The server refused the scope \(scope) of \(remote.name) (\(error.description)); nothing of it "
                            + "was applied. Change or drop the scope with scope(to:).", fetchError: error)
                }
                guard remote.changes.isCursorRejected(error) else { throw requestError(error, page: position) }
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
                    checkpoint = try await beginWalk(walk.kind == .snapshot ? .snapshot : .resync, of: target)
                    throw SyncError(
                        .cursorRejected, collection: remote.name, page: position.map(Self.describe),
                        "The server rejected the cursor of \(remote.name)'s full listing while it was read (\(status)); "
                            + "the next sync starts the listing again from the start.", fetchError: error)
                }
                checkpoint = try await beginWalk(.resync, of: target)
                report.resynced = true
                position = nil
                continue
            }
            let page: ChangePage<Entity>
            do {
                page = try remote.changes.page.extract(from: exchange.data, response: exchange.response)
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
            if page.hasMore { ahead = PageAhead(self, next, listing(remote.changes.request(next), target)) }
            let walk = checkpoint.walk
            let at = position.map(Self.describe) ?? "first"
            let applied: Applied
            do {
                applied = try await apply(
                    page, at: at, next: next, walk: walk, target, startedEmpty: startedEmpty, expecting: expected,
                    since: expected == nil ? nil : quietCheck)
            } catch  where error.code == .missingParent {
                // A parent created on the server after its collection was pulled: pulled now, and
                // the page applied again, whole.
                guard let parent = parentToPull(for: error) else { throw error }
                try await parent.groupPull(&report)
                do {
                    applied = try await apply(
                        page, at: at, next: next, walk: walk, target, startedEmpty: startedEmpty,
                        afterPullingParent: true)
                } catch  where error.code == .missingParent {
                    // A parent its collection's pull does not bring (outside that collection's
                    // scopes): looked up, and stored in the page's transaction.
                    guard let parents = try await lookUpParents(of: page) else { throw error }
                    applied = try await apply(
                        page, at: at, next: next, walk: walk, target, startedEmpty: startedEmpty,
                        afterPullingParent: true,
                        storingParents: parents)
                }
            }
            expected = nil
            if let moved = applied.moved {
                // Another process moved the checkpoint since the last run: nothing of the page was
                // applied; the pull goes on from where the store says.
                checkpoint = moved
                guard moved.scoped != true else { return nil }
                position = moved.walk.map(\.position) ?? shifted(moved.cursor)
                continue
            }
            if !page.hasMore, target.scope == nil, !applied.outboxWaiting, let stored = applied.checkpoint,
                let stamp = applied.stamp
            {
                ended = RememberedStart(
                    start: RunStart(checkpoint: stored, outboxWaiting: false, storeEmpty: false),
                    end: RunEnd(stamp: stamp, dataVersion: applied.dataVersion))
            }
            await pulledPage(
                records: page.records.count + page.deleted.count, bytes: exchange.data.count, remaining: page.remaining)
            report.pagesApplied += 1
            report.recordsApplied += applied.applied
            report.recordsDeleted += applied.deleted
            report.conflicts += applied.conflicts
            waiting = applied.outboxWaiting
            checkpoint.walk?.position = next
            guard page.hasMore else { break }
            position = next
        }
        if let walk = checkpoint.walk {
            report.recordsDeleted += try await finishWalk(walk, of: target, cursor: walk.position).deleted
            checkpoint.walk = nil
            return nil
        }
        // An incremental run's last page recorded the pull's date in its own transaction.
        if let ended { lastEnd.withLock { $0 = ended } }
        return waiting
    }

    struct Applied: Sendable {
        var applied = 0
        var deleted = 0
        var conflicts = 0
        /// Whether the outbox held a write to send when the page's transaction ended.
        var outboxWaiting = false
        /// The checkpoint as the page's transaction stored it, outside a walk.
        var checkpoint: SyncCheckpoint?
        /// The sync tables' commit stamp once the page's transaction commits.
        var stamp: UInt64?
        /// The stored checkpoint, when it was not the one expected (nothing was applied).
        var moved: SyncCheckpoint?
        /// On a last page: `PRAGMA data_version` of the connection, read in the page's transaction.
        var dataVersion: Int64?
    }

    /// Applies a page and moves the cursor in one transaction.
    func apply(
        _ page: ChangePage<Entity>, at position: String, next: SyncCursor?, walk: SyncWalk?, _ target: PullTarget,
        startedEmpty: Bool, afterPullingParent: Bool = false,
        storingParents: (@Sendable (ObjectTransaction) throws -> Void)? = nil, expecting: SyncCheckpoint? = nil,
        since check: QuietCheck? = nil
    ) async throws(SyncError) -> Applied {
        if let expecting, let check, storingParents == nil,
            let quiet = try await quietPage(page, next: next, walk: walk, target, expecting: expecting, since: check)
        {
            return quiet
        }
        let store = store
        let collection = remote.name
        let key = target.key
        let scoped = target.scope != nil
        // A parent in a group holds the server's deletes of records its children refer to.
        let holding = isParentInGroup
        let version = remote.changes.version
        let outbox = outbox
        let keyset = if case .keyset = remote.changes.cursor { true } else { false }
        // A first pull stores only this run's records, in version order: it compares nothing.
        let versionColumn = startedEmpty ? nil : versionColumn(probing: page.records)
        let rules = outbox.rules(newerBy: versionColumn)
        /// Moves the cursor; returns the checkpoint as stored when no walk is in progress.
        @Sendable func moveCursor(from stored: SyncCheckpoint, _ tx: ObjectTransaction) throws -> SyncCheckpoint? {
            var checkpoint = stored
            if let walk, var current = checkpoint.walk {
                // The page's own walk, unless a newer one began meanwhile (then the page leaves it).
                guard current.generation == walk.generation else { return nil }
                current.position = next
                checkpoint.walk = current
            } else if walk != nil || checkpoint.walk != nil {
                // A walk began or ended while this page was read: the cursor is the walk's now.
                return nil
            } else if keyset, let current = checkpoint.cursor, let next, !Self.precedes(current, next) {
                // Re-read overlap: the cursor never moves back.
            } else {
                checkpoint.cursor = next
            }
            // The last page of an incremental run ends the pull (a walk's end is dated by
            // finishWalk).
            if checkpoint.walk == nil, !page.hasMore { checkpoint.lastPull = Date() }
            try tx.upsert(checkpoint)
            return checkpoint.walk == nil ? checkpoint : nil
        }
        @Sendable func applying(in tx: ObjectTransaction) throws -> Applied {
            var result = Applied()
            // Other connections' commits (another process's included) change `data_version`; none
            // can commit while this transaction writes, so one read serves its start and its end.
            let dataVersion = expecting == nil && page.hasMore ? nil : try Self.dataVersion(in: tx)
            // The checkpoint the last run left, while nothing was committed since that run's last
            // page (no other connection's commit, no commit of this store's to the sync tables).
            let unchanged =
                if let expecting, let end = check?.end, end.dataVersion != nil, dataVersion == end.dataVersion,
                    self.syncTablesStamp == end.stamp
                { expecting } else { SyncCheckpoint?.none }
            let stored = try unchanged ?? Self.checkpoint(key, in: tx)
            if let expecting, !stored.continues(expecting) {
                result.moved = stored
                return result
            }
            // A first pull writes pages it does not read again: the connection's page cache stays small.
            if stored.lastPull == nil { try tx.limitPageCache(toBytes: SyncCheckpoint.firstPullPageCache) }
            // A closure, not `\.id`: a key path is projected at run time here, ten times slower.
            let ids = { page.records.map { $0.id } + page.deleted }
            // Each look-up is an index probe per record of the page: skipped when there is nothing to
            // find (no write waits in the collection's outbox; no row stored yet, as in a first pull;
            // the versions compared in the upserts).
            let queued = try outbox.writes(ofPage: ids, in: tx)
            let pending = queued ?? [:]
            let storedVersions =
                if let version, versionColumn == nil, !startedEmpty, !page.records.isEmpty,
                    try tx.exists(Query<Entity>())
                {
                    try Self.storedVersions(of: page.records, version, in: tx)
                } else { [String: RecordVersion]() }
            // The identities' texts, only where a table of the page's records is written or read.
            let texts = walk != nil || holding ? ids().map { $0.databaseValue.identityText } : []
            if let walk {
                try Self.markSeen(texts, collection: key, generation: walk.generation, in: tx)
            }
            if scoped {
                // The scope lists these records; a record the server deleted leaves every scope.
                for record in page.records {
                    try tx.upsert(
                        SyncScopeMember(
                            collection: collection, scope: key, recordID: record.id.databaseValue.identityText))
                }
                if !page.deleted.isEmpty {
                    let gone = page.deleted.map { $0.databaseValue.identityText }
                    _ = try tx.delete(
                        Query<SyncScopeMember>(
                            where: SyncScopeMember.collection == collection && SyncScopeMember.recordID.isIn(gone)))
                }
            }
            try storingParents?(tx)
            try page.storingRelated?(tx)
            if holding, !texts.isEmpty,
                try tx.exists(Query<SyncHeldDelete>(where: SyncHeldDelete.collection == collection))
            {
                // A record sent again after its delete was held is not deleted.
                _ = try tx.delete(
                    Query<SyncHeldDelete>(
                        where: SyncHeldDelete.collection == collection && SyncHeldDelete.recordID.isIn(texts)))
            }
            let looksUp = !pending.isEmpty || !storedVersions.isEmpty
            for record in page.records {
                let text = looksUp ? record.id.databaseValue.identityText : ""
                if let writes = pending[text] {
                    if try outbox.pulled(record, over: writes, in: tx) { result.conflicts += 1 }
                    continue
                }
                // An older version never replaces a newer one; the version already stored (a re-read
                // overlap, the server's answer to this device's own write) is not applied again.
                if let incoming = version?(record), let stored = storedVersions[text], incoming <= stored { continue }
                do {
                    // With the version's property known, the upsert compares it (no read before); a
                    // record without a version replaces the row, as after a read.
                    let versioned = versionColumn != nil && version?(record) != nil
                    guard try outbox.storeRemote(record, rules: versioned ? rules : nil, in: tx) else { continue }
                } catch let error as PersistenceError {
                    // The page rolls back whole; the error names the record the store refused (and
                    // the parent it refers to, in a group).
                    if error.code == .missingReference, let column = error.property,
                        let missing = self.missingParent(
                            record, column: column, page: position, afterPullingParent: afterPullingParent, error)
                    {
                        throw missing
                    }
                    let text = record.id.databaseValue.identityText
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
                    if try outbox.pulled(nil, over: writes, in: tx) { result.conflicts += 1 }
                    continue
                }
                if holding, try self.isReferredToInGroup(id, in: tx) {
                    // Deleted after the children's pull, which may move them or delete them first.
                    try tx.upsert(
                        SyncHeldDelete(collection: collection, recordID: text, identity: SyncJSON.encodeIdentity(id)))
                    continue
                }
                if try tx.delete(Entity.self, id: id) { result.deleted += 1 }
            }
            result.checkpoint = try moveCursor(from: stored, tx)
            // Read last, after the rebases and whatever the page's related rows' block wrote (an
            // outbox empty as the page began, with no such block, is empty still).
            let blocks = storingParents != nil || page.storingRelated != nil
            result.outboxWaiting = queued == nil && !blocks ? false : try outbox.hasUnsent(in: tx)
            result.stamp = store.commitStamp(of: Self.syncTables, after: tx)
            if !page.hasMore { result.dataVersion = dataVersion }
            return result
        }
        do {
            return try await persist(page: position) { tx in
                try applying(in: tx)
            }
        } catch  where Self.refusesVersionTest(error, versionColumn) {
            // The store does not compare that property as a version (its type, a rule of
            // `keeping` beside it, not a column): the page is applied again, reading the versions.
            self.versionColumn.withLock { $0 = .none }
            return try await apply(
                page, at: position, next: next, walk: walk, target, startedEmpty: startedEmpty,
                afterPullingParent: afterPullingParent, storingParents: storingParents, expecting: expecting)
        }
    }
}

extension SyncedCollection {
    /// Tells the status (the collection's, and its group's) that a page was applied.
    func pulledPage(records: Int, bytes: Int, remaining: Int?) async {
        let name = remote.name
        await engine.pulledPage(name, records: records, bytes: bytes, remaining: remaining)
        if let group { await group.engine.pulledPage(name, records: records, bytes: bytes, remaining: remaining) }
    }
}
