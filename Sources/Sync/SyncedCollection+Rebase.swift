import FetchKit
import Foundation
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A pull that meets a record with waiting writes: the local change kept on top, a conflict
/// decided by the policy; and server records stored in place of rows.
extension SyncedCollection {
    /// A pull met a record with pending writes: keeps the local change and, when the server's
    /// version differs from the writes' base, resolves the conflict by the policy. Returns
    /// whether there was a conflict.
    func rebase(
        _ writes: [PendingWrite], remote record: Entity?, policy: ConflictPolicy<Entity>, in tx: ObjectTransaction
    ) throws -> Bool {
        guard var first = writes.first else { return false }
        let remoteData = try record.map(Self.encode)
        // A write of another schema version (waiting for its upgrade) cannot be read as the
        // entity, and a server version kept with it would be upgraded as if it were old: the row
        // stays as the app wrote it, and the write's conflict check meets the server's record
        // once the write is upgraded and sent.
        if writes.contains(where: { $0.schemaVersion != remote.schemaVersion }) { return false }
        if first.attempts > 0 || first.state == .sending || first.state == .rejected {
            // Its outcome is unknown (or refused): keep the newest server version with it; the
            // acknowledgement (or the app's decision) settles the row.
            first.sawServerVersion(remoteData)
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
            if record == nil, write.operation == .delete {
                // Deleted on both sides: nothing is left to send.
                for pending in writes { _ = try tx.delete(pending) }
                return true
            }
            for var pending in writes {
                pending.rebasedKeepingLocal(onto: remoteData, exists: record != nil)
                try tx.update(pending)
            }
        case .use(let merged):
            let payload = try Self.encode(merged)
            try write.take(in: tx) {
                $0.requeued(base: remoteData, exists: record != nil, payload: payload, key: Self.newKey())
            }
            try tx.upsert(merged)
        case .park:
            first.conflicted(remote: remoteData)
            try tx.update(first)
        }
        return true
    }

    /// Stores a server record in place of the row, keeping the row's local-only fields
    /// (``RemoteCollection/keeping``).
    func storeRemote(_ record: Entity, in tx: ObjectTransaction) throws {
        try tx.upsert(record, onConflict: remote.keeping)
    }

    /// Whether the server's record is the base (by version, else by content).
    func sameVersion(_ base: Entity?, _ remote: Entity?) -> Bool {
        switch (base, remote) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case (let base?, let remote?):
            if let version = self.remote.version, let a = version(base), let b = version(remote) { return a == b }
            return (try? Self.encode(base)) == (try? Self.encode(remote))
        }
    }
}
