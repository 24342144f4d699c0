import FetchKit
import Foundation
import Persistence

/// The app's decisions about writes the server refused or that conflicted, and a reset of the
/// pull's cursor.
extension SyncedCollection {
    /// Sends a rejected write again (with a new idempotency key: the server may replay its
    /// refusal for the old one).
    ///
    /// - Parameter write: a rejected or conflicted write of this collection.
    /// - Throws: ``SyncError`` or `PersistenceError`.
    public func retry(_ write: PendingWrite) async throws {
        try await store.context.persist { tx in
            tx.allowWrites(to: Entity.self)
            guard var current = try tx.fetch(PendingWrite.self, id: write.id) else { return }
            try current.take(in: tx) { $0.retried(key: Self.newKey()) }
        }
        await engine.localWrite()
    }

    /// Drops a write the server refused or that conflicted, and puts the record back as the
    /// server last had it (its base): a discarded create removes the row, a discarded delete
    /// restores it.
    ///
    /// - Parameter write: a write of this collection.
    /// - Throws: ``SyncError`` when the base does not decode; `PersistenceError`.
    public func discard(_ write: PendingWrite) async throws {
        let collection = remote.name
        try await store.context.persist { tx in
            tx.allowWrites(to: Entity.self)
            guard let current = try tx.fetch(PendingWrite.self, id: write.id), current.collection == collection else {
                return
            }
            let later = try tx.count(
                Query<PendingWrite>(
                    where: PendingWrite.collection == collection && PendingWrite.recordID == current.recordID
                        && PendingWrite.sequence > current.sequence))
            _ = try tx.delete(current)
            guard later == 0 else { return }
            let identity = try SyncJSON.decode(Entity.ID.self, from: current.identity)
            if let base = try current.base(as: Entity.self) {
                try tx.upsert(base)
            } else {
                _ = try tx.delete(Entity.self, id: identity)
            }
        }
        await engine.refreshCounts()
    }

    /// Resolves a parked conflict (``PendingWrite/State-swift.enum/conflicted``).
    ///
    /// - Parameters:
    ///   - write: the conflicted write.
    ///   - resolution: ``Resolution/keepRemote`` applies the server's version and drops the
    ///     write; ``Resolution/keepLocal`` sends the local change over it;
    ///     ``Resolution/use(_:)`` writes and sends a record of your own (a merge).
    /// - Throws: ``SyncError`` or `PersistenceError`.
    public func resolve(_ write: PendingWrite, with resolution: Resolution<Entity>) async throws {
        try await store.context.persist { tx in
            tx.allowWrites(to: Entity.self)
            guard var current = try tx.fetch(PendingWrite.self, id: write.id), current.state == .conflicted else {
                return
            }
            let remoteRecord = try current.remote(as: Entity.self)
            let identity = try SyncJSON.decode(Entity.ID.self, from: current.identity)
            switch resolution {
            case .park:
                return
            case .keepRemote:
                _ = try tx.delete(current)
                if let remoteRecord {
                    try tx.upsert(remoteRecord)
                } else {
                    _ = try tx.delete(Entity.self, id: identity)
                }
            case .keepLocal, .use:
                var merged: Data?
                if case .use(let record) = resolution {
                    merged = try Self.encode(record)
                    try tx.upsert(record)
                }
                if remoteRecord == nil, current.operation == .delete, merged == nil {
                    // Deleted on both sides: nothing is left to send.
                    _ = try tx.delete(current)
                    return
                }
                try current.take(in: tx) {
                    $0.requeued(base: $0.remote, exists: remoteRecord != nil, payload: merged, key: Self.newKey())
                }
            }
        }
        await engine.localWrite()
    }

    /// Forgets where the collection's pulls are: the next ``sync()`` reads the whole collection
    /// again from the start (a full resync), applies every record, and prunes the rows the server
    /// no longer lists. Unsent writes, and the rows they change, are kept.
    ///
    /// A rejected cursor needs no call: the collection resyncs by itself, and a resync whose own
    /// cursor expires starts again on the next run. Reset after the server was restored from a
    /// backup, or when the rows should be checked against the server whole. A collection pulled
    /// by scopes (``scope(to:)``) reads each scope again. A run in progress ends first.
    ///
    /// - Throws: ``SyncError`` when the store fails.
    public func resetCursor() async throws(SyncError) {
        await (group?.engine ?? engine).idle()
        let kind: SyncWalk.Kind = remote.cursor == .snapshot ? .snapshot : .resync
        // A collection pulled by scopes resets each scope's cursor.
        let targets = try await scopeTargets() ?? [whole]
        for target in targets {
            let key = target.key
            _ = try await beginWalk(kind, of: target)
            try await persist { tx in
                var checkpoint = try Self.checkpoint(key, in: tx)
                checkpoint.cursor = nil
                try tx.upsert(checkpoint)
            }
        }
    }
}
