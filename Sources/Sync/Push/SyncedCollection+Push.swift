import FetchKit
import Foundation
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Pushing: the outbox sent in rounds, each chosen, sent and settled in its own transactions.
extension SyncedCollection {
    /// What became of one send.
    enum Outcome: Sendable {
        /// The server applied the write; its record, when the answer carried one.
        case acknowledged(Entity?)
        /// The server refused the write for good.
        case rejected(String)
        /// The send failed on the way; try again after the wait.
        case retry(SyncError, Duration)
        /// The server refused the credentials: the queue waits.
        case unauthorized(SyncError)
        /// The server's record changed since the base (or is gone: `nil`) where the write changed
        /// it too: a conflict for the policy.
        case conflict(Data?)
        /// The server's record changed since the base, in properties the write leaves alone: the
        /// write is made again over it and sent (no conflict).
        case outdated(Data)
    }

    /// Sends the outbox in rounds: each round marks up to 64 writes (one per record) as
    /// sending in one transaction, sends them `concurrency` at a time, and applies their answers
    /// in one transaction. Rounds overlap: the next round is chosen while one is sent, and a
    /// round is settled while the next is sent; a record stays out of later rounds until its
    /// write is settled. Returns the first failure that left a write queued; throws when the
    /// store fails. `held` collects the records whose write failed in this run: their writes
    /// wait for the next run. `known` is whether the outbox holds a write to send, when the
    /// run already read it.
    func push(
        _ report: inout SyncReport, honouringBackoff: Bool, held: inout Set<String>, waiting known: Bool?
    ) async throws(SyncError) -> SyncError? {
        let collection = remote.name
        var failure: SyncError?
        // The writes of rounds chosen and not yet settled, and the settling of the last round.
        var busy = Set<String>()
        var busyRecords = Set<String>()
        var settling: Task<SyncError?, Never>?
        var settlingRound: [PendingWrite] = []
        let batches = BatchRefusal()
        // A write made again over a record that moved on (`outdated`) is sent again in this push,
        // once more at most: a server whose record keeps moving (or whose tags never match) waits
        // for the next run instead of a loop.
        var outdated: [String: Int] = [:]
        func finishSettling() async throws(SyncError) {
            guard let task = settling else { return }
            settling = nil
            let error = await task.value
            for write in settlingRound {
                busy.remove(write.key)
                busyRecords.remove(write.recordID)
            }
            settlingRound = []
            if let error { throw error }
        }
        // An outbox with nothing to send (the common run) is seen in a read, not a write.
        let waiting: Bool
        if let known {
            waiting = known
        } else {
            let outbox = outbox
            waiting = try await read { tx in try outbox.hasUnsent(in: tx) }
        }
        if waiting, let outdated = try await outdatedWrite() { failure = outdated }
        var round =
            waiting
            ? try await chooseRound(
                excluding: held, busy: busy, honouringBackoff: honouringBackoff)
            : []
        while !round.isEmpty {
            for write in round {
                busy.insert(write.key)
                busyRecords.insert(write.recordID)
            }
            // The round is sent while the next one is chosen.
            async let sent = sendAll(round, batches: batches)
            let next: [PendingWrite]
            do {
                next = try await chooseRound(
                    excluding: held.union(busyRecords), busy: busy, honouringBackoff: honouringBackoff)
            } catch {
                _ = await sent
                try await finishSettling()
                throw error
            }
            let outcomes = await sent
            var stop = false
            for (write, outcome) in zip(round, outcomes) {
                switch outcome {
                case .acknowledged: report.writesSent += 1
                case .rejected: report.writesRejected += 1
                case .conflict: report.conflicts += 1
                case .outdated:
                    outdated[write.recordID, default: 0] += 1
                    if outdated[write.recordID, default: 0] > 1 { held.insert(write.recordID) }
                case .retry(let error, _):
                    failure = failure ?? error
                    held.insert(write.recordID)
                case .unauthorized(let error):
                    failure = failure ?? error
                    stop = true
                }
            }
            // The last round's settling ends before this one's begins (their order in the store).
            try await finishSettling()
            let settled = round
            settlingRound = round
            settling = Task { [self] in
                do throws(SyncError) {
                    try await settle(settled, outcomes)
                    return nil
                } catch {
                    return error
                }
            }
            if stop {
                // The credentials were refused: the round chosen next goes back unsent.
                try await unchoose(next)
                break
            }
            // A record whose write failed waits for the next run, with the writes behind it.
            let waiting = next.filter { held.contains($0.recordID) }
            if !waiting.isEmpty { try await unchoose(waiting) }
            round = next.filter { !held.contains($0.recordID) }
            if round.isEmpty, !next.isEmpty || settling != nil {
                // The next round may be waiting on records the settling frees.
                try await finishSettling()
                round = try await chooseRound(
                    excluding: held, busy: busy, honouringBackoff: honouringBackoff)
            }
        }
        try await finishSettling()
        // An outbox found empty has nothing to date: `lastPush` is when a push last emptied it.
        guard waiting else { return failure }
        let outbox = outbox
        try await persist { tx in
            if try !outbox.hasUnsent(in: tx) {
                var checkpoint = try Self.checkpoint(collection, in: tx)
                checkpoint.lastPush = Date()
                try tx.upsert(checkpoint)
            }
        }
        return failure
    }

    /// Chooses a round: up to 64 writes in outbox order, the first of each record that is not
    /// `excluded`, has no refused or parked write, and (when `honouringBackoff`) is due; marks
    /// them sending and counts the attempt, in one transaction. Writes in `busy` are in an
    /// earlier round not yet settled.
    func chooseRound(
        excluding excluded: Set<String>, busy: Set<String>, honouringBackoff: Bool
    ) async throws(SyncError) -> [PendingWrite] {
        let outbox = outbox
        let now = Date()
        return try await persist { tx in
            try outbox.chooseRound(
                size: Self.roundSize, excluding: excluded, busy: busy, honouringBackoff: honouringBackoff, now: now,
                waitingOnRelations: { try self.waitingOnRelations($0, in: tx) }, in: tx)
        }
    }

    /// The error of the first unsent write queued under another schema version than the
    /// collection's (an app upgraded without upgrading its outbox, or an older app opening a
    /// newer outbox): such writes wait, unsent and kept, with the writes behind them, until a
    /// migration upgrades them (``PendingWrite/upgrade(collection:from:in:_:)``).
    func outdatedWrite() async throws(SyncError) -> SyncError? {
        let collection = remote.name
        let version = remote.schemaVersion
        let outbox = outbox
        guard let write = try await read({ tx in try outbox.firstOutdated(in: tx) }) else { return nil }
        let how =
            write.schemaVersion < version
            ? "upgrade it in the migration that changed the entity: PendingWrite.upgrade(collection: \"\(collection)\", "
                + "from: \(write.schemaVersion), in: tx) { record in … } (for each version up to \(version))"
            : "it was written by a newer version of the app; it is sent once that version runs again"
        return SyncError(
            .undecodableWrite, collection: collection, record: write.recordID,
            "The write of \(collection)/\(write.recordID) was queued under schema version \(write.schemaVersion), and the "
                + "collection is at version \(version): it waits, unsent and kept, with the writes behind it; \(how).")
    }

    /// Applies a round's outcomes to the outbox and the rows, in one transaction. In a collection
    /// pulled by scopes, a record this device created is left over once the server has it: the
    /// end of the next scoped pull keeps it when a scope lists it, and lets it go when none does
    /// (it was created outside every scope, or its scope moved while it waited).
    func settle(_ round: [PendingWrite], _ outcomes: [Outcome]) async throws(SyncError) {
        let outbox = outbox
        let name = remote.name
        try await persist { tx in
            let created = try outbox.settle(round, outcomes, in: tx)
            guard !created.isEmpty, try Self.checkpoint(name, in: tx).scoped == true else { return }
            for record in created {
                try tx.upsert(SyncScopeMember(collection: name, scope: Self.leftoverKey(name), recordID: record))
            }
        }
        if !remote.files.names.isEmpty { await keepUploadedFiles(round, outcomes) }
    }

    /// Puts a chosen round that was not sent back as it was: pending, its attempt not counted.
    func unchoose(_ writes: [PendingWrite]) async throws(SyncError) {
        guard !writes.isEmpty else { return }
        let outbox = outbox
        try await persist { tx in try outbox.unchoose(writes, in: tx) }
    }

    /// The most writes a round sends between its choice and its settling.
    static var roundSize: Int { 64 }
}
