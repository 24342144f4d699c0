import Foundation
import Persistence
import SeededRandom
import SyncHarness
import TestSupport
import Testing

@testable import FetchKit
@testable import Sync

/// The outbox at its boundary: a store file, one collection's outbox, and an in-memory server of
/// one note that takes partial updates and deduplicates by idempotency key. Local writes go
/// through the collection's public `save`; rounds, answers and pulls go through the outbox.
private final class OutboxBench {
    let folder: TemporaryDirectory
    let store: ObjectStore
    let mirror: SyncedCollection<Note>
    var outbox: Outbox<Note> { mirror.outbox }
    /// The server's note, its clock, and the answers it gave by idempotency key.
    var server: Note?
    var clock = 0
    var answers: [String: Note] = [:]

    init(_ policy: ConflictPolicy<Note>) throws {
        folder = try TemporaryDirectory(prefix: "OutboxTests")
        store = try ObjectStore(at: folder.file("notes.sqlite"), entities: [Note.self] + SyncSchema.entities)
        let collection = NotesAPI.collection(at: URL(string: "http://127.0.0.1:9")!, conflictCheck: .none)
        mirror = try SyncedCollection(collection, store: store, client: NotesAPI.client(), conflicts: policy)
    }

    deinit {
        store.close()
        folder.remove()
    }

    static func stamp(_ clock: Int) -> String { String(format: "%08d", clock) }

    /// Another client changes the server's note.
    func remoteEdit(title: String? = nil, body: String? = nil) {
        clock += 1
        var note = server ?? Note(id: "a", title: "")
        if let title { note.title = title }
        if let body { note.body = body }
        note.updated = Self.stamp(clock)
        server = note
    }

    /// The app deletes the note.
    func localDelete() throws {
        try store.context.persistAndWait { tx in try mirror.delete("a", in: tx) }
    }

    /// Another client deletes the note.
    func remoteDelete() {
        clock += 1
        server = nil
    }

    /// The app saves the row with these changes.
    func localEdit(title: String? = nil, body: String? = nil) throws {
        try store.context.persistAndWait { tx in
            var note = try tx.fetch(Note.self, id: "a") ?? Note(id: "a", title: "")
            if let title { note.title = title }
            if let body { note.body = body }
            try mirror.save(note, in: tx)
        }
    }

    var row: Note? { try? store.context.readAndWait { tx in try tx.fetch(Note.self, id: "a") } }
    var writes: [PendingWrite] {
        (try? store.context.readAndWait { tx in try tx.fetch(mirror.pendingWrites) }) ?? []
    }

    /// How a sent write fares: answered; applied with its answer lost; refused before anything
    /// was applied (`429`).
    enum Fate { case answered, answerLost, refusedForNow }

    /// Chooses a round and settles it, each write meeting `fate`: the server applies a write's
    /// changed fields once per key (a lost answer's resend is answered from the key).
    func push(_ fate: (PendingWrite) -> Fate, meanwhile: () throws -> Void = {}) throws {
        let outbox = outbox
        let round = try store.context.persistAndWait { tx in
            try outbox.chooseRound(
                size: 64, excluding: [], busy: [], honouringBackoff: false, now: Date(),
                waitingOnRelations: { _ in [] },
                in: tx)
        }
        try meanwhile()
        var outcomes: [SyncedCollection<Note>.Outcome] = []
        for write in round {
            let fate = fate(write)
            if fate == .refusedForNow {
                let busy = FetchError(code: .unacceptableStatus, statusCode: 429)
                outcomes.append(
                    .retry(SyncError(.requestFailed, collection: "notes", "refused for now", fetchError: busy), .zero))
                continue
            }
            let answer = try answers[write.key] ?? apply(write)
            answers[write.key] = answer
            outcomes.append(
                fate == .answered
                    ? .acknowledged(answer) : .retry(SyncError(.requestFailed, collection: "notes", "lost"), .zero))
        }
        try store.context.persistAndWait { tx in
            tx.allowEveryGuardedWrite()
            try outbox.settle(round, outcomes, in: tx)
        }
    }

    /// The server applies a write: a create whole, an update's fields changed since its base.
    private func apply(_ write: PendingWrite) throws -> Note {
        let local = try #require(try write.local(as: Note.self))
        var note = server ?? local
        if write.operation == .create || server == nil {
            note = local
        } else {
            let changed = ChangedFields(NoteFields(local), since: try write.base(as: Note.self).map(NoteFields.init))
            let fields = try JSONDecoder().decode([String: String].self, from: JSONEncoder().encode(changed))
            if let title = fields["title"] { note.title = title }
            if let body = fields["body"] { note.body = body }
        }
        clock += 1
        note.updated = Self.stamp(clock)
        server = note
        return note
    }

    /// A pull of the server's note, as a page applies it (its tombstone when it is gone).
    func pull() throws {
        let outbox = outbox
        let record = server
        try store.context.persistAndWait { tx in
            tx.allowEveryGuardedWrite()
            let writes = try outbox.writes(of: "a", in: tx)
            if !writes.isEmpty {
                _ = try outbox.pulled(record, over: writes, in: tx)
            } else if let record, (try tx.fetch(Note.self, id: "a")?.updated ?? "") < record.updated {
                try outbox.storeRemote(record, in: tx)
            } else if record == nil {
                _ = try tx.delete(Note.self, id: "a")
            }
        }
    }

    /// Pushes and pulls, every write answered, until nothing is left to send.
    func converge() throws {
        for _ in 0..<10 {
            try push { _ in .answered }
            try pull()
            if writes.isEmpty { return }
        }
    }
}

/// The server-held fields of a note, as the harness's update sends them.
private struct NoteFields: Encodable {
    var title: String
    var body: String

    init(_ note: Note) {
        title = note.title
        body = note.body
    }
}

@Suite("The outbox at its boundary: transitions, resolutions, and random sequences against a model")
struct OutboxTests {
    @Test(
        "A save queues a create; saves before it is sent join it; an answer removes it and stores the server's record")
    func createJoinedThenAnswered() throws {
        let bench = try OutboxBench(.serverWins)
        try bench.localEdit(title: "one")
        try bench.localEdit(body: "text")
        #expect(bench.writes.map(\.operation) == [.create])
        #expect(try bench.writes.first?.local(as: Note.self)?.body == "text")
        try bench.push { _ in .answered }
        #expect(bench.writes.isEmpty)
        #expect(bench.row == bench.server)
        #expect(bench.row?.updated == OutboxBench.stamp(1))
    }

    @Test("A save while a write is on its way queues behind it; the answer rebases it: its own change over the answer")
    func queuedBehindIsRebasedOnTheAnswer() throws {
        let bench = try OutboxBench(.serverWins)
        bench.remoteEdit(title: "base", body: "base body")
        try bench.pull()
        try bench.localEdit(title: "first")
        try bench.push { _ in .answerLost }
        try bench.localEdit(body: "second body")
        #expect(bench.writes.count == 2)
        // Meanwhile another client changes the title: the second write must not send the first
        // write's title back over it.
        bench.remoteEdit(title: "elsewhere")
        try bench.push { _ in .answered }
        // The first write's answer (replayed by its key: the record as it applied it) is the base.
        let rebased = try #require(bench.writes.first)
        #expect(try rebased.base(as: Note.self)?.title == "first")
        #expect(try rebased.local(as: Note.self)?.body == "second body")
        try bench.converge()
        #expect(bench.server?.title == "elsewhere")
        #expect(bench.server?.body == "second body")
        #expect(bench.row == bench.server)
    }

    @Test("A pull that brings a change to another field merges it under the unsent write, with no conflict")
    func pullMergesOtherFields() throws {
        let bench = try OutboxBench(.manual)
        bench.remoteEdit(title: "base", body: "base body")
        try bench.pull()
        try bench.localEdit(title: "mine")
        bench.remoteEdit(body: "theirs")
        try bench.pull()
        let write = try #require(bench.writes.first)
        #expect(write.state == .pending)
        #expect(try write.base(as: Note.self)?.body == "theirs")
        #expect(bench.row?.title == "mine")
        #expect(bench.row?.body == "theirs")
    }

    @Test("A pull that brings a change to the same field parks it (manual); keepLocal by hand sends the local value")
    func pullParksACompetingField() throws {
        let bench = try OutboxBench(.manual)
        bench.remoteEdit(title: "base", body: "base body")
        try bench.pull()
        try bench.localEdit(title: "mine")
        bench.remoteEdit(title: "theirs")
        try bench.pull()
        let write = try #require(bench.writes.first)
        #expect(write.state == .conflicted)
        try bench.store.context.persistAndWait { tx in
            tx.allowEveryGuardedWrite()
            try bench.outbox.resolve(write, with: .keepLocal, in: tx)
        }
        try bench.converge()
        #expect(bench.server?.title == "mine")
        #expect(bench.row == bench.server)
    }

    @Test("A note made again here after its delete stays when a pull brings another device's delete")
    func aRecreateBehindADeleteOutlivesTheServersDelete() throws {
        let bench = try OutboxBench(.serverWins)
        bench.remoteEdit(title: "base")
        try bench.pull()
        try bench.localDelete()
        // The delete is on its way (refused for now: nothing applied) when the note is made again.
        try bench.push({ _ in .refusedForNow }, meanwhile: { try bench.localEdit(title: "made again") })
        #expect(bench.writes.map(\.operation) == [.delete, .create])
        bench.remoteDelete()
        try bench.pull()
        #expect(bench.writes.map(\.operation) == [.create])
        #expect(bench.row?.title == "made again")
        try bench.converge()
        #expect(bench.server?.title == "made again")
        #expect(bench.row == bench.server)
    }

    @Test("discard puts back the base; retry sends a refused write again")
    func discardAndRetry() throws {
        let bench = try OutboxBench(.serverWins)
        bench.remoteEdit(title: "base")
        try bench.pull()
        try bench.localEdit(title: "mine")
        let write = try #require(bench.writes.first)
        try bench.store.context.persistAndWait { tx in
            tx.allowEveryGuardedWrite()
            try bench.outbox.discard(write, in: tx)
        }
        #expect(bench.writes.isEmpty)
        #expect(bench.row?.title == "base")
        try bench.localEdit(title: "again")
        try bench.store.context.persistAndWait { tx in
            guard var refused = try bench.outbox.writes(of: "a", in: tx).first else { return }
            refused.rejected("no")
            try bench.outbox.store(refused, in: tx)
        }
        try bench.push { _ in .answered }
        #expect(bench.writes.first?.state == .rejected)
        let refused = try #require(bench.writes.first)
        try bench.store.context.persistAndWait { tx in try bench.outbox.retry(refused, in: tx) }
        try bench.converge()
        #expect(bench.server?.title == "again")
    }

    /// Random sequences of local edits, edits elsewhere, pushes (answered, answer lost, refused
    /// for now) and pulls, then convergence. The model: a field only this device changed ends
    /// with its last local value; a field only the other client changed, with its last value
    /// there; a field both changed, with one of their values; the row equals the server's
    /// record and the outbox is empty.
    @Test(
        "Random sequences against the model: nothing one side did is lost to a change nobody made to that field",
        arguments: [ConflictPolicy<Note>.serverWins, .clientWins])
    func randomSequences(policy: ConflictPolicy<Note>) throws {
        for seed in UInt64(1)...80 {
            var random = SeededGenerator(seed: seed)
            let bench = try OutboxBench(policy)
            bench.remoteEdit(title: "t0", body: "b0")
            try bench.pull()
            var local: [String: [String]] = [:]
            var remote: [String: [String]] = [:]
            var log: [String] = []
            for step in 0..<Int.random(in: 4...24, using: &random) {
                let field = Bool.random(using: &random) ? "title" : "body"
                switch Int.random(in: 0..<5, using: &random) {
                case 0:
                    let value = "L\(step)"
                    try field == "title" ? bench.localEdit(title: value) : bench.localEdit(body: value)
                    local[field, default: []].append(value)
                    log.append("local \(field)=\(value)")
                case 1:
                    let value = "R\(step)"
                    field == "title" ? bench.remoteEdit(title: value) : bench.remoteEdit(body: value)
                    remote[field, default: []].append(value)
                    log.append("remote \(field)=\(value)")
                case 2, 3:
                    let fates: [OutboxBench.Fate] = [.answered, .answered, .answerLost, .refusedForNow]
                    let fate = fates[Int.random(in: 0..<fates.count, using: &random)]
                    try bench.push { _ in fate }
                    log.append("push \(fate)")
                default:
                    try bench.pull()
                    log.append("pull")
                }
            }
            try bench.converge()
            let story = "seed \(seed): " + log.joined(separator: ", ")
            #expect(bench.writes.isEmpty, "\(story)")
            #expect(bench.row == bench.server, "\(story)")
            for field in ["title", "body"] {
                let final = field == "title" ? bench.server?.title : bench.server?.body
                switch (local[field], remote[field]) {
                case (let mine?, nil): #expect(final == mine.last, "\(field): \(story)")
                case (nil, let theirs?): #expect(final == theirs.last, "\(field): \(story)")
                case (let mine?, let theirs?):
                    #expect(final == mine.last || theirs.contains(final ?? ""), "\(field): \(story)")
                case (nil, nil): #expect(final == (field == "title" ? "t0" : "b0"), "\(field): \(story)")
                }
            }
        }
    }

    /// The app discards a write while its round is out, and a new write takes its number (the
    /// outbox was empty): the round's answer, or its putting back, leaves the new write alone.
    @Test(
        "A write that took the number of one discarded while its round was out is not settled or put back in its place",
        arguments: [true, false])
    func aNumberGivenAgainWhileARoundIsOut(answered: Bool) throws {
        let bench = try OutboxBench(.serverWins)
        try bench.localEdit(title: "one")
        let outbox = bench.outbox
        let round = try bench.store.context.persistAndWait { tx in
            try outbox.chooseRound(
                size: 64, excluding: [], busy: [], honouringBackoff: false, now: Date(),
                waitingOnRelations: { _ in [] }, in: tx)
        }
        let sent = try #require(round.first)
        try bench.store.context.persistAndWait { tx in
            tx.allowEveryGuardedWrite()
            try outbox.discard(sent, in: tx)
        }
        try bench.localEdit(title: "two")
        try bench.store.context.persistAndWait { tx in
            tx.allowEveryGuardedWrite()
            if answered {
                let answer = Note(id: "a", title: "one", updated: OutboxBench.stamp(1))
                try outbox.settle(round, [.acknowledged(answer)], in: tx)
            } else {
                try outbox.unchoose(round, in: tx)
            }
        }
        let left = try #require(bench.writes.first)
        #expect(bench.writes.count == 1)
        #expect(left.sequence == sent.sequence)  // the number was given again
        #expect(left.key != sent.key)
        #expect(left.operation == .create)
        #expect(left.state == .pending)
        #expect(left.attempts == 0)
        #expect(bench.row?.title == "two")
    }
}
