import FetchKit
import Foundation
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Walks over a whole collection (a snapshot, a resync, an identity reconciliation): what they
/// saw, and the rows they prune at their end.
extension SyncedCollection {
    /// Ends a walk over `target`: deletes the rows it did not see (unless something keeps them,
    /// see ``prune(_:scoped:in:)``), forgets what it saw, and keeps its position as the
    /// incremental cursor. A walk over a scope looks only at the rows that scope listed. A
    /// reconciliation that saw records this device holds no row of begins a resync.
    func finishWalk(_ walk: SyncWalk, of target: PullTarget, cursor: SyncCursor?) async throws(SyncError) -> WalkEnd {
        let key = target.key
        let kind = remote.changes.cursor
        return try await persist { tx in
            var missing: [String] = []
            // A walk that another began meanwhile replaced (a change of scopes, a reset) prunes
            // nothing: what it saw is not the whole of anything.
            var checkpoint = try Self.checkpoint(key, in: tx)
            guard checkpoint.walk?.generation == walk.generation else {
                _ = try tx.delete(
                    Query<SyncSeenRecord>(
                        where: SyncSeenRecord.collection == key && SyncSeenRecord.generation == walk.generation))
                return WalkEnd(deleted: 0, missing: [])
            }
            let seen = Set(
                try tx.fetch(
                    Query<SyncSeenRecord>(
                        where: SyncSeenRecord.collection == key && SyncSeenRecord.generation == walk.generation)
                ).map(\.recordID))
            let rows = try tx.fetch(Query<Entity>()).map(\.id)
            if walk.kind == .reconcile {
                // Records the server lists that this device holds no row of (nor a write): the
                // pull missed them (see `reconcile`).
                let waiting = try self.outbox.recordsWithWrites(in: tx)
                missing = Array(seen.subtracting(rows.map { $0.databaseValue.identityText }).subtracting(waiting))
            }
            let stale: [Entity.ID]
            if target.scope != nil {
                // The rows this scope listed that its walk did not see leave the scope.
                let left = try tx.fetch(Query<SyncScopeMember>(where: SyncScopeMember.scope == key)).map(\.recordID)
                    .filter { !seen.contains($0) }
                try inChunks(left) { chunk in
                    _ = try tx.delete(
                        Query<SyncScopeMember>(
                            where: SyncScopeMember.scope == key && SyncScopeMember.recordID.isIn(chunk)))
                }
                stale = left.compactMap(Self.identity)
            } else {
                stale = rows.filter { !seen.contains($0.databaseValue.identityText) }
            }
            let deleted = try self.prune(stale, scoped: target.scope != nil, in: tx)
            _ = try tx.delete(
                Query<SyncSeenRecord>(
                    where: SyncSeenRecord.collection == key && SyncSeenRecord.generation == walk.generation))
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
            return WalkEnd(deleted: deleted, missing: missing)
        }
    }

    /// Deletes the rows of `stale` that nothing keeps, and returns how many it deleted. A row
    /// stays while a write waits for it, while ``RemoteCollection/retaining`` matches it, and
    /// (`scoped`) while another scope of the collection lists it; a parent of a group whose row
    /// the group's children still refer to is held, and deleted after their pull (see
    /// ``SyncGroup``), so no delete rule fires on a half-applied pull.
    ///
    /// A row of a scoped collection that a write or the filter keeps is left over (see
    /// ``leftoverKey``): the end of every scoped pull tries it again, so it goes once its write
    /// is sent.
    func prune(_ stale: [Entity.ID], scoped: Bool, in tx: ObjectTransaction) throws -> Int {
        guard !stale.isEmpty else { return 0 }
        let collection = remote.name
        let waiting = try outbox.recordsWithWrites(in: tx)
        // Rows the filter matches stay; a row it cannot decide (NULL) goes like any other.
        let kept = Set(
            try remote.retaining.map { filter in
                try tx.fetch(Query<Entity>(where: filter)).map { $0.id.databaseValue.identityText }
            } ?? [])
        var rest = stale.filter {
            let text = $0.databaseValue.identityText
            return !waiting.contains(text) && !kept.contains(text)
        }
        if scoped {
            let leftover = Self.leftoverKey(collection)
            let staying = stale.map { $0.databaseValue.identityText }.filter {
                waiting.contains($0) || kept.contains($0)
            }
            for text in staying {
                try tx.upsert(SyncScopeMember(collection: collection, scope: leftover, recordID: text))
            }
            var listed = Set<String>()
            try inChunks(rest.map { $0.databaseValue.identityText }) { chunk in
                _ = try tx.delete(
                    Query<SyncScopeMember>(
                        where: SyncScopeMember.scope == leftover && SyncScopeMember.recordID.isIn(chunk)))
                listed.formUnion(
                    try tx.fetch(
                        Query<SyncScopeMember>(
                            where: SyncScopeMember.collection == collection && SyncScopeMember.recordID.isIn(chunk))
                    ).map(\.recordID))
            }
            rest = rest.filter { !listed.contains($0.databaseValue.identityText) }
        }
        if isParentInGroup {
            var pruned: [Entity.ID] = []
            for id in rest {
                if try isReferredToInGroup(id, in: tx) {
                    try tx.upsert(
                        SyncHeldDelete(
                            collection: collection, recordID: id.databaseValue.identityText,
                            identity: SyncJSON.encodeIdentity(id),
                            onServer: scoped))
                } else {
                    pruned.append(id)
                }
            }
            rest = pruned
        }
        var deleted = 0
        try inChunks(rest) { chunk in
            deleted += try tx.delete(Query<Entity>(where: Entity.idField.isIn(chunk)))
        }
        return deleted
    }

    /// Lists every identity and deletes local rows the server no longer has.
    func reconcile(
        _ identities: IdentityListing<Entity>, _ target: PullTarget, _ report: inout SyncReport
    ) async throws(SyncError) {
        let checkpoint = try await beginWalk(.reconcile, of: target)
        guard let walk = checkpoint.walk else { return }
        let collection = remote.name
        let key = target.key
        var after: String?
        while true {
            let exchange: Exchange
            do {
                exchange = try await self.exchange(listing(identities.request(after), target))
            } catch {
                throw requestError(error, page: after.map { "identities after \($0)" } ?? "identities")
            }
            let page: (identities: [Entity.ID], hasMore: Bool)
            do {
                page = try identities.page.extract(from: exchange.data, response: exchange.response)
            } catch {
                throw SyncError(
                    .undecodablePage, collection: collection, page: "identities after \(after ?? "start")",
                    "A page of \(collection)'s identities does not decode: \(error)")
            }
            let texts = page.identities.map { $0.databaseValue.identityText }
            try await persist { tx in
                try Self.markSeen(texts, collection: key, generation: walk.generation, in: tx)
            }
            guard page.hasMore, let last = texts.last, last != after else { break }
            after = last
        }
        let end = try await finishWalk(walk, of: target, cursor: nil)
        report.recordsDeleted += end.deleted
        report.reconciled = true
        if !end.missing.isEmpty { try await recover(end.missing, target, &report) }
    }

    /// The identity listing named records this device holds no row of: the pull missed them (a
    /// server that answered an expired token with empty pages, a clock that jumped), or they were
    /// created since its last page. An incremental pull finds the latter; for the rest the mirror
    /// reads the whole collection again, unless the last such resync left the very same records
    /// missing (records the pull never keeps: it is not repeated for them).
    func recover(_ missing: [String], _ target: PullTarget, _ report: inout SyncReport) async throws(SyncError) {
        let key = target.key
        var checkpoint = try await read { tx in try Self.checkpoint(key, in: tx) }
        try await pages(&checkpoint, &report, target, startedEmpty: false)
        let still = try await read { tx in try self.lacking(missing, in: tx) }
        guard !still.isEmpty, checkpoint.unkept != Self.digest(still) else { return }
        checkpoint = try await beginWalk(.resync, of: target)
        report.resynced = true
        try await pages(&checkpoint, &report, target, startedEmpty: false)
        let left = try await read { tx in try self.lacking(still, in: tx) }
        _ = try await persist { tx in
            var checkpoint = try Self.checkpoint(key, in: tx)
            checkpoint.unkept = left.isEmpty ? nil : Self.digest(left)
            try tx.upsert(checkpoint)
        }
    }

    /// The records of `identities` this device holds no row of, nor a write.
    func lacking(_ identities: [String], in tx: ObjectTransaction) throws -> [String] {
        let waiting = try outbox.recordsWithWrites(among: identities, in: tx)
        return try identities.filter { text in
            guard !waiting.contains(text) else { return false }
            guard let id = Self.identity(text) else { return true }
            return try tx.fetch(Entity.self, id: id) == nil
        }
    }

    /// The identity whose text is `text` (`identityText` read back: a string, or a number).
    static func identity(_ text: String) -> Entity.ID? {
        if let quoted = try? JSONEncoder().encode(text), let id = try? SyncJSON.decode(Entity.ID.self, from: quoted) {
            return id
        }
        return try? SyncJSON.decode(Entity.ID.self, from: Data(text.utf8))
    }

    /// A short fingerprint of a set of identities.
    static func digest(_ identities: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in identities.sorted().joined(separator: "\u{1F}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return "\(identities.count):\(String(hash, radix: 16))"
    }
}

/// What the end of a walk did: the rows it deleted, and (for a reconciliation) the records the
/// listing named that this device holds no row of.
struct WalkEnd: Sendable {
    var deleted: Int
    var missing: [String]
}

extension SyncedCollection {
    /// Records that a walk saw these identities. A record can be seen twice in one walk (a
    /// listing that moved on between two pages, a walk resumed after a kill): seen is seen.
    static func markSeen(
        _ identities: [String], collection: String, generation: Int64, in tx: ObjectTransaction
    ) throws {
        for identity in Set(identities) {
            try tx.upsert(SyncSeenRecord(collection: collection, generation: generation, recordID: identity))
        }
    }
}
