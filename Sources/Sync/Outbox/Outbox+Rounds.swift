import Foundation
import Persistence

/// How writes leave: a round chosen in outbox order, put back unsent, or settled by its answers.
extension Outbox {
    /// Chooses a round: up to `size` writes in outbox order, the first of each record that is not
    /// `excluded`, has no refused or parked write, is of the collection's schema version, and
    /// (when `honouringBackoff`) is due; a record whose write waits on a related record's
    /// (`waitingOnRelations`) waits for a later round. Marks them sending (``PendingWrite/chosen()``,
    /// in one statement) and returns them so.
    func chooseRound(
        size: Int, excluding excluded: Set<String>, busy: Set<String>, honouringBackoff: Bool, now: Date,
        waitingOnRelations: ([PendingWrite]) throws -> Set<String>, in tx: ObjectTransaction
    ) throws -> [PendingWrite] {
        // A record's first write in order stands for the record: the ones behind it are skipped.
        var seen = excluded
        var chosen: [PendingWrite] = []
        var after = Int64.min
        // Windows of the outbox in order, until a round is full or the outbox ends.
        window: while chosen.count < size {
            let writes = try tx.fetch(
                PendingWrite.self, sql: OutboxTable.windowSQL, [.text(name), .integer(after), .integer(Int64(size))])
            guard let last = writes.last else { break }
            after = last.sequence
            var candidates: [PendingWrite] = []
            for write in writes {
                let first = seen.insert(write.recordID).inserted
                guard first, !busy.contains(write.key) else { continue }
                guard write.state == .pending || write.state == .sending else { continue }
                // A write of another schema version waits for its upgrade (see `firstOutdated`).
                guard write.schemaVersion == remote.schemaVersion else { continue }
                if honouringBackoff, let next = write.nextAttempt, next > now { continue }
                candidates.append(write)
            }
            // Records with a refused or parked write wait behind it: looked up for this window's
            // candidates only, by the index by record (a query of the states would read the whole
            // collection's outbox at every round).
            let refused = try recordsWithRefusedWrites(among: candidates.map(\.recordID), in: tx)
            let ready = candidates.filter { !refused.contains($0.recordID) }
            let waiting = try waitingOnRelations(ready)
            for write in ready where !waiting.contains(write.recordID) {
                chosen.append(write)
                if chosen.count == size { break window }
            }
            // A window shorter than asked for was the outbox's end.
            if writes.count < size { break }
        }
        if !chosen.isEmpty {
            // `PendingWrite.chosen()` for the whole round, in one statement.
            try tx.update(
                OutboxTable.these(chosen), set: [PendingWrite.state.set(.sending), PendingWrite.attempts += 1])
        }
        return chosen.map {
            var sent = $0
            sent.chosen()
            return sent
        }
    }

    /// The records among `records` with a refused or parked write.
    private func recordsWithRefusedWrites(among records: [String], in tx: ObjectTransaction) throws -> Set<String> {
        guard !records.isEmpty else { return [] }
        return Set(
            try tx.fetch(
                Query<PendingWrite>(
                    where: PendingWrite.collection == name && PendingWrite.recordID.isIn(records)
                        && PendingWrite.state.isIn([PendingWrite.State.rejected, .conflicted]))
            ).map(\.recordID))
    }

    /// Puts a chosen round that was not sent back as it was: pending, its attempt not counted
    /// (``PendingWrite/unchosen()`` for the whole round, in one statement).
    func unchoose(_ writes: [PendingWrite], in tx: ObjectTransaction) throws {
        guard !writes.isEmpty else { return }
        try tx.update(OutboxTable.these(writes), set: [PendingWrite.state.set(.pending), PendingWrite.attempts -= 1])
    }

    /// Applies a round's outcomes in one transaction: the round's records' writes are read in
    /// one query, the acknowledged ones deleted in one statement, the server's answers stored in
    /// place of the rows. Returns the records whose create the server acknowledged.
    @discardableResult
    func settle(
        _ round: [PendingWrite], _ outcomes: [SyncedCollection<Entity>.Outcome], in tx: ObjectTransaction
    ) throws -> [String] {
        var created: [String] = []
        let byRecord = try writes(ofRound: round, in: tx)
        var done: [PendingWrite] = []
        var answers: [Entity] = []
        for (sent, outcome) in zip(round, outcomes) {
            let writes = byRecord[sent.recordID] ?? []
            guard var write = writes.first(where: { $0.key == sent.key }) else { continue }
            let later = writes.filter { $0.sequence > write.sequence }
            switch outcome {
            case .acknowledged(var answer):
                done.append(write)
                if write.operation == .create { created.append(write.recordID) }
                // The server's answer, unless a pull saw a newer server version while the write was
                // on its way.
                if let known = answer, write.remote != nil, let seen = try write.remote(as: Entity.self),
                    let version = remote.changes.version, let a = version(known), let b = version(seen), b > a
                {
                    answer = seen
                }
                if !later.isEmpty {
                    // The writes behind are made again over it (or this write's record), and the
                    // row is the newest of them.
                    let base = try answer.map(Self.encode) ?? write.payload
                    if let newest = try rebase(later, onto: base, earlier: write.operation, in: tx) {
                        try tx.upsert(newest)
                    }
                    continue
                }
                // The server's record replaces the row.
                guard write.operation != .delete, let newest = answer else { continue }
                answers.append(newest)
            case .rejected(let reason):
                write.rejected(reason)
                try store(write, in: tx)
            case .retry(let error, let wait):
                // A 429 or 401 answers before the server applies anything: the write counts as
                // never sent, so a pull may rebase it.
                let status = error.fetchError?.statusCode
                write.failed(error.message, retryAfter: wait, applied: status != 429 && status != 401)
                try store(write, in: tx)
            case .unauthorized(let error):
                write.unauthorized(error.message)
                try store(write, in: tx)
            case .conflict(let remoteData):
                try met(remoteData, sending: &write, later: later, in: tx)
            case .outdated(let remoteData):
                try met(remoteData, sending: &write, later: later, in: tx)
            }
        }
        try remove(done, in: tx)
        for answer in answers { try storeRemote(answer, in: tx) }
        return created
    }

    /// Every write of a round's records, in order, by record: the sent ones as they are now (a
    /// pull may have kept a newer server version with them), and the ones queued behind.
    private func writes(ofRound round: [PendingWrite], in tx: ObjectTransaction) throws -> [String: [PendingWrite]] {
        let records = Array(Set(round.map(\.recordID)))
        let keys = round.map(\.key)
        guard try tx.count(OutboxTable.these(round)) == round.count else {
            // A write was discarded while it was sent: read what is left.
            return try OutboxTable.writes(of: records, in: name, tx)
        }
        // Only `remote` of a write in flight changes (a pull keeps the server's version with it):
        // the sent writes are read again only when it is set, with the writes queued behind them.
        var stored: [String: PendingWrite] = [:]
        for write in try tx.fetch(
            Query<PendingWrite>(
                where: PendingWrite.collection == name && PendingWrite.recordID.isIn(records)
                    && (PendingWrite.remoteVersion.isNotNil || !PendingWrite.key.isIn(keys))))
        {
            stored[write.key] = write
        }
        for write in round where stored[write.key] == nil { stored[write.key] = write }
        var byRecord: [String: [PendingWrite]] = [:]
        for write in stored.values.sorted(by: { $0.sequence < $1.sequence }) {
            byRecord[write.recordID, default: []].append(write)
        }
        return byRecord
    }
}
