import Foundation
import Testing

@testable import Persistence
@testable import Sync

/// Every transition of a ``PendingWrite``'s life, from each state it starts in, without a store,
/// a server or a clock: what it sets, and whether it takes a new key.
@Suite("The outbox's state machine: transition by transition")
struct PendingWriteTransitionTests {
    static let payload = Data(#"{"id":"a","title":"mine"}"#.utf8)
    static let base = Data(#"{"id":"a","title":"base"}"#.utf8)
    static let server = Data(#"{"id":"a","title":"server"}"#.utf8)

    /// A write as it is in `state` after `attempts` sends, with every field a transition may clear.
    static func write(
        _ operation: PendingWrite.Operation = .update, _ state: PendingWrite.State = .pending, attempts: Int = 0
    ) -> PendingWrite {
        var write = PendingWrite.queued(
            key: "k1", collection: "notes", recordID: "a", operation: operation, sequence: 1, schemaVersion: 1,
            identity: Data(#""a""#.utf8), payload: operation == .delete ? nil : payload, base: base)
        write.state = state
        write.attempts = attempts
        write.reason = state == .rejected ? "refused" : nil
        write.lastError = attempts > 0 ? "lost" : nil
        write.nextAttempt = attempts > 0 ? Date(timeIntervalSince1970: 0) : nil
        write.remote = state == .conflicted ? server : nil
        return write
    }

    /// Whether the write is back to pending, never sent, with nothing left of its failures.
    static func isFresh(_ write: PendingWrite) -> Bool {
        write.state == .pending && write.attempts == 0 && write.reason == nil && write.lastError == nil
            && write.nextAttempt == nil
    }

    @Test("queued: pending, never sent, its base is its origin")
    func queued() {
        let write = Self.write()
        #expect(Self.isFresh(write))
        #expect(write.origin == Self.base)
        #expect(write.key == "k1")
    }

    @Test("Which writes a new change joins: not one on its way, not one sent with an unknown outcome")
    func takesNewChanges() {
        #expect(Self.write().takesNewChanges)
        #expect(!Self.write(.update, .sending, attempts: 1).takesNewChanges)
        #expect(!Self.write(.update, .pending, attempts: 1).takesNewChanges)
        #expect(Self.write(.update, .rejected, attempts: 1).takesNewChanges)
        #expect(Self.write(.update, .conflicted, attempts: 1).takesNewChanges)
        #expect(Self.write(.update, .conflicted, attempts: 0).takesNewChanges)
    }

    @Test(
        "coalesced: the new payload, fresh; a new key once sent",
        arguments: [
            (PendingWrite.State.pending, 0, false), (.rejected, 1, true), (.conflicted, 1, true),
            (.conflicted, 0, false),
        ])
    func coalesced(state: PendingWrite.State, attempts: Int, rekeys: Bool) {
        var write = Self.write(.update, state, attempts: attempts)
        let payload = Data(#"{"id":"a","title":"again"}"#.utf8)
        let transition = write.coalesced(payload: payload, schemaVersion: 2, key: "k2")
        #expect(transition == .updated)
        #expect(write.key == (rekeys ? "k2" : "k1"))
        #expect(Self.isFresh(write))
        #expect(write.payload == payload)
        #expect(write.schemaVersion == 2)
        // A parked conflict's fix starts from the server's version.
        #expect(write.base == (state == .conflicted ? Self.server : Self.base))
        #expect(write.remote == nil)
        #expect(write.origin == Self.base)
    }

    @Test("coalesced into a delete: an update; into a conflict with a deleted record: a create")
    func coalescedOperations() {
        var delete = Self.write(.delete)
        _ = delete.coalesced(payload: Self.payload, schemaVersion: 1, key: "k2")
        #expect(delete.operation == .update)
        var gone = Self.write(.update, .conflicted, attempts: 1)
        gone.remote = nil
        _ = gone.coalesced(payload: Self.payload, schemaVersion: 1, key: "k2")
        #expect(gone.operation == .create)
        #expect(gone.base == nil)
    }

    @Test("deleteJoined: a create never applied goes with its record; anything else becomes the delete")
    func deleteJoined() {
        var unsent = Self.write(.create)
        #expect(unsent.deleteJoined(key: "k2") == .removed)
        var refused = Self.write(.create, .rejected, attempts: 1)
        #expect(refused.deleteJoined(key: "k2") == .removed)
        var parked = Self.write(.create, .conflicted, attempts: 1)
        parked.base = nil
        #expect(parked.deleteJoined(key: "k2") == .updated)
        #expect(parked.key == "k2")
        #expect(parked.operation == .delete)
        #expect(parked.payload == nil)
        #expect(parked.base == Self.payload)  // the record as last known addresses the delete
        #expect(Self.isFresh(parked))
        var update = Self.write(.update)
        #expect(update.deleteJoined(key: "k2") == .updated)
        #expect(update.operation == .delete)
        #expect(update.base == Self.base)
    }

    @Test("chosen and unchosen: on its way with one more attempt, and back")
    func chosen() {
        var write = Self.write()
        write.chosen()
        #expect(write.state == .sending)
        #expect(write.attempts == 1)
        write.unchosen()
        #expect(write.state == .pending)
        #expect(write.attempts == 0)
    }

    @Test("rejected: the reason kept, no retry planned")
    func rejected() {
        var write = Self.write(.update, .sending, attempts: 1)
        write.rejected("The title may not start with refuse.")
        #expect(write.state == .rejected)
        #expect(write.reason == "The title may not start with refuse.")
        #expect(write.nextAttempt == nil)
        #expect(write.attempts == 1)
    }

    @Test("failed: pending after the wait; an answer before anything was applied does not count")
    func failed() {
        let now = Date(timeIntervalSince1970: 1_000)
        var lost = Self.write(.update, .sending, attempts: 2)
        lost.failed("connection lost", retryAfter: .seconds(3), now: now)
        #expect(lost.state == .pending)
        #expect(lost.attempts == 2)
        #expect(lost.lastError == "connection lost")
        #expect(lost.nextAttempt == now.addingTimeInterval(3))
        var throttled = Self.write(.update, .sending, attempts: 1)
        throttled.failed("429", retryAfter: .seconds(1), applied: false, now: now)
        #expect(throttled.attempts == 0)
        var refused = Self.write(.update, .sending, attempts: 1)
        refused.unauthorized("401")
        #expect(refused.state == .pending)
        #expect(refused.attempts == 0)
        #expect(refused.lastError == "401")
    }

    @Test("conflicted and sawServerVersion: the server's version kept with the write")
    func conflicted() {
        var write = Self.write(.update, .sending, attempts: 1)
        write.sawServerVersion(Self.server)
        #expect(write.state == .sending)
        #expect(write.remote == Self.server)
        write.conflicted(remote: nil)
        #expect(write.state == .conflicted)
        #expect(write.remote == nil)
    }

    @Test(
        "rebased: an earlier write's answer is the base, its record made again over it; a create behind it is an update unless it deleted"
    )
    func rebased() {
        var create = Self.write(.create)
        let remade = Data(#"{"id":"a","title":"remade"}"#.utf8)
        create.rebased(onto: Self.server, payload: remade, earlier: .create)
        #expect(create.base == Self.server)
        #expect(create.payload == remade)
        #expect(create.operation == .update)
        #expect(create.origin == Self.base)
        var recreate = Self.write(.create)
        let payload = recreate.payload
        recreate.rebased(onto: nil, payload: nil, earlier: .delete)
        #expect(recreate.operation == .create)
        #expect(recreate.payload == payload)
    }

    @Test(
        "requeued: from the server's version, an update or a create by whether it has the record, a new key once sent",
        arguments: [true, false])
    func requeued(exists: Bool) {
        var write = Self.write(.update, .conflicted, attempts: 1)
        let merged = Data(#"{"id":"a","title":"merged"}"#.utf8)
        #expect(write.requeued(base: Self.server, exists: exists, payload: merged, key: "k2") == .updated)
        #expect(write.key == "k2")
        #expect(Self.isFresh(write))
        #expect(write.base == Self.server)
        #expect(write.remote == nil)
        #expect(write.payload == merged)
        #expect(write.operation == (exists ? .update : .create))
        var unsent = Self.write(.delete)
        #expect(unsent.requeued(base: Self.server, exists: true, payload: merged, key: "k2") == .updated)
        #expect(unsent.operation == .update)
        #expect(unsent.key == "k1")
    }

    @Test("retried: fresh, under a new key when the server saw the old one")
    func retried() {
        var rejected = Self.write(.update, .rejected, attempts: 1)
        #expect(rejected.retried(key: "k2") == .updated)
        #expect(rejected.key == "k2")
        #expect(Self.isFresh(rejected))
        var parked = Self.write(.update, .conflicted, attempts: 0)
        #expect(parked.retried(key: "k2") == .updated)
        #expect(parked.key == "k1")
    }

    @Test("changes(since:) assigns every stored column a transition can change, and none that did not change")
    func changesNameEveryColumn() {
        let before = Self.write()
        #expect(before.changes(since: before).isEmpty)
        var after = Self.write(.update, .conflicted, attempts: 2)
        after.key = "k2"
        after.collection = "others"
        after.recordID = "b"
        after.operation = .create
        after.reason = "why"
        after.schemaVersion = 2
        after.createdAt = before.createdAt.addingTimeInterval(5)
        after.identity = Data(#""b""#.utf8)
        after.payload = Self.server
        after.base = Self.payload
        after.origin = nil
        // Every stored property is a column of the same name; the sequence is the identity.
        let stored = Set(Mirror(reflecting: before).children.compactMap(\.label)).subtracting(["sequence"])
        let assigned = after.changes(since: before).map(\.column)
        #expect(stored.count == 16)
        #expect(Set(assigned) == stored)
        #expect(assigned.count == stored.count)
        var once = before
        once.payload = Self.server
        #expect(once.changes(since: before).map(\.column) == ["payload"])
    }
}
