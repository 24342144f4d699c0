import Foundation
import Persistence

/// Conflicts, field by field: where a write and the server's record stand against the write's
/// base, what a resolution does, and how it is applied to the outbox and the row, the same way
/// at a pull, at a send, and by the app's hand.
extension Outbox {
    /// Where a local change and the server's record stand.
    enum Verdict {
        /// The server's record already holds every local change (this device's write whose
        /// answer was lost, a write that changed nothing, the same change made elsewhere): the
        /// write is done, and the row takes the server's record.
        case holds
        /// No property competes: the server's record with the local changes on top, to send over
        /// it (`nil`: a local delete of a record the server changed nothing of that matters).
        case merged(Entity?)
        /// The sides compete: the policy decides.
        case conflict(Conflict<Entity>)
    }

    /// What a decided conflict does to the write and the row.
    enum Action {
        /// The write leaves; the row is the server's record (`nil`: the record is gone, with the
        /// writes queued behind).
        case drop(Entity?)
        /// The write is sent again over the server's version (`exists`: whether the server has
        /// the record), carrying this record (`nil`: a delete stays a delete).
        case requeue(Entity?, exists: Bool)
        /// The write is parked as conflicted.
        case park
    }

    /// A record's properties, compared: the local change's own (leaving out the version the
    /// server stamps and the fields only this device keeps), the server's, and those both
    /// changed to different values.
    struct Comparison {
        var local: RecordFields
        var remote: RecordFields
        /// The properties the local change changed since the base.
        var mine: Set<String>
        /// The properties both changed, to different values.
        var competing: Set<String>
        /// The fields only this device keeps.
        var keeping: Set<String>

        /// The server's record with the local changes on top, the competing ones too when
        /// `winning` is the local side.
        func merged(localWins: Bool) -> RecordFields {
            let taken = localWins ? mine : mine.subtracting(competing)
            return remote.taking(taken, from: local).taking(keeping, from: local)
        }

        /// Whether the server's record holds every local change but the competing ones it wins.
        func holds(localWins: Bool) -> Bool {
            (localWins ? mine : mine.subtracting(competing)).allSatisfy { local[$0] == remote[$0] }
        }
    }

    /// The fields only this device keeps (``RemoteCollection/keeping``).
    var keepingFields: Set<String> { Set(remote.keeping.map(\.property)) }

    /// Compares a local change with the server's record, field by field, from their base.
    func compare(base: Entity?, local: Entity, remote record: Entity) -> Comparison? {
        guard let l = RecordFields(local), let r = RecordFields(record) else { return nil }
        let b = base.flatMap { RecordFields($0) }
        let keeping = keepingFields
        var mine = l.changed(from: b).subtracting(keeping)
        mine.subtract(versionKeys(mine, of: b ?? r, changedTo: l))
        var theirs = r.changed(from: b).subtracting(keeping)
        theirs.subtract(versionKeys(theirs.intersection(mine), of: b ?? l, changedTo: r))
        let competing = mine.intersection(theirs).filter { l[$0] != r[$0] }
        return Comparison(local: l, remote: r, mine: mine, competing: competing, keeping: keeping)
    }

    /// The keys of `keys` that make up the record's version: putting `changed`'s value into
    /// `reference` changes the reference's version (``ChangeFeed/version``). The server
    /// stamps them; no side's change to them is a change.
    func versionKeys(_ keys: Set<String>, of reference: RecordFields, changedTo changed: RecordFields) -> Set<String> {
        guard let version = remote.changes.version, !keys.isEmpty,
            let original = try? reference.decoded(as: Entity.self), let before = version(original)
        else { return [] }
        return keys.filter { key in
            guard let probe = try? reference.taking([key], from: changed).decoded(as: Entity.self) else { return false }
            return version(probe) != before
        }
    }

    /// Where a write (its base and local record) stands against the server's record.
    func verdict(base: Entity?, local: Entity?, remote record: Entity?) -> Verdict {
        switch (local, record) {
        case (nil, nil):
            return .holds
        case (nil, let record?):
            // A local delete meets a changed record: a conflict when the server changed a field.
            guard let b = base.flatMap({ RecordFields($0) }), let r = RecordFields(record) else {
                return .conflict(Conflict(base: base, local: nil, remote: record, fields: []))
            }
            var theirs = r.changed(from: b).subtracting(keepingFields)
            theirs.subtract(versionKeys(theirs, of: b, changedTo: r))
            return theirs.isEmpty
                ? .merged(nil) : .conflict(Conflict(base: base, local: nil, remote: record, fields: []))
        case (let local?, nil):
            return .conflict(Conflict(base: base, local: local, remote: nil, fields: []))
        case (let local?, let record?):
            guard let comparison = compare(base: base, local: local, remote: record) else {
                return .conflict(Conflict(base: base, local: local, remote: record, fields: []))
            }
            if !comparison.competing.isEmpty {
                return .conflict(Conflict(base: base, local: local, remote: record, fields: comparison.competing))
            }
            if comparison.holds(localWins: false) { return .holds }
            guard let merged = try? comparison.merged(localWins: false).decoded(as: Entity.self) else {
                return .conflict(Conflict(base: base, local: local, remote: record, fields: comparison.mine))
            }
            return .merged(merged)
        }
    }

    /// What a verdict does, asking the policy for a conflict.
    func action(for verdict: Verdict, remote record: Entity?) -> Action {
        switch verdict {
        case .holds: return .drop(record)
        case .merged(let merged): return .requeue(merged, exists: true)
        case .conflict(let conflict): return action(resolving: conflict, with: policy.resolve(conflict))
        }
    }

    /// What a resolution of `conflict` does: ``Resolution/keepRemote`` and
    /// ``Resolution/keepLocal`` decide the competing fields only.
    func action(resolving conflict: Conflict<Entity>, with resolution: Resolution<Entity>) -> Action {
        switch resolution {
        case .park:
            return .park
        case .use(let record):
            return .requeue(record, exists: conflict.remote != nil)
        case .keepRemote:
            guard let local = conflict.local, let record = conflict.remote,
                let comparison = compare(base: conflict.base, local: local, remote: record)
            else { return .drop(conflict.remote) }
            if comparison.holds(localWins: false) { return .drop(record) }
            guard let merged = try? comparison.merged(localWins: false).decoded(as: Entity.self) else {
                return .drop(record)
            }
            return .requeue(merged, exists: true)
        case .keepLocal:
            guard let record = conflict.remote else {
                // Deleted on both sides: nothing is left to send. Changed here: created again.
                return conflict.local.map { .requeue($0, exists: false) } ?? .drop(nil)
            }
            guard let local = conflict.local else { return .requeue(nil, exists: true) }
            guard let comparison = compare(base: conflict.base, local: local, remote: record),
                let merged = try? comparison.merged(localWins: true).decoded(as: Entity.self)
            else { return .requeue(local, exists: true) }
            return .requeue(merged, exists: true)
        }
    }

    /// Applies `action` to a record's first write (`write`) and the writes queued behind it
    /// (`later`), and to the row: the one place a resolution is applied.
    func apply(
        _ action: Action, to write: inout PendingWrite, later: [PendingWrite], remote record: Entity?,
        in tx: ObjectTransaction
    ) throws {
        let remoteData = try record.map(Self.encode)
        let identity = try SyncJSON.decode(Entity.ID.self, from: write.identity)
        switch action {
        case .park:
            write.conflicted(remote: remoteData)
            try store(write, in: tx)
        case .drop(let row):
            try remove([write], in: tx)
            guard let row else {
                // The record is gone: the changes queued behind go with it, but for a create made
                // here after a delete (the record made again), which stays with what follows it.
                guard let again = later.firstIndex(where: { $0.operation == .create }) else {
                    try remove(later, in: tx)
                    _ = try tx.delete(Entity.self, id: identity)
                    return
                }
                try remove(Array(later[..<again]), in: tx)
                if let newest = try rebase(Array(later[again...]), onto: nil, earlier: .delete, in: tx) {
                    try tx.upsert(newest)
                }
                return
            }
            if let newest = try rebase(later, onto: remoteData, earlier: .update, in: tx) {
                try tx.upsert(newest)
            } else if later.isEmpty {
                try storeRemote(row, in: tx)
            }
        case .requeue(let record, let exists):
            let payload = try record.map(Self.encode)
            if payload == nil, write.operation != .delete {
                // Only a delete is sent without a record.
                try remove([write], in: tx)
                return
            }
            // The base keeps the local-only fields the payload has: an update never sends them.
            let base = try withLocalFields(remoteData, from: payload ?? write.payload)
            try take(&write, in: tx) { $0.requeued(base: base, exists: exists, payload: payload, key: Self.newKey()) }
            if let newest = try rebase(later, onto: write.payload ?? remoteData, earlier: write.operation, in: tx) {
                try tx.upsert(newest)
            } else if later.isEmpty, let record {
                try tx.upsert(record)
            }
        }
    }

    /// The writes queued behind a settled one, made again over `base` (the server's record, or
    /// the settled write's own): each keeps its own changes (its payload against its base) on top
    /// of the one before. Returns the newest record they carry, for the row; `nil` when there are
    /// none or the newest is a delete.
    @discardableResult
    func rebase(
        _ later: [PendingWrite], onto base: Data?, earlier: PendingWrite.Operation, in tx: ObjectTransaction
    ) throws -> Entity? {
        var current = base
        var newest: Data?
        for var next in later where next.state != .sending {
            let payload = try next.payload.map { try rebased($0, from: next.base, onto: current) }
            next.rebased(
                onto: try withLocalFields(current, from: payload ?? next.base), payload: payload, earlier: earlier)
            try store(next, in: tx)
            newest = next.payload
            current = next.payload ?? current
        }
        // The row follows when the record decodes (a payload of another schema version waits
        // for its upgrade, and never stops the settle).
        return newest.flatMap { try? SyncJSON.decode(Entity.self, from: $0) }
    }

    /// `payload`'s own changes (against `base`) made again over `new`: the new record with the
    /// properties the payload changed, and the fields only this device keeps. The payload as it
    /// is when either side is unknown (a create).
    func rebased(_ payload: Data, from base: Data?, onto new: Data?) throws -> Data {
        guard let new, let base, let n = RecordFields(data: new), let b = RecordFields(data: base),
            let p = RecordFields(data: payload)
        else { return payload }
        var mine = p.changed(from: b).subtracting(keepingFields)
        mine.subtract(versionKeys(mine, of: b, changedTo: p))
        return try n.taking(mine, from: p).taking(keepingFields, from: p).data
    }

    /// The server's record `remote` with the fields only this device keeps taken from `local`: the
    /// base a write is made from once it moves onto the server's record, so that its changes
    /// (``ChangedFields``) never hold the local-only fields.
    func withLocalFields(_ remote: Data?, from local: Data?) throws -> Data? {
        let keeping = keepingFields
        guard !keeping.isEmpty, let remote, let local, let r = RecordFields(data: remote),
            let l = RecordFields(data: local)
        else { return remote }
        return try r.taking(keeping, from: l).data
    }

    /// Whether the server's record is the base (by version, else by content).
    func sameVersion(_ base: Entity?, _ record: Entity?) -> Bool {
        switch (base, record) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case (let base?, let record?):
            if let version = remote.changes.version, let a = version(base), let b = version(record) { return a == b }
            return (try? Self.encode(base)) == (try? Self.encode(record))
        }
    }
}

extension Outbox {
    // MARK: Conflicts met

    /// A pull met a record with writes: their local change stays on top of the server's record,
    /// merged field by field; a conflict is decided by the policy. Returns whether there was a
    /// conflict.
    func pulled(_ record: Entity?, over writes: [PendingWrite], in tx: ObjectTransaction) throws -> Bool {
        guard var first = writes.first else { return false }
        // A write of another schema version (waiting for its upgrade) cannot be read as the
        // entity, and a server version kept with it would be upgraded as if it were old: the row
        // stays as the app wrote it, and the write meets the server's record once it is upgraded.
        if writes.contains(where: { $0.schemaVersion != remote.schemaVersion }) { return false }
        if first.attempts > 0 || first.state == .sending || first.state == .rejected {
            // Its outcome is unknown (or refused): the newest server version is kept with it; the
            // acknowledgement (or the app's decision) settles the row.
            first.sawServerVersion(try record.map(Self.encode))
            try store(first, in: tx)
            return false
        }
        if first.state == .conflicted {
            try apply(.park, to: &first, later: [], remote: record, in: tx)
            return true
        }
        let base = try first.base(as: Entity.self)
        if sameVersion(base, record) { return false }
        let verdict = verdict(base: base, local: try first.local(as: Entity.self), remote: record)
        try apply(
            action(for: verdict, remote: record), to: &first, later: Array(writes.dropFirst()), remote: record, in: tx)
        if case .conflict = verdict { return true }
        return false
    }

    /// A sent write met the server's record changed since its base (`remoteData`; `nil`: gone):
    /// merged field by field, a conflict decided by the policy.
    func met(
        _ remoteData: Data?, sending write: inout PendingWrite, later: [PendingWrite], in tx: ObjectTransaction
    ) throws {
        let record = try remoteData.map { try SyncJSON.decode(Entity.self, from: $0) }
        let verdict = verdict(
            base: try write.base(as: Entity.self), local: try write.local(as: Entity.self), remote: record)
        try apply(action(for: verdict, remote: record), to: &write, later: later, remote: record, in: tx)
    }

    // MARK: The app's decisions

    /// Resolves a parked conflict by the app's hand, as the policy's answer would be applied.
    func resolve(_ held: PendingWrite, with resolution: Resolution<Entity>, in tx: ObjectTransaction) throws {
        guard held.collection == name else { return }
        let all = try writes(of: held.recordID, in: tx)
        guard var write = all.first(where: { $0.key == held.key }), write.state == .conflicted else { return }
        let record = try write.remote(as: Entity.self)
        let base = try write.base(as: Entity.self)
        let local = try write.local(as: Entity.self)
        var fields: Set<String> = []
        if let local, let record { fields = compare(base: base, local: local, remote: record)?.competing ?? [] }
        let conflict = Conflict(base: base, local: local, remote: record, fields: fields)
        try apply(
            action(resolving: conflict, with: resolution), to: &write,
            later: all.filter { $0.sequence > write.sequence },
            remote: record, in: tx)
    }

    /// Sends a refused or parked write again.
    func retry(_ held: PendingWrite, in tx: ObjectTransaction) throws {
        guard var write = try tx.first(OutboxTable.these([held])), write.collection == name else { return }
        try take(&write, in: tx) { $0.retried(key: Self.newKey()) }
    }

    /// Drops a write, and puts the record back as the server last had it (its base, keeping the
    /// fields only this device keeps) when no write of it follows.
    func discard(_ held: PendingWrite, in tx: ObjectTransaction) throws {
        guard held.collection == name else { return }
        let all = try writes(of: held.recordID, in: tx)
        guard let write = all.first(where: { $0.key == held.key }) else { return }
        try remove([write], in: tx)
        guard !all.contains(where: { $0.sequence > write.sequence }) else { return }
        if let base = try write.base(as: Entity.self) {
            try storeRemote(base, in: tx)
        } else {
            _ = try tx.delete(Entity.self, id: try SyncJSON.decode(Entity.ID.self, from: write.identity))
        }
    }
}
