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
        /// The server's record changed since the base (or is gone: `nil`).
        case conflict(Data?)
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
        _ report: inout SyncReport, honouringBackoff: Bool, held: inout Set<String>, waiting known: Bool? = nil
    ) async throws(SyncError) -> SyncError? {
        let collection = remote.name
        var failure: SyncError?
        // The writes of rounds chosen and not yet settled, and the settling of the last round.
        var busy = Set<String>()
        var busyRecords = Set<String>()
        var settling: Task<SyncError?, Never>?
        var settlingRound: [PendingWrite] = []
        let batches = BatchRefusal()
        func finishSettling() async throws(SyncError) {
            guard let task = settling else { return }
            settling = nil
            let error = await task.value
            for write in settlingRound {
                busy.remove(write.id)
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
            waiting = try await read { tx in try tx.exists(PendingWrite.unsent(in: collection)) }
        }
        if waiting, let outdated = try await outdatedWrite() { failure = outdated }
        var round =
            waiting
            ? try await chooseRound(
                excluding: held, busy: busy, honouringBackoff: honouringBackoff, collection: collection)
            : []
        while !round.isEmpty {
            for write in round {
                busy.insert(write.id)
                busyRecords.insert(write.recordID)
            }
            // The round is sent while the next one is chosen.
            async let sent = sendAll(round, batches: batches)
            let next: [PendingWrite]
            do {
                next = try await chooseRound(
                    excluding: held.union(busyRecords), busy: busy, honouringBackoff: honouringBackoff,
                    collection: collection)
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
                    excluding: held, busy: busy, honouringBackoff: honouringBackoff, collection: collection)
            }
        }
        try await finishSettling()
        // An outbox found empty has nothing to date: `lastPush` is when a push last emptied it.
        guard waiting else { return failure }
        try await persist { tx in
            if try tx.count(PendingWrite.unsent(in: collection)) == 0 {
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
        excluding excluded: Set<String>, busy: Set<String>, honouringBackoff: Bool, collection: String
    ) async throws(SyncError) -> [PendingWrite] {
        let now = Date()
        let size = Self.roundSize
        let schemaVersion = remote.schemaVersion
        return try await persist { tx in
            // Records with a refused or parked write wait behind it.
            var seen = Set(
                try tx.fetch(
                    Query<PendingWrite>(
                        where: PendingWrite.collection == collection
                            && PendingWrite.state.isIn([PendingWrite.State.rejected, .conflicted]))
                ).map(\.recordID)
            ).union(excluded)
            var chosen: [PendingWrite] = []
            var after = Int64.min
            // Windows of the outbox in order, until a round is full or the outbox ends.
            window: while chosen.count < size {
                var filter = PendingWrite.collection == collection && PendingWrite.sequence > after
                if !busy.isEmpty { filter = filter && !PendingWrite.key.isIn(Array(busy)) }
                let writes = try tx.fetch(
                    Query<PendingWrite>(where: filter, sortedBy: [PendingWrite.sequence.ascending()], limit: size))
                guard let last = writes.last else { break }
                after = last.sequence
                var candidates: [PendingWrite] = []
                for write in writes {
                    let first = seen.insert(write.recordID).inserted
                    guard first, !busy.contains(write.id) else { continue }
                    guard write.state == .pending || write.state == .sending else { continue }
                    // A write of another schema version waits for its upgrade (see `outdatedWrite()`).
                    guard write.schemaVersion == schemaVersion else { continue }
                    if honouringBackoff, let next = write.nextAttempt, next > now { continue }
                    candidates.append(write)
                }
                // A record whose write waits on a related record's (its parent's create, its
                // children's writes before its delete) waits for a later round, with its later writes.
                let waiting = try self.waitingOnRelations(candidates, in: tx)
                for write in candidates where !waiting.contains(write.recordID) {
                    chosen.append(write)
                    if chosen.count == size { break window }
                }
            }
            if !chosen.isEmpty {
                // `PendingWrite.chosen()` for the whole round, in one statement.
                try tx.update(
                    Query<PendingWrite>(where: PendingWrite.key.isIn(chosen.map(\.id))),
                    set: [PendingWrite.state.set(.sending), PendingWrite.attempts += 1])
            }
            return chosen.map {
                var sent = $0
                sent.chosen()
                return sent
            }
        }
    }

    /// The error of the first unsent write queued under another schema version than the
    /// collection's (an app upgraded without upgrading its outbox, or an older app opening a
    /// newer outbox): such writes wait, unsent and kept, with the writes behind them, until a
    /// migration upgrades them (``PendingWrite/upgrade(collection:from:in:_:)``).
    func outdatedWrite() async throws(SyncError) -> SyncError? {
        let collection = remote.name
        let version = remote.schemaVersion
        guard
            let write = try await read({ tx in
                try tx.first(
                    Query<PendingWrite>(
                        where: PendingWrite.collection == collection && PendingWrite.schemaVersionField != version
                            && PendingWrite.state.isIn([PendingWrite.State.pending, .sending]),
                        sortedBy: [PendingWrite.sequence.ascending()]))
            })
        else { return nil }
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

    /// Puts a chosen round that was not sent back as it was: pending, its attempt not counted.
    func unchoose(_ writes: [PendingWrite]) async throws(SyncError) {
        guard !writes.isEmpty else { return }
        let ids = writes.map(\.id)
        _ = try await persist { tx in
            // `PendingWrite.unchosen()` for the whole round, in one statement.
            try tx.update(
                Query<PendingWrite>(where: PendingWrite.key.isIn(ids)),
                set: [PendingWrite.state.set(.pending), PendingWrite.attempts -= 1])
        }
    }

    /// The most writes a round sends between its choice and its settling.
    static var roundSize: Int { 64 }
}
