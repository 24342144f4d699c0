import Foundation
import Persistence

/// A write's life in the outbox, as transitions named for what happened: every change of a
/// write's state, key, attempts, failure, base or kept server version is one of them. (Two
/// statements apply ``chosen()`` and ``unchosen()`` to a whole round in SQL, and
/// ``upgrade(collection:from:in:_:)`` rewrites payloads in a migration; nothing else sets
/// these fields.)
///
/// ```text
///             queued ──▶ pending ──chosen──▶ sending ──acknowledged──▶ (gone)
///                         ▲  ▲                  │
///  coalesced, retried,    │  └──failed/refused credentials (backoff)
///  resolved, rebased ─────┘                     ├──rejected──▶ rejected ──edited/retried──▶ pending
///  (a new key once sent)                        └──conflicted─▶ conflicted ──resolved/edited──▶ pending
/// ```
///
/// A transition that changes what a sent write carries (its payload, its operation, its base
/// after a conflict) gives it a new idempotency key: the server may hold an answer for the old
/// one. The key is a column of the write's row, so a new key is an update in place; the outbox
/// stores every transition (`Outbox.take(_:in:_:)`).
extension PendingWrite {
    /// How the store applies a transition.
    enum Transition: Equatable {
        /// The row is updated in place (with a new key, when the transition gave one).
        case updated
        /// The write is gone (acknowledged, dropped with its record, discarded).
        case removed
    }

    /// A new write, pending, never sent.
    static func queued(
        key: String, collection: String, recordID: String, operation: Operation, sequence: Int64, schemaVersion: Int,
        identity: Data, payload: Data?, base: Data?
    ) -> PendingWrite {
        PendingWrite(
            key: key, collection: collection, recordID: recordID, operation: operation, state: .pending,
            sequence: sequence, attempts: 0, nextAttempt: nil, lastError: nil, reason: nil,
            schemaVersion: schemaVersion, createdAt: Date(), identity: identity, payload: payload, base: base,
            remote: nil, origin: base)
    }

    /// Whether a new local change of the record joins this write instead of queueing one behind
    /// it: it is the record's last, not on its way, and either never sent or refused or parked
    /// (the change is its fix). A write sent with an unknown outcome is not joined.
    var takesNewChanges: Bool {
        state != .sending && (attempts == 0 || state != .pending)
    }

    /// Back to pending and never sent, with a new key when it was sent before: what every
    /// transition that changes a write's content ends with. `key` is asked only then (a new key
    /// reads the system's random generator; most joined writes were never sent).
    private mutating func restart(key: () -> String) -> Transition {
        let sent = attempts > 0
        state = .pending
        attempts = 0
        reason = nil
        lastError = nil
        nextAttempt = nil
        if sent { self.key = key() }
        return .updated
    }

    /// A save joined this write (``takesNewChanges``): its payload is the new record; a delete
    /// becomes an update; a parked conflict takes the server's version as its base.
    mutating func coalesced(payload: Data, schemaVersion: Int, key: @autoclosure () -> String) -> Transition {
        if operation == .delete { operation = .update }
        if state == .conflicted {
            base = remote
            remote = nil
            if base == nil, operation == .update { operation = .create }
            if base != nil, operation == .create { operation = .update }
        }
        self.payload = payload
        self.schemaVersion = schemaVersion
        return restart(key: key)
    }

    /// A delete joined this write (``takesNewChanges``). A create the server never applied is
    /// dropped with its record; anything else becomes the delete, addressed by the record as
    /// last known.
    mutating func deleteJoined(key: @autoclosure () -> String) -> Transition {
        if operation == .create, attempts == 0 || state == .rejected { return .removed }
        operation = .delete
        base = base ?? payload
        payload = nil
        return restart(key: key)
    }

    /// The app sent it again after a refusal or a conflict.
    mutating func retried(key: @autoclosure () -> String) -> Transition {
        restart(key: key)
    }

    /// Chosen for a round: on its way, one more attempt.
    mutating func chosen() {
        state = .sending
        attempts += 1
    }

    /// A chosen round put back unsent.
    mutating func unchosen() {
        state = .pending
        attempts = max(0, attempts - 1)
    }

    /// The server refused it for good.
    mutating func rejected(_ why: String) {
        state = .rejected
        reason = why
        nextAttempt = nil
    }

    /// The send failed on the way: pending again, tried after `wait`. `applied: false` when the
    /// server answered before applying anything (a `429`, a `401`): the attempt does not count.
    mutating func failed(_ message: String, retryAfter wait: Duration, applied: Bool = true, now: Date = Date()) {
        if !applied { attempts = max(0, attempts - 1) }
        state = .pending
        lastError = message
        nextAttempt = now.addingTimeInterval(wait.timeInterval)
    }

    /// The credentials were refused: pending, the attempt not counted, the queue waits.
    mutating func unauthorized(_ message: String) {
        attempts = max(0, attempts - 1)
        state = .pending
        lastError = message
    }

    /// Parked on a conflict with the server's version (`nil`: the server deleted the record).
    mutating func conflicted(remote: Data?) {
        state = .conflicted
        self.remote = remote
    }

    /// A pull saw the server's version while the write's outcome is unknown: kept with it.
    mutating func sawServerVersion(_ remote: Data?) {
        self.remote = remote
    }

    /// The write before it was settled: `base` (the server's answer, or that write's record) is
    /// this write's base, and `payload` (when given) its record made again over that base; a
    /// create of a record the server now has is an update.
    mutating func rebased(onto base: Data?, payload: Data?, earlier: Operation) {
        self.base = base
        if let payload { self.payload = payload }
        if operation == .create, earlier != .delete { operation = .update }
    }

    /// A conflict was decided for the local change (kept, or merged into `payload`): queued
    /// again from the server's version, an update or a create by whether the server has the
    /// record.
    mutating func requeued(
        base: Data?, exists: Bool, payload: Data? = nil, key: @autoclosure () -> String
    ) -> Transition {
        if let payload {
            self.payload = payload
            if operation == .delete { operation = .update }
        }
        self.base = base
        remote = nil
        if !exists, operation == .update { operation = .create }
        if exists, operation == .create { operation = .update }
        return restart(key: key)
    }
}

extension PendingWrite {
    /// What a transition changed, as an update's assignments: the columns whose values differ
    /// from `before` (the same write before the transition). A save joining a write changes its
    /// payload and little else, so its update leaves the outbox's index alone.
    func changes(since before: PendingWrite) -> [Assignment<PendingWrite>] {
        var changes: [Assignment<PendingWrite>] = []
        if key != before.key { changes.append(Self.key.set(key)) }
        if collection != before.collection { changes.append(Self.collection.set(collection)) }
        if recordID != before.recordID { changes.append(Self.recordID.set(recordID)) }
        if operation != before.operation { changes.append(Self.operation.set(operation)) }
        if state != before.state { changes.append(Self.state.set(state)) }
        if attempts != before.attempts { changes.append(Self.attempts.set(attempts)) }
        if nextAttempt != before.nextAttempt { changes.append(Self.nextAttempt.set(nextAttempt)) }
        if lastError != before.lastError { changes.append(Columns.lastError.set(lastError)) }
        if reason != before.reason { changes.append(Columns.reason.set(reason)) }
        if schemaVersion != before.schemaVersion { changes.append(Self.schemaVersionField.set(schemaVersion)) }
        if createdAt != before.createdAt { changes.append(Columns.createdAt.set(createdAt)) }
        if identity != before.identity { changes.append(Columns.identity.set(identity)) }
        if payload != before.payload { changes.append(Columns.payload.set(payload)) }
        if base != before.base { changes.append(Columns.base.set(base)) }
        if remote != before.remote { changes.append(Self.remoteVersion.set(remote)) }
        if origin != before.origin { changes.append(Columns.origin.set(origin)) }
        return changes
    }

    /// The columns no query of the outbox reads, for ``changes(since:)``.
    private enum Columns {
        static let lastError = Field<PendingWrite, String?>("lastError")
        static let reason = Field<PendingWrite, String?>("reason")
        static let createdAt = Field<PendingWrite, Date>("createdAt")
        static let identity = Field<PendingWrite, Data>("identity")
        static let payload = Field<PendingWrite, Data?>("payload")
        static let base = Field<PendingWrite, Data?>("base")
        static let origin = Field<PendingWrite, Data?>("origin")
    }
}
