import FetchKit
import Foundation
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Settling a round: its outcomes applied to the outbox and the rows in one transaction.
extension SyncedCollection {
    /// Applies a round's outcomes in one transaction: the round's records' writes are read in
    /// one query, the acknowledged ones deleted in one statement.
    func settle(_ round: [PendingWrite], _ outcomes: [Outcome]) async throws(SyncError) {
        let policy = conflicts
        let collection = remote.name
        let version = remote.version
        try await persist { tx in
            // Every write of the round's records, in order: the sent ones as they are now (a
            // pull may have kept a newer server version with them), and the ones queued behind.
            let records = Array(Set(round.map(\.recordID)))
            let ids = round.map(\.id)
            var byRecord: [String: [PendingWrite]] = [:]
            let present = try tx.count(Query<PendingWrite>(where: PendingWrite.key.isIn(ids)))
            if present == round.count {
                // Only `remote` of a write in flight changes (a pull keeps the server's version
                // with it): the sent writes are read again only when it is set, with the writes
                // queued behind them.
                var stored: [String: PendingWrite] = [:]
                for write in try tx.fetch(
                    Query<PendingWrite>(
                        where: PendingWrite.collection == collection && PendingWrite.recordID.isIn(records)
                            && (PendingWrite.remoteVersion.isNotNil || !PendingWrite.key.isIn(ids))))
                {
                    stored[write.id] = write
                }
                for write in round where stored[write.id] == nil { stored[write.id] = write }
                for write in stored.values.sorted(by: { $0.sequence < $1.sequence }) {
                    byRecord[write.recordID, default: []].append(write)
                }
            } else {
                // A write was discarded while it was sent: read what is left.
                for write in try tx.fetch(
                    Query<PendingWrite>(
                        where: PendingWrite.collection == collection && PendingWrite.recordID.isIn(records),
                        sortedBy: [PendingWrite.sequence.ascending()]))
                {
                    byRecord[write.recordID, default: []].append(write)
                }
            }
            var done: [String] = []
            var answers: [Entity] = []
            for (sent, outcome) in zip(round, outcomes) {
                let writes = byRecord[sent.recordID] ?? []
                guard var write = writes.first(where: { $0.id == sent.id }) else { continue }
                switch outcome {
                case .acknowledged(let answer):
                    done.append(write.id)
                    let later = writes.filter { !done.contains($0.id) }
                    if !later.isEmpty {
                        let base = try answer.map(Self.encode) ?? write.payload
                        for var next in later where next.state != .sending {
                            next.rebased(onto: base, earlier: write.operation)
                            try tx.update(next)
                        }
                        // The row learns its server identity now, whatever the later writes' answers carry.
                        if let key = self.remote.serverID, let answer, let known = answer[keyPath: key],
                            var row = try tx.fetch(Entity.self, id: answer.id), row[keyPath: key] == nil
                        {
                            row[keyPath: key] = known
                            try tx.update(row)
                        }
                        continue
                    }
                    guard write.operation != .delete, var newest = answer else { continue }
                    // The server's answer replaces the row, unless a pull saw a newer server version
                    // while the write was on its way.
                    if write.remote != nil, let seen = try write.remote(as: Entity.self), let version,
                        let a = version(newest), let b = version(seen), b > a
                    {
                        newest = seen
                    }
                    answers.append(newest)
                case .rejected(let reason):
                    write.rejected(reason)
                    try tx.update(write)
                case .retry(let error, let wait):
                    // A 429 or 401 answers before the server applies anything: the write counts as
                    // never sent, so a pull may rebase it.
                    let status = error.fetchError?.statusCode
                    write.failed(error.message, retryAfter: wait, applied: status != 429 && status != 401)
                    try tx.update(write)
                case .unauthorized(let error):
                    write.unauthorized(error.message)
                    try tx.update(write)
                case .conflict(let remoteData):
                    try self.settleConflict(&write, remote: remoteData, policy: policy, in: tx)
                }
            }
            if !done.isEmpty { _ = try tx.delete(Query<PendingWrite>(where: PendingWrite.key.isIn(done))) }
            for answer in answers { try self.storeRemote(answer, in: tx) }
        }
    }

    /// Resolves a conflict found while sending.
    func settleConflict(
        _ write: inout PendingWrite, remote remoteData: Data?, policy: ConflictPolicy<Entity>, in tx: ObjectTransaction
    ) throws {
        let record = try remoteData.map { try SyncJSON.decode(Entity.self, from: $0) }
        let identity = try SyncJSON.decode(Entity.ID.self, from: write.identity)
        let conflict = Conflict(
            base: try write.base(as: Entity.self), local: try write.local(as: Entity.self), remote: record)
        switch policy.resolve(conflict) {
        case .keepRemote:
            for pending in try writes(of: write.recordID, in: tx) { _ = try tx.delete(pending) }
            if let record { try storeRemote(record, in: tx) } else { _ = try tx.delete(Entity.self, id: identity) }
        case .keepLocal:
            if record == nil, write.operation == .delete {
                _ = try tx.delete(write)
                return
            }
            try write.take(in: tx) { $0.requeued(base: remoteData, exists: record != nil, key: Self.newKey()) }
        case .use(let merged):
            try tx.upsert(merged)
            let payload = try Self.encode(merged)
            try write.take(in: tx) {
                $0.requeued(base: remoteData, exists: record != nil, payload: payload, key: Self.newKey())
            }
        case .park:
            write.conflicted(remote: remoteData)
            try tx.update(write)
        }
    }
}
