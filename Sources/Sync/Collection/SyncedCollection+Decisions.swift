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
        let outbox = outbox
        try await store.context.persist { tx in
            tx.allowWrites(to: Entity.self)
            try outbox.retry(write, in: tx)
        }
        await engine.localWrite()
    }

    /// Drops a write the server refused or that conflicted, and puts the record back as the
    /// server last had it (its base, with the fields only this device keeps,
    /// ``RemoteCollection/keeping``) when no later write of it waits: a discarded create removes
    /// the row, a discarded delete restores it.
    ///
    /// - Parameter write: a write of this collection.
    /// - Throws: ``SyncError`` when the base does not decode; `PersistenceError`.
    public func discard(_ write: PendingWrite) async throws {
        let outbox = outbox
        try await store.context.persist { tx in
            tx.allowWrites(to: Entity.self)
            try outbox.discard(write, in: tx)
        }
        await engine.refreshCounts()
    }

    /// Resolves a parked conflict (``PendingWrite/State-swift.enum/conflicted``), as the
    /// collection's policy would have: the same resolutions, applied the same way.
    ///
    /// - Parameters:
    ///   - write: the conflicted write.
    ///   - resolution: ``Resolution/keepRemote`` takes the server's values of the competing
    ///     properties (the row keeps its local-only fields, ``RemoteCollection/keeping``, and the
    ///     local changes to other properties are still sent); ``Resolution/keepLocal`` sends the
    ///     local values over them; ``Resolution/use(_:)`` writes and sends a record of your own.
    /// - Throws: ``SyncError`` or `PersistenceError`.
    public func resolve(_ write: PendingWrite, with resolution: Resolution<Entity>) async throws {
        let outbox = outbox
        try await store.context.persist { tx in
            tx.allowWrites(to: Entity.self)
            try outbox.resolve(write, with: resolution, in: tx)
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
        await (group?.runner ?? runner).idle()
        try await persist { tx in try self.restartPulls(in: tx) }
    }

    /// Starts the collection's pulls over in `tx`, as ``resetCursor()`` does (an account's sign-out
    /// that keeps the unsent writes does it in its own transaction): a full resync of the
    /// collection, or of each scope it is pulled by.
    func restartPulls(in tx: ObjectTransaction) throws {
        let kind: SyncWalk.Kind = remote.changes.cursor == .snapshot ? .snapshot : .resync
        let first: SyncCursor? = remote.changes.cursor == .snapshot ? .page(1) : nil
        let targets = try Self.scopeCheckpoints(of: remote.name, in: tx) ?? [try Self.checkpoint(remote.name, in: tx)]
        for var checkpoint in targets {
            try Self.begin(kind, first: first, on: &checkpoint, in: tx)
            checkpoint.cursor = nil
            try tx.upsert(checkpoint)
        }
    }
}
