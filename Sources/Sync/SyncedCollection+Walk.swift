import FetchKit
import Foundation
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Walks over a whole collection (a snapshot, a resync, an identity reconciliation): what they
/// saw, and the rows they prune at their end.
extension SyncedCollection {
    /// Ends a walk: deletes the rows it did not see (unless a write waits for them), forgets
    /// what it saw, and keeps its position as the incremental cursor. A reconciliation that saw
    /// records this device holds no row of begins a resync.
    func finishWalk(_ walk: SyncWalk, cursor: SyncCursor?) async throws(SyncError) -> Int {
        let collection = remote.name
        let kind = remote.cursor
        let retaining = remote.retaining
        return try await persist { tx in
            var deleted = 0
            var missing = 0
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
                let rows = try tx.fetch(Query<Entity>()).map(\.id)
                let stale = rows.filter {
                    let text = $0.databaseValue.identityText
                    return !seen.contains(text) && !waiting.contains(text) && !kept.contains(text)
                }
                if walk.kind == .reconcile {
                    // Records the server lists that this device holds no row of (nor a write): the
                    // pull missed them (a listing that answered a guest's empty page, a clock that
                    // jumped). The mirror reads the whole collection again, now.
                    missing = seen.subtracting(rows.map { $0.databaseValue.identityText }).subtracting(waiting).count
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
            if missing > 0 {
                checkpoint.generations += 1
                checkpoint.walk = SyncWalk(
                    kind: .resync, generation: checkpoint.generations, position: kind == .snapshot ? .page(1) : nil)
            }
            try tx.upsert(checkpoint)
            return deleted
        }
    }

    /// Lists every identity and deletes local rows the server no longer has.
    func reconcile(_ identities: IdentityListing<Entity>, _ report: inout SyncReport) async throws(SyncError) {
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
                page = try identities.page.extract(from: exchange.data, response: exchange.response)
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
        // The listing named records this device does not hold: a resync began; it runs now.
        var now = try await read { tx in try Self.checkpoint(collection, in: tx) }
        if now.walk?.kind == .resync {
            report.resynced = true
            try await pages(&now, &report, startedEmpty: false)
        }
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
}
