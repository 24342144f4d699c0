import FetchKit
import Foundation
import Locking
import Persistence

extension Mirror {
    /// What became of one send.
    enum Outcome: Sendable {
        /// The server applied the write; its record, when the answer carried one.
        case acknowledged(Data?)
        /// The server refused the write for good.
        case rejected(String)
        /// The send failed on the way; try again after the wait.
        case retry(SyncError, Duration)
        /// The server refused the credentials: the queue waits.
        case unauthorized(SyncError)
        /// The server's record changed since the base (or is gone: `nil`).
        case conflict(Data?)
        /// Dropped (a weakened harness run only).
        case dropped
    }

    /// Sends the outbox in rounds: each round marks up to 64 writes (one per record) as
    /// sending in one transaction, sends them `concurrency` at a time, and applies their answers
    /// in one transaction. Returns the first failure that left a write queued; throws when the
    /// store fails. `held` collects the records whose write failed in this run: their writes
    /// wait for the next run.
    func push(
        _ report: inout SyncReport, honouringBackoff: Bool, held: inout Set<String>
    ) async throws(SyncError) -> SyncError? {
        let collection = remote.name
        let perRecord = !SyncTestHooks.weakened(.concurrentPerRecord)
        var failure: SyncError?
        while true {
            let now = Date()
            let excluded = held
            let round: [PendingWrite] = try await persist { tx in
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
                window: while chosen.count < 64 {
                    let writes = try tx.fetch(
                        Query<PendingWrite>(
                            where: PendingWrite.collection == collection && PendingWrite.sequence > after,
                            sortedBy: [PendingWrite.sequence.ascending()], limit: 256))
                    guard let last = writes.last else { break }
                    after = last.sequence
                    for write in writes {
                        let first = seen.insert(write.recordID).inserted
                        guard first || !perRecord else { continue }
                        guard write.state == .pending || write.state == .sending else { continue }
                        if honouringBackoff, let next = write.nextAttempt, next > now { continue }
                        chosen.append(write)
                        if chosen.count == 64 { break window }
                    }
                }
                for var write in chosen {
                    write.state = .sending
                    write.attempts += 1
                    try tx.update(write)
                }
                return chosen.map {
                    var sent = $0
                    sent.attempts += 1
                    return sent
                }
            }
            guard !round.isEmpty else { break }
            let outcomes = await sendAll(round)
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
                case .dropped: break
                }
            }
            try await settle(round, outcomes)
            if stop { break }
        }
        try await persist { tx in
            let left = try tx.count(
                Query<PendingWrite>(
                    where: PendingWrite.collection == collection
                        && PendingWrite.state.isIn([PendingWrite.State.pending, .sending])))
            if left == 0 {
                var checkpoint = try Self.checkpoint(collection, in: tx)
                checkpoint.lastPush = Date()
                try tx.upsert(checkpoint)
            }
        }
        return failure
    }

    /// Sends a round, `concurrency` at a time; the outcomes in the round's order.
    private func sendAll(_ round: [PendingWrite]) async -> [Outcome] {
        await withTaskGroup(of: (Int, Outcome).self) { group in
            var outcomes = [Outcome?](repeating: nil, count: round.count)
            var next = 0
            func add() {
                let index = next
                let write = round[index]
                group.addTask { (index, await self.deliver(write)) }
                next += 1
            }
            while next < min(concurrency, round.count) { add() }
            while let (index, outcome) = await group.next() {
                outcomes[index] = outcome
                if next < round.count { add() }
            }
            return outcomes.map { $0 ?? .dropped }
        }
    }

    /// The reason of a write left in the outbox by a description that since lost its request.
    static func noRequest(_ property: String, _ collection: String) -> String {
        "\(collection) has no \(property) request any more (RemoteCollection.\(property) is nil)."
    }

    /// Sends one write and says what became of it.
    func deliver(_ write: PendingWrite) async -> Outcome {
        let key = SyncTestHooks.weakened(.freshKeyPerAttempt) ? Self.newKey() : write.id
        var headers: [String: String] = [:]
        if let header = remote.idempotencyKeyHeader { headers[header] = key }
        let endpoint: any Endpoint
        do {
            switch write.operation {
            case .create:
                guard let local = try write.local(as: Entity.self) else {
                    return .rejected("The create has no record.")
                }
                guard let create = remote.create else { return .rejected(Self.noRequest("create", remote.name)) }
                endpoint = create(local)
            case .update:
                guard let local = try write.local(as: Entity.self) else {
                    return .rejected("The update has no record.")
                }
                let base = try write.base(as: Entity.self)
                switch remote.conflictCheck.kind {
                case .none: break
                case .ifMatch(let tag):
                    if let base, let tag = tag(base) { headers["If-Match"] = tag }
                case .readBeforeWrite:
                    if let read = remote.read, base != nil {
                        let identity = try JSONDecoder().decode(Entity.ID.self, from: write.identity)
                        switch await current(read(identity), record: write.recordID) {
                        case .found(let record):
                            if !sameVersion(base, record) {
                                if appliedBefore(write, local: local, base: base, remote: record) {
                                    return .acknowledged(try Self.encode(record))
                                }
                                return .conflict(try Self.encode(record))
                            }
                        case .missing: return .conflict(nil)
                        case .failed(let outcome): return outcome
                        }
                    }
                }
                guard let update = remote.update else { return .rejected(Self.noRequest("update", remote.name)) }
                endpoint = update(local, base)
            case .delete:
                guard let delete = remote.delete else { return .rejected(Self.noRequest("delete", remote.name)) }
                endpoint = delete(try JSONDecoder().decode(Entity.ID.self, from: write.identity))
            }
        } catch let error as SyncError {
            return .rejected(error.message)
        } catch {
            return .rejected("The pending write of \(remote.name)/\(write.recordID) does not decode: \(error)")
        }
        SyncTestHooks.reach(.beforeSend)
        do {
            let exchange = try await self.exchange(endpoint, headers: headers)
            SyncTestHooks.reach(.afterResponse)
            return .acknowledged(remote.written(exchange.data, exchange.response).flatMap { try? Self.encode($0) })
        } catch {
            return await failed(write, error)
        }
    }

    /// What a failed send means.
    private func failed(_ write: PendingWrite, _ error: FetchError) async -> Outcome {
        let status = error.statusCode
        switch write.operation {
        case .create where remote.isAlreadyExisting(error):
            // A create the server applied before (a retry after a lost answer): confirm it.
            guard let read = remote.read,
                let identity = try? JSONDecoder().decode(Entity.ID.self, from: write.identity)
            else { return .acknowledged(nil) }
            switch await current(read(identity), record: write.recordID) {
            case .found(let record): return .acknowledged(try? Self.encode(record))
            case .missing:
                return .rejected("The server says \(remote.name)/\(write.recordID) exists but cannot read it.")
            case .failed(let outcome): return outcome
            }
        case .delete where status == 404:
            return .acknowledged(nil)
        case .update where status == 404:
            return .conflict(nil)
        default:
            break
        }
        if status == 412 {
            guard let read = remote.read,
                let identity = try? JSONDecoder().decode(Entity.ID.self, from: write.identity)
            else { return .conflict(nil) }
            switch await current(read(identity), record: write.recordID) {
            case .found(let record):
                if write.operation == .update, let local = try? write.local(as: Entity.self),
                    appliedBefore(write, local: local, base: try? write.base(as: Entity.self), remote: record)
                {
                    return .acknowledged(try? Self.encode(record))
                }
                return .conflict(try? Self.encode(record))
            case .missing: return .conflict(nil)
            case .failed(let outcome): return outcome
            }
        }
        return classify(error, record: write.recordID, attempts: write.attempts)
    }

    /// Whether an update sent before, whose answer was lost, is what changed the server's
    /// record since its base: every property the update changes already has its value there.
    /// The retry is then acknowledged, not sent again as a conflict's winner (the server without
    /// idempotency keys would apply it twice; the one with them would see a new key).
    ///
    /// Another client that made the very same change in between is taken for this write: the
    /// record ends the same either way.
    func appliedBefore(_ write: PendingWrite, local: Entity, base: Entity?, remote record: Entity) -> Bool {
        guard write.attempts > 1, let base else { return false }
        return FieldMerge.holdsChanges(of: local, since: base, record, version: remote.version)
    }

    /// A failure that is not about the record: retry, wait for credentials, or reject.
    func classify(_ error: FetchError, record: String, attempts: Int) -> Outcome {
        let failure = requestError(error, record: record)
        let status = error.statusCode ?? 0
        if failure.code == .unauthorized {
            if SyncTestHooks.weakened(.rejectUnauthorized) { return .rejected(failure.message) }
            return .unauthorized(failure)
        }
        let transient =
            client.configuration.retryPolicy.isRetryable(error) || [408, 425, 429].contains(status)
            || (500..<600).contains(status) || error.code == .connectionLost || error.code == .timedOut
            || error.code == .transportFailed || error.code == .cancelled
        if transient {
            if SyncTestHooks.weakened(.dropFailedWrites) { return .dropped }
            let wait = error.retryAfter ?? client.configuration.retryPolicy.backoff(beforeRetry: max(1, attempts))
            return .retry(failure, wait)
        }
        let reason =
            error.reportedFailure?.message ?? error.bodyExcerpt.map { "HTTP \(status): \($0)" }
            ?? "HTTP \(status) (\(error.code))"
        return .rejected(reason)
    }

    enum Current: Sendable {
        case found(Entity)
        case missing
        case failed(Outcome)
    }

    /// Reads the server's record.
    private func current(_ endpoint: any Endpoint, record: String) async -> Current {
        do {
            let exchange = try await self.exchange(endpoint)
            guard let entity = remote.written(exchange.data, exchange.response) else {
                return .failed(.rejected("The server's record \(remote.name)/\(record) does not decode."))
            }
            return .found(entity)
        } catch {
            if error.statusCode == 404 { return .missing }
            return .failed(classify(error, record: record, attempts: 1))
        }
    }

    /// Applies a round's outcomes in one transaction.
    private func settle(_ round: [PendingWrite], _ outcomes: [Outcome]) async throws(SyncError) {
        let policy = conflicts
        let collection = remote.name
        let version = remote.version
        try await persist { tx in
            for (sent, outcome) in zip(round, outcomes) {
                guard var write = try tx.fetch(PendingWrite.self, id: sent.id) else { continue }
                switch outcome {
                case .acknowledged(let answer):
                    _ = try tx.delete(write)
                    let later = try tx.fetch(
                        Query<PendingWrite>(
                            where: PendingWrite.collection == collection && PendingWrite.recordID == write.recordID,
                            sortedBy: [PendingWrite.sequence.ascending()]))
                    if !later.isEmpty {
                        for var next in later where next.state != .sending {
                            next.base = answer ?? write.payload
                            if next.operation == .create, write.operation != .delete { next.operation = .update }
                            try tx.update(next)
                        }
                        continue
                    }
                    guard write.operation != .delete else { continue }
                    // The server's answer replaces the row, unless a pull saw a newer server version
                    // while the write was on its way.
                    var newest = try answer.map { try JSONDecoder().decode(Entity.self, from: $0) }
                    if let answered = newest, let seen = try write.remote(as: Entity.self), let version,
                        let a = version(answered), let b = version(seen), b > a
                    {
                        newest = seen
                    }
                    if let newest { try self.storeRemote(newest, in: tx) }
                case .rejected(let reason):
                    write.state = .rejected
                    write.reason = reason
                    write.nextAttempt = nil
                    try tx.update(write)
                case .retry(let error, let wait):
                    // A 429 or 401 answers before the server applies anything: the write counts as
                    // never sent, so a pull may rebase it.
                    if let status = error.fetchError?.statusCode, status == 429 || status == 401 {
                        write.attempts = max(0, write.attempts - 1)
                    }
                    write.state = .pending
                    write.lastError = error.message
                    write.nextAttempt = Date().addingTimeInterval(wait.timeInterval)
                    try tx.update(write)
                case .unauthorized(let error):
                    write.attempts = max(0, write.attempts - 1)
                    write.state = .pending
                    write.lastError = error.message
                    try tx.update(write)
                case .dropped:
                    _ = try tx.delete(write)
                case .conflict(let remoteData):
                    try self.settleConflict(&write, remote: remoteData, policy: policy, in: tx)
                }
            }
        }
    }

    /// Resolves a conflict found while sending.
    private func settleConflict(
        _ write: inout PendingWrite, remote remoteData: Data?, policy: ConflictPolicy<Entity>, in tx: ObjectTransaction
    ) throws {
        let record = try remoteData.map { try JSONDecoder().decode(Entity.self, from: $0) }
        let identity = try JSONDecoder().decode(Entity.ID.self, from: write.identity)
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
            try requeue(&write, base: remoteData, exists: record != nil, in: tx)
        case .use(let merged):
            write.payload = try Self.encode(merged)
            if write.operation == .delete { write.operation = .update }
            try tx.upsert(merged)
            try requeue(&write, base: remoteData, exists: record != nil, in: tx)
        case .park:
            write.state = .conflicted
            write.remote = remoteData
            try tx.update(write)
        }
    }

    /// Queues a write again from a new base, under a new key (its payload or preconditions changed).
    private func requeue(_ write: inout PendingWrite, base: Data?, exists: Bool, in tx: ObjectTransaction) throws {
        _ = try tx.delete(write)
        write.id = Self.newKey()
        write.base = base
        if !exists, write.operation == .update { write.operation = .create }
        if exists, write.operation == .create { write.operation = .update }
        write.state = .pending
        write.attempts = 0
        write.nextAttempt = nil
        try tx.insert(write)
    }
}
