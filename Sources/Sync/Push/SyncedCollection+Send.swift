import FetchKit
import Foundation
import Locking
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sending a round: each write prepared as its request (after the read a conflict check needs),
/// sent alone or in batches, a few at a time.
extension SyncedCollection {
    /// A write ready to send: its request and the mirror's headers (alone, never in a batch, for
    /// a write that carries files); or what became of it already (a conflict its read found, a
    /// refusal).
    enum Prepared: Sendable {
        case send(any Endpoint, [String: String])
        case sendAlone(any Endpoint, [String: String])
        case settled(Outcome)
    }

    /// Sends a round, `concurrency` at a time, or in batches when the collection has a batch API
    /// that this run has not seen refused; the outcomes in the round's order.
    func sendAll(_ round: [PendingWrite], batches: BatchRefusal) async -> [Outcome] {
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
        var alone: [(index: Int, endpoint: any Endpoint, headers: [String: String])] = []
        for (index, item) in prepared.enumerated() {
            switch item {
            case .settled(let outcome): outcomes[index] = outcome
            case .send(let endpoint, let headers): ready.append((index, endpoint, headers))
            case .sendAlone(let endpoint, let headers): alone.append((index, endpoint, headers))
            }
        }
        // Writes that carry files go alone (a batch would hold every file at once).
        let chunks =
            stride(from: 0, to: ready.count, by: batch.maximumCount).map {
                Array(ready[$0..<min($0 + batch.maximumCount, ready.count)])
            } + alone.map { [$0] }
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
    func sendBatch(
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
            if Self.refuses(error) {
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
            answers = try batch.answers.extract(from: exchange.data, response: exchange.response)
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
    func lanes<T: Sendable>(_ count: Int, _ work: @escaping @Sendable (Int) async -> T) async -> [T] {
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

    /// Sends one write and says what became of it.
    func deliver(_ write: PendingWrite) async -> Outcome {
        switch await prepare(write) {
        case .settled(let outcome): return outcome
        case .send(let endpoint, let headers), .sendAlone(let endpoint, let headers):
            return await send(write, endpoint, headers: headers)
        }
    }

    /// Builds a write's request, after the read its conflict check needs.
    func prepare(_ write: PendingWrite) async -> Prepared {
        var headers: [String: String] = [:]
        if let header = remote.writes.idempotencyKeyHeader { headers[header] = write.key }
        let endpoint: any Endpoint
        // The files the write adds; a write sent before that carries files is read first, so that
        // an upload the server applied (its answer lost) is never made again.
        var uploads: [FileUpload] = []
        var readFirst = false
        do {
            switch write.operation {
            case .create:
                guard let local = try write.local(as: Entity.self) else {
                    return .settled(.rejected("The create has no record."))
                }
                guard let create = remote.writes.create else {
                    return .settled(.rejected(Self.noRequest("create", remote.name)))
                }
                uploads = try self.uploads(of: local, base: nil).get()
                if !uploads.isEmpty, write.attempts > 1, let outcome = await applied(write, local, nil, uploads) {
                    return .settled(outcome)
                }
                endpoint = create(local)
            case .update:
                let base = try write.base(as: Entity.self)
                guard var local = try target(of: write, base: base) else {
                    return .settled(.rejected("The update has no record."))
                }
                local = knowingUploads(local, base: base)
                uploads = try self.uploads(of: local, base: base).get()
                switch remote.writes.conflictCheck.kind {
                case .none: break
                case .ifMatch(let tag):
                    if let base, let tag = tag(base) { headers["If-Match"] = tag }
                case .readBeforeWrite:
                    if let read = remote.writes.read, base != nil {
                        readFirst = true
                        switch await current(read(local), record: write.recordID) {
                        case .found(let record) where !uploads.isEmpty && holds(record, uploads):
                            // The upload is there (an answer lost): the rest of the write is judged
                            // against the record, its files by the server's names.
                            return .settled(
                                settled(meeting: record, base: base, local: knowingUploads(local, base: record)))
                        case .found(let record):
                            // The server's record moved on: merged field by field. A write it already
                            // holds is done (its answer was lost); one that changed other fields is made
                            // again over it, under a new key, and sent in a later round; a change to the
                            // same field is a conflict for the policy.
                            if !outbox.sameVersion(base, record) {
                                return .settled(settled(meeting: record, base: base, local: local))
                            }
                        case .missing: return .settled(.conflict(nil))
                        case .failed(let outcome): return .settled(outcome)
                        }
                    }
                }
                guard let update = remote.writes.update else {
                    return .settled(.rejected(Self.noRequest("update", remote.name)))
                }
                if !uploads.isEmpty, !readFirst, write.attempts > 1,
                    let outcome = await applied(write, local, base, uploads)
                {
                    return .settled(outcome)
                }
                endpoint = update(local, base)
            case .delete:
                guard let delete = remote.writes.delete else {
                    return .settled(.rejected(Self.noRequest("delete", remote.name)))
                }
                guard let record = try target(of: write, base: write.base(as: Entity.self)) else {
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
        if !uploads.isEmpty {
            let upload = remote.files.upload(endpoint, uploads)
            return .sendAlone(ReplacedRequest(upload, timeout: transferTimeout(of: upload, uploads)), headers)
        }
        return .send(endpoint, headers)
    }

    /// What became of a write that carries `uploads` and was sent before, by a read of its
    /// record: when the server's record holds every upload (the write was applied, its answer
    /// lost), a create is done and an update is judged against the record; the read's failure; or
    /// `nil` to send it.
    func applied(_ write: PendingWrite, _ local: Entity, _ base: Entity?, _ uploads: [FileUpload]) async -> Outcome? {
        guard let read = remote.writes.read else { return nil }
        switch await current(read(local), record: write.recordID) {
        case .found(let record) where holds(record, uploads):
            guard write.operation == .update else { return .acknowledged(record) }
            return settled(meeting: record, base: base, local: knowingUploads(local, base: record))
        case .found: return nil
        case .missing: return nil
        case .failed(let outcome): return outcome
        }
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

    /// The reason of a write left in the outbox by a description that since lost its request.
    static func noRequest(_ property: String, _ collection: String) -> String {
        "\(collection) has no \(property) request any more (RecordWrites.\(property) is nil)."
    }

    /// The reason of a delete left with no record to address (queued by an older version).
    static func unaddressable(_ write: PendingWrite, _ collection: String) -> String {
        "The delete of \(collection)/\(write.recordID) holds no record to address it with; discard it."
    }
}
