import FetchKit
import Foundation
import Locking
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
            waiting = try await read { tx in try tx.first(PendingWrite.unsent(in: collection)) != nil }
        }
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
    private func chooseRound(
        excluding excluded: Set<String>, busy: Set<String>, honouringBackoff: Bool, collection: String
    ) async throws(SyncError) -> [PendingWrite] {
        let now = Date()
        let size = Self.roundSize
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
                for write in writes {
                    let first = seen.insert(write.recordID).inserted
                    guard first, !busy.contains(write.id) else { continue }
                    guard write.state == .pending || write.state == .sending else { continue }
                    if honouringBackoff, let next = write.nextAttempt, next > now { continue }
                    chosen.append(write)
                    if chosen.count == size { break window }
                }
            }
            if !chosen.isEmpty {
                try tx.update(
                    Query<PendingWrite>(where: PendingWrite.key.isIn(chosen.map(\.id))),
                    set: [PendingWrite.state.set(.sending), PendingWrite.attempts += 1])
            }
            return chosen.map {
                var sent = $0
                sent.attempts += 1
                return sent
            }
        }
    }

    /// Puts a chosen round that was not sent back as it was: pending, its attempt not counted.
    private func unchoose(_ writes: [PendingWrite]) async throws(SyncError) {
        guard !writes.isEmpty else { return }
        let ids = writes.map(\.id)
        _ = try await persist { tx in
            try tx.update(
                Query<PendingWrite>(where: PendingWrite.key.isIn(ids)),
                set: [PendingWrite.state.set(.pending), PendingWrite.attempts -= 1])
        }
    }

    /// Sends a round, `concurrency` at a time, or in batches when the collection has a batch API
    /// that this run has not seen refused; the outcomes in the round's order.
    private func sendAll(_ round: [PendingWrite], batches: BatchRefusal) async -> [Outcome] {
        guard let batch = remote.batch, round.count > 1, !batches.refused else {
            return await lanes(round.count) { index in await self.deliver(round[index]) }
        }
        // Each write prepared as it would be sent alone (a read before an update runs here),
        // then the ready ones sent in batches.
        let prepared = await lanes(round.count) { index in await self.prepare(round[index]) }
        // Each slot is filled below; until then a slot reads as "not sent, retry" (never as done).
        var outcomes = round.map { write in
            Outcome.retry(
                SyncError(.requestFailed, collection: remote.name, record: write.recordID, "The write was not sent."),
                .zero)
        }
        var ready: [(index: Int, endpoint: any Endpoint, headers: [String: String])] = []
        for (index, item) in prepared.enumerated() {
            switch item {
            case .settled(let outcome): outcomes[index] = outcome
            case .send(let endpoint, let headers): ready.append((index, endpoint, headers))
            }
        }
        let chunks = stride(from: 0, to: ready.count, by: batch.maximumCount).map {
            Array(ready[$0..<min($0 + batch.maximumCount, ready.count)])
        }
        let sent = await lanes(chunks.count) { number in
            let chunk = chunks[number]
            if chunk.count == 1 {
                return [await self.send(round[chunk[0].index], chunk[0].endpoint, headers: chunk[0].headers)]
            }
            return await self.sendBatch(
                chunk.map { (round[$0.index], $0.endpoint, $0.headers) }, batch, batches: batches)
        }
        for (chunk, results) in zip(chunks, sent) {
            for (item, outcome) in zip(chunk, results) { outcomes[item.index] = outcome }
        }
        return outcomes
    }

    /// Whether a run's batch request was refused as such (batches turned off): the rest of the run
    /// sends its writes one by one.
    final class BatchRefusal: Sendable {
        private let state = Locked(false)
        var refused: Bool { state.withLock { $0 } }
        func refuse() { state.withLock { $0 = true } }
    }

    /// Sends prepared writes in one batch request; the outcomes in their order.
    private func sendBatch(
        _ items: [(write: PendingWrite, endpoint: any Endpoint, headers: [String: String])], _ batch: WriteBatch,
        batches: BatchRefusal
    ) async -> [Outcome] {
        func alone() async -> [Outcome] {
            await lanes(items.count) { index in
                await self.send(items[index].write, items[index].endpoint, headers: items[index].headers)
            }
        }
        let endpoint: any Endpoint
        do {
            // Each write as the request it would be alone, the mirror's headers included.
            let requests = try items.map { item in
                var request = try item.endpoint.urlRequest(base: client.configuration.baseURL)
                for (name, value) in item.headers { request.setValue(value, forHTTPHeaderField: name) }
                return request
            }
            endpoint = try batch.request(requests)
        } catch {
            // A write whose request cannot be built fails alone, with its own error.
            return await alone()
        }
        let exchange: Exchange
        do {
            exchange = try await self.exchange(endpoint)
        } catch {
            let status = error.statusCode ?? 0
            if (400..<500).contains(status), ![401, 408, 425, 429].contains(status) {
                // Refused whole, so nothing of it was applied: each write alone finds the one at
                // fault (a transactional batch), or goes through (batches turned off).
                if [403, 404, 405, 501].contains(status) { batches.refuse() }
                return await alone()
            }
            // Failed on the way, or unauthorized: each write as it would have failed alone.
            var outcomes: [Outcome] = []
            for item in items { outcomes.append(await failed(item.write, error)) }
            return outcomes
        }
        let answers: [WriteBatch.Answer]
        do {
            answers = try batch.answers(exchange.data, exchange.response)
            guard answers.count == items.count else {
                throw SyncError(
                    .badWriteResponse, collection: remote.name,
                    "\(answers.count) answers to a batch of \(items.count) writes")
            }
        } catch {
            let wait = client.configuration.retryPolicy.backoff(beforeRetry: max(1, items[0].write.attempts))
            return items.map { item in
                .retry(
                    SyncError(
                        .badWriteResponse, collection: remote.name, record: item.write.recordID,
                        "The server's answer to a batch of \(items.count) writes of \(remote.name) is not one answer per "
                            + "write (\(SyncJSON.describe(error))); the writes stay queued and are sent again."),
                    wait)
            }
        }
        var outcomes: [Outcome] = []
        for (item, answer) in zip(items, answers) {
            if (200..<300).contains(answer.status), let url = exchange.response.url,
                let response = HTTPURLResponse(url: url, statusCode: answer.status, httpVersion: nil, headerFields: [:])
            {
                let own = Exchange(data: answer.body, response: response)
                switch self.answer(own, record: item.write.recordID, attempts: item.write.attempts) {
                case .found(let record): outcomes.append(.acknowledged(record))
                case .missing: outcomes.append(.acknowledged(nil))
                case .failed(let outcome): outcomes.append(outcome)
                }
            } else {
                outcomes.append(
                    await failed(item.write, client.configuration.partError(status: answer.status, body: answer.body)))
            }
        }
        return outcomes
    }

    /// Runs `work` for each index below `count`, `concurrency` at a time, each lane taking the
    /// next index when its last one ends (a send follows the last on the same task, with no hop
    /// through a coordinating task); the results in index order.
    private func lanes<T: Sendable>(_ count: Int, _ work: @escaping @Sendable (Int) async -> T) async -> [T] {
        let taken = Locked(0)
        return await withTaskGroup(of: [(Int, T)].self) { group in
            for _ in 0..<min(concurrency, count) {
                group.addTask {
                    var done: [(Int, T)] = []
                    while true {
                        let index = taken.withLock { next in
                            defer { next += 1 }
                            return next
                        }
                        guard index < count else { return done }
                        done.append((index, await work(index)))
                    }
                }
            }
            var results = [T?](repeating: nil, count: count)
            for await lane in group {
                for (index, result) in lane { results[index] = result }
            }
            return results.compactMap { $0 }
        }
    }

    /// The reason of a write left in the outbox by a description that since lost its request.
    static func noRequest(_ property: String, _ collection: String) -> String {
        "\(collection) has no \(property) request any more (RemoteCollection.\(property) is nil)."
    }

    /// The most writes a round sends between its choice and its settling.
    static var roundSize: Int { 64 }

    /// A write ready to send: its request and the mirror's headers; or what became of it
    /// already (a conflict its read found, a refusal).
    enum Prepared: Sendable {
        case send(any Endpoint, [String: String])
        case settled(Outcome)
    }

    /// Sends one write and says what became of it.
    func deliver(_ write: PendingWrite) async -> Outcome {
        switch await prepare(write) {
        case .settled(let outcome): return outcome
        case .send(let endpoint, let headers): return await send(write, endpoint, headers: headers)
        }
    }

    /// Builds a write's request, after the read its conflict check needs.
    func prepare(_ write: PendingWrite) async -> Prepared {
        var headers: [String: String] = [:]
        if let header = remote.idempotencyKeyHeader { headers[header] = write.id }
        let endpoint: any Endpoint
        do {
            switch write.operation {
            case .create:
                guard let local = try write.local(as: Entity.self) else {
                    return .settled(.rejected("The create has no record."))
                }
                guard let create = remote.create else {
                    return .settled(.rejected(Self.noRequest("create", remote.name)))
                }
                endpoint = create(local)
            case .update:
                guard let local = try target(of: write) else {
                    return .settled(.rejected("The update has no record."))
                }
                let base = try write.base(as: Entity.self)
                switch remote.conflictCheck.kind {
                case .none: break
                case .ifMatch(let tag):
                    if let base, let tag = tag(base) { headers["If-Match"] = tag }
                case .readBeforeWrite:
                    if let read = remote.read, base != nil {
                        switch await current(read(local), record: write.recordID) {
                        case .found(let record):
                            if !sameVersion(base, record) {
                                if appliedBefore(write, local: local, remote: record) {
                                    return .settled(.acknowledged(record))
                                }
                                return .settled(.conflict(try Self.encode(record)))
                            }
                        case .missing: return .settled(.conflict(nil))
                        case .failed(let outcome): return .settled(outcome)
                        }
                    }
                }
                guard let update = remote.update else {
                    return .settled(.rejected(Self.noRequest("update", remote.name)))
                }
                endpoint = update(local, base)
            case .delete:
                guard let delete = remote.delete else {
                    return .settled(.rejected(Self.noRequest("delete", remote.name)))
                }
                guard let record = try target(of: write) else {
                    return .settled(.rejected(Self.unaddressable(write, remote.name)))
                }
                endpoint = delete(record)
            }
        } catch let error as SyncError {
            return .settled(.rejected(error.message))
        } catch {
            return .settled(
                .rejected("The pending write of \(remote.name)/\(write.recordID) does not decode: \(error)"))
        }
        return .send(endpoint, headers)
    }

    /// Sends a prepared write and says what became of it.
    func send(_ write: PendingWrite, _ endpoint: any Endpoint, headers: [String: String]) async -> Outcome {
        let exchange: Exchange
        do {
            exchange = try await self.exchange(endpoint, headers: headers)
        } catch {
            return await failed(write, error)
        }
        // An answer that is not one: the server may have applied the write, so it stays queued
        // with its key and is sent again on a later run (where natural idempotency confirms a
        // create or a delete).
        switch answer(exchange, record: write.recordID, attempts: write.attempts) {
        case .found(let record): return .acknowledged(record)
        case .missing: return .acknowledged(nil)
        case .failed(let outcome): return outcome
        }
    }

    /// The server's record in a successful answer, checked: `.missing` when the answer carries
    /// none, a ``SyncError/Code-swift.struct/badWriteResponse`` when it is not an answer (it does
    /// not decode, or it is another record than `record`, the written record's identity text).
    func answer(_ exchange: Exchange, record: String, attempts: Int) -> Current {
        let wait = client.configuration.retryPolicy.backoff(beforeRetry: max(1, attempts))
        let entity: Entity?
        do {
            entity = try remote.written(exchange.data, exchange.response)
        } catch {
            let property = SyncJSON.failedProperty(error)
            return .failed(
                .retry(
                    SyncError(
                        .badWriteResponse, collection: remote.name, record: record, property: property,
                        "The server's answer for \(remote.name)/\(record) (HTTP \(exchange.response.statusCode)) is not "
                            + "a record of it: \(SyncJSON.describe(error)); the write stays queued and is sent again."),
                    wait))
        }
        guard let entity else { return .missing }
        let answered = entity.id.databaseValue.identityText
        if answered != record {
            return .failed(
                .retry(
                    SyncError(
                        .badWriteResponse, collection: remote.name, record: record,
                        "The server answered for \(remote.name)/\(record) with the record "
                            + "\(answered); the write stays queued and is sent again."),
                    wait))
        }
        return .found(entity)
    }

    /// What a failed send means.
    func failed(_ write: PendingWrite, _ error: FetchError) async -> Outcome {
        let status = error.statusCode
        let record = try? target(of: write)
        switch write.operation {
        case .create where remote.isAlreadyExisting(error):
            // A create the server applied before (a retry after a lost answer): confirm it.
            guard let read = remote.read, let record else { return .acknowledged(nil) }
            switch await current(read(record), record: write.recordID) {
            case .found(let found): return .acknowledged(found)
            case .missing:
                return .rejected("The server says \(remote.name)/\(write.recordID) exists but cannot read it.")
            case .failed(let outcome): return outcome
            }
        case .update where status == 404, .delete where status == 404:
            return await notFound(write, record, error)
        default:
            break
        }
        if status == 412 {
            guard let read = remote.read, let record else { return .conflict(nil) }
            switch await current(read(record), record: write.recordID) {
            case .found(let found):
                if write.operation == .update, appliedBefore(write, local: record, remote: found) {
                    return .acknowledged(found)
                }
                return .conflict(try? Self.encode(found))
            case .missing: return .conflict(nil)
            case .failed(let outcome): return outcome
            }
        }
        return classify(error, record: write.recordID, attempts: write.attempts)
    }

    /// An update or a delete answered `404`: the record is gone, or the write was addressed
    /// where the server does not take it. A read of the record tells them apart (without one,
    /// the answer is taken at its word). Gone: a delete is done, an update is a conflict with a
    /// deleted record, for the policy to decide. Still there: the write stays queued and the
    /// run ends with ``SyncError/Code-swift.struct/misaddressedWrite`` naming the record.
    private func notFound(_ write: PendingWrite, _ record: Entity?, _ error: FetchError) async -> Outcome {
        let gone: Outcome = write.operation == .delete ? .acknowledged(nil) : .conflict(nil)
        guard let read = remote.read, let record else { return gone }
        switch await current(read(record), record: write.recordID) {
        case .missing: return gone
        case .failed(let outcome): return outcome
        case .found:
            let wait = client.configuration.retryPolicy.backoff(beforeRetry: max(1, write.attempts))
            let address = error.request.map { " (\($0))" } ?? ""
            return .retry(
                SyncError(
                    .misaddressedWrite, collection: remote.name, record: write.recordID,
                    "The server answered 404 Not Found to the \(write.operation.rawValue) of "
                        + "\(remote.name)/\(write.recordID)\(address), yet a read still finds the record: the write is "
                        + "addressed where the server does not take it, or its rules refuse it. The write stays queued; "
                        + "check the collection's \(write.operation.rawValue) request and serverID.",
                    fetchError: error),
                wait)
        }
    }

    /// The record a write addresses, with its identity on the server: the local record (for a
    /// delete, the record as last known), its server identity filled from the base or from the
    /// server's version kept with it.
    func target(of write: PendingWrite) throws -> Entity? {
        let base = try write.base(as: Entity.self)
        guard let record = try write.local(as: Entity.self) ?? base else { return nil }
        guard let key = remote.serverID, record[keyPath: key] == nil else { return record }
        guard let known = try base?[keyPath: key] ?? write.remote(as: Entity.self)?[keyPath: key] else {
            return record
        }
        var copy = record
        copy[keyPath: key] = known
        return copy
    }

    /// Whether an update sent before, whose answer was lost (or whose process was killed), is
    /// what changed the server's record: every property the update changed from the record as
    /// this device had it (``PendingWrite/origin``) already has its value there, leaving out the
    /// properties the server stamps (those that make up the record's version). The write is
    /// then acknowledged, and becomes the base of the writes queued after it, not a conflict
    /// with itself (nor sent again over a newer version: the server without idempotency keys
    /// would apply it twice).
    ///
    /// Another client that made the very same change in between is taken for this write: the
    /// record ends the same either way.
    func appliedBefore(_ write: PendingWrite, local: Entity, remote record: Entity) -> Bool {
        guard write.attempts > 1 else { return false }
        if let origin = try? write.origin.map({ try SyncJSON.decode(Entity.self, from: $0) }) {
            return FieldMerge.holdsChanges(of: local, since: origin, record, version: remote.version, emptyHolds: true)
        }
        // A write queued before the origin was kept: its changes are read against its base.
        guard let base = try? write.base(as: Entity.self) else { return false }
        return FieldMerge.holdsChanges(of: local, since: base, record, version: remote.version)
    }

    /// The reason of a delete left with no record to address (queued by an older version).
    static func unaddressable(_ write: PendingWrite, _ collection: String) -> String {
        "The delete of \(collection)/\(write.recordID) holds no record to address it with; discard it."
    }

    /// A failure that is not about the record: retry, wait for credentials, or reject.
    func classify(_ error: FetchError, record: String, attempts: Int) -> Outcome {
        let failure = requestError(error, record: record)
        let status = error.statusCode ?? 0
        if failure.code == .unauthorized { return .unauthorized(failure) }
        let transient =
            client.configuration.retryPolicy.isRetryable(error) || [408, 425, 429].contains(status)
            || (500..<600).contains(status) || error.code == .connectionLost || error.code == .timedOut
            || error.code == .transportFailed || error.code == .cancelled
        if transient {
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
        let exchange: Exchange
        do {
            exchange = try await self.exchange(endpoint)
        } catch {
            if error.statusCode == 404 { return .missing }
            return .failed(classify(error, record: record, attempts: 1))
        }
        switch answer(exchange, record: record, attempts: 1) {
        case .missing:
            return .failed(.rejected("The server's record \(remote.name)/\(record) does not decode."))
        case let other: return other
        }
    }

    /// Applies a round's outcomes in one transaction: the round's records' writes are read in
    /// one query, the acknowledged ones deleted in one statement.
    private func settle(_ round: [PendingWrite], _ outcomes: [Outcome]) async throws(SyncError) {
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
                            next.base = base
                            if next.operation == .create, write.operation != .delete { next.operation = .update }
                            try tx.update(next)
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
                case .conflict(let remoteData):
                    try self.settleConflict(&write, remote: remoteData, policy: policy, in: tx)
                }
            }
            if !done.isEmpty { _ = try tx.delete(Query<PendingWrite>(where: PendingWrite.key.isIn(done))) }
            for answer in answers { try self.storeRemote(answer, in: tx) }
        }
    }

    /// Resolves a conflict found while sending.
    private func settleConflict(
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
