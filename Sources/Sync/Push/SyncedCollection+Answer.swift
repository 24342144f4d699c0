import FetchKit
import Foundation
import Persistence

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Judging an answer: the server's record in a success, what a failure means (already applied,
/// gone, misaddressed, a conflict, retry later, refused), and the record a write addresses.
extension SyncedCollection {
    enum Current: Sendable {
        case found(Entity)
        case missing
        case failed(Outcome)
    }

    /// The server's record in a successful answer, checked: `.missing` when the answer carries
    /// none, a ``SyncError/Code-swift.struct/badWriteResponse`` when it is not an answer (it does
    /// not decode, or it is another record than `record`, the written record's identity text).
    func answer(_ exchange: Exchange, record: String, attempts: Int) -> Current {
        let wait = client.configuration.retryPolicy.backoff(beforeRetry: max(1, attempts))
        let entity: Entity?
        do {
            entity = try remote.writes.written.extract(from: exchange.data, response: exchange.response)
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
        let record = try? target(of: write, base: write.base(as: Entity.self))
        switch write.operation {
        case .create where remote.writes.isAlreadyExisting(error):
            // A create the server applied before (a retry after a lost answer), or the same record
            // made elsewhere: the server's record holds this one's fields, or is merged with them.
            guard let read = remote.writes.read, let record else { return .acknowledged(nil) }
            switch await current(read(record), record: write.recordID) {
            case .found(let found):
                return settled(
                    meeting: found, base: try? write.base(as: Entity.self), local: try? write.local(as: Entity.self))
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
            guard let read = remote.writes.read, let record else { return .conflict(nil) }
            switch await current(read(record), record: write.recordID) {
            case .found(let found):
                let base = try? write.base(as: Entity.self)
                if outbox.sameVersion(base, found) {
                    // Refused though the record is at the write's base: the tag sent is not one the
                    // server matches.
                    return .rejected(
                        "The server answered 412 Precondition Failed to the \(write.operation.rawValue) of "
                            + "\(remote.name)/\(write.recordID), though its record is still the version the write "
                            + "started from: the If-Match tag (ConflictCheck.ifMatch) is not the server's entity tag.")
                }
                return settled(meeting: found, base: base, local: try? write.local(as: Entity.self))
            case .missing: return .conflict(nil)
            case .failed(let outcome): return outcome
            }
        }
        return classify(error, record: write.recordID, attempts: write.attempts)
    }

    /// What a write (its `base` and `local` record) that met the server's record `found` becomes
    /// (a read before the write, a `412`, an "already exists"), merged field by field: done when
    /// the record holds its changes, made again over it under a new key when they touch other
    /// fields, a conflict otherwise.
    func settled(meeting found: Entity, base: Entity?, local: Entity?) -> Outcome {
        guard let data = try? Outbox.encode(found) else { return .conflict(nil) }
        switch outbox.verdict(base: base, local: local, remote: found) {
        case .holds: return .acknowledged(found)
        case .merged: return .outdated(data)
        case .conflict: return .conflict(data)
        }
    }

    /// An update or a delete answered `404`: the record is gone, or the write was addressed
    /// where the server does not take it. A read of the record tells them apart (without one,
    /// the answer is taken at its word). Gone: a delete is done, an update is a conflict with a
    /// deleted record, for the policy to decide. Still there: the write stays queued and the
    /// run ends with ``SyncError/Code-swift.struct/misaddressedWrite`` naming the record.
    func notFound(_ write: PendingWrite, _ record: Entity?, _ error: FetchError) async -> Outcome {
        let gone: Outcome = write.operation == .delete ? .acknowledged(nil) : .conflict(nil)
        guard let read = remote.writes.read, let record else { return gone }
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
    /// delete, the record as last known), its server identity filled from the base (`base`,
    /// already decoded) or from the server's version kept with it.
    func target(of write: PendingWrite, base: Entity?) throws -> Entity? {
        guard let record = try write.local(as: Entity.self) ?? base else { return nil }
        return try withServerID(record) { key in
            try base?[keyPath: key] ?? write.remote(as: Entity.self)?[keyPath: key]
        }
    }

    /// A failure that is not about the record: retry, wait for credentials, or reject.
    func classify(_ error: FetchError, record: String, attempts: Int) -> Outcome {
        let failure = requestError(error, record: record)
        let status = error.statusCode ?? 0
        if failure.code == .unauthorized { return .unauthorized(failure) }
        // A cancelled send may or may not have reached the server: kept, as a transient failure is.
        if error.isTransient || client.configuration.retryPolicy.isRetryable(error) || error.code == .cancelled {
            let wait = error.retryAfter ?? client.configuration.retryPolicy.backoff(beforeRetry: max(1, attempts))
            return .retry(failure, wait)
        }
        let reason =
            error.reportedFailure?.message ?? error.bodyExcerpt.map { "HTTP \(status): \($0)" }
            ?? "HTTP \(status) (\(error.code))"
        return .rejected(reason)
    }

    /// Reads the server's record: `.missing` when the server answers `404` or `410`, or a body
    /// that a reader of your own (``RecordWrites/written``) maps to no record (a soft delete,
    /// a tombstone). With the default reader, JSON that is not the record is an error: the write
    /// stays queued, and nothing is taken for deleted.
    func current(_ endpoint: any Endpoint, record: String) async -> Current {
        let exchange: Exchange
        do {
            exchange = try await self.exchange(endpoint)
        } catch {
            if error.statusCode == 404 || error.statusCode == 410 { return .missing }
            return .failed(classify(error, record: record, attempts: 1))
        }
        let found = answer(exchange, record: record, attempts: 1)
        if case .missing = found, remote.writes.readsByDefault,
            !exchange.data.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) })
        {
            let wait = client.configuration.retryPolicy.backoff(beforeRetry: 1)
            return .failed(
                .retry(
                    SyncError(
                        .badWriteResponse, collection: remote.name, record: record,
                        "The server's record \(remote.name)/\(record), read before its write was settled, does not "
                            + "decode as \(Entity.self); the write stays queued. Check the record on the server, or give "
                            + "the collection a reader of its own (RecordWrites.written)."),
                    wait))
        }
        return found
    }
}
