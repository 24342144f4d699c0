import FetchKit
import Foundation
import Persistence

/// A sync that finds nothing new: its one page is read against the store, not written.
extension SyncedCollection {
    /// How long a pull that finds nothing may leave the stored date of the last pull as it is.
    static var quietPullRecording: TimeInterval { 60 }

    /// Starts reading the connection's `PRAGMA data_version` for a run that starts from where the
    /// last one ended (`end`), while the run's first page is requested.
    func quietCheck(since end: RunEnd) -> QuietCheck? {
        guard end.dataVersion != nil else { return nil }
        return QuietCheck(end: end, version: Task { try? await self.read { tx in try Self.dataVersion(in: tx) } })
    }

    /// The first page of a run that started from where the last run ended, when it is also the
    /// last and changes nothing, so that it needs no write transaction; `nil` when it must be
    /// applied.
    ///
    /// Nothing was committed since that run's last page when the connection's
    /// `PRAGMA data_version`, read as the run began, is the one that page's transaction read (any
    /// other connection's commit changes it, another process's included), and the stamp of this
    /// store's commits to the checkpoints and the outbox is still the one it left: the checkpoint
    /// and the outbox are as that page left them, with nothing to send. (What another process
    /// commits while the page is requested is seen by the next run, as a commit after the run
    /// would be.) The page then changes nothing when it deletes nothing, leaves the cursor where
    /// it is, and brings only records stored at their version or a newer one with no write of
    /// theirs in the outbox, which one read says. The pull's date is kept in memory for the
    /// status (``SyncStatus/lastPull``); the stored one is at most ``quietPullRecording`` old,
    /// after which (or when it is later than now: a clock set back) the page is applied to store
    /// it.
    func quietPage(
        _ page: ChangePage<Entity>, next: SyncCursor?, walk: SyncWalk?, _ target: PullTarget,
        expecting checkpoint: SyncCheckpoint, since check: QuietCheck
    ) async throws(SyncError) -> Applied? {
        let end = check.end
        guard page.deleted.isEmpty, !page.hasMore, page.storingRelated == nil, walk == nil, checkpoint.walk == nil,
            target.scope == nil, !isParentInGroup, let recorded = checkpoint.lastPull,
            (0..<Self.quietPullRecording).contains(Date().timeIntervalSince(recorded)),
            keepsCursor(checkpoint.cursor, next),
            end.stamp == syncTablesStamp
        else { return nil }
        guard let version = await check.version.value, version == end.dataVersion else { return nil }
        if !page.records.isEmpty {
            guard let stamp = remote.changes.version else { return nil }
            let records = page.records
            let outbox = outbox
            let unchanged = try await read { tx in
                guard try outbox.writes(ofPage: { records.map { $0.id } }, in: tx)?.isEmpty ?? true else {
                    return false
                }
                let stored = try Self.storedVersions(of: records, stamp, in: tx)
                return records.allSatisfy { record in
                    guard let incoming = stamp(record), let kept = stored[record.id.databaseValue.identityText] else {
                        return false
                    }
                    return incoming <= kept
                }
            }
            guard unchanged else { return nil }
        }
        // A commit of this store's contexts counted meanwhile: the page is applied after all.
        guard end.stamp == syncTablesStamp else { return nil }
        quietPull.withLock { $0 = Date() }
        var applied = Applied()
        applied.checkpoint = checkpoint
        applied.stamp = end.stamp
        applied.dataVersion = version
        return applied
    }

    /// Whether a page's transaction would leave the cursor at `current` given `next`: the same
    /// cursor, or a keyset position that does not follow it (a re-read overlap).
    private func keepsCursor(_ current: SyncCursor?, _ next: SyncCursor?) -> Bool {
        if current == next { return true }
        guard case .keyset = remote.changes.cursor, let current, let next else { return false }
        return !Self.precedes(current, next)
    }

    /// The versions the store holds of `records`, by identity (none for a record it lacks).
    static func storedVersions(
        of records: [Entity], _ version: (Entity) -> RecordVersion?, in tx: ObjectTransaction
    ) throws -> [String: RecordVersion] {
        var stored: [String: RecordVersion] = [:]
        for row in try tx.fetch(Query<Entity>(where: Entity.idField.isIn(records.map { $0.id }))) {
            stored[row.id.databaseValue.identityText] = version(row)
        }
        return stored
    }

    /// `PRAGMA data_version` of the transaction's connection.
    static func dataVersion(in tx: ObjectTransaction) throws -> Int64? {
        try tx.rows("PRAGMA data_version").first?[0].integerValue
    }
}

/// What the first page of a run that starts from where the last one ended is checked against
/// (``SyncedCollection/quietPage(_:next:walk:_:expecting:since:)``): that end, and the
/// connection's `PRAGMA data_version` as the run began.
struct QuietCheck: Sendable {
    let end: RunEnd
    let version: Task<Int64?, Never>
}
