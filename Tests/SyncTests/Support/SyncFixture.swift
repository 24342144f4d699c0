import FetchKit
import Foundation
import Persistence
import Sync
import SyncHarness
import TestSupport

/// A backend, a store file and a mirror of the notes collection between them.
final class SyncFixture: Sendable {
    let backend: NotesBackend
    let folder: TemporaryDirectory
    let storeURL: URL
    let store: ObjectStore

    init(hardDeletes: Bool = false) throws {
        backend = NotesBackend(hardDeletes: hardDeletes)
        try backend.start()
        folder = try TemporaryDirectory(prefix: "SyncTests")
        storeURL = folder.file("notes.sqlite")
        store = try ObjectStore(at: storeURL, entities: [Note.self] + SyncSchema.entities)
    }

    deinit {
        store.close()
        backend.server.stop()
        folder.remove()
    }

    func mirror(
        conflicts: ConflictPolicy<Note> = .serverWins, overlap: KeysetOverlap = .time(.seconds(5)), pageSize: Int = 5,
        conflictCheck: ConflictCheck<Note> = .readBeforeWrite, reconcileEvery: Duration? = nil, concurrency: Int = 4,
        batchSize: Int? = nil
    ) throws -> SyncedCollection<Note> {
        try SyncedCollection(
            NotesAPI.collection(
                at: backend.baseURL, overlap: overlap, pageSize: pageSize, conflictCheck: conflictCheck,
                reconcileEvery: reconcileEvery, batchSize: batchSize),
            store: store, client: NotesAPI.client(), conflicts: conflicts, concurrency: concurrency)
    }

    /// The notes in the store, by id.
    func local() throws -> [String: Note] {
        let notes = try store.context.readAndWait { tx in try tx.fetch(Query<Note>()) }
        return Dictionary(uniqueKeysWithValues: notes.map { ($0.id, $0) })
    }

    /// The store's notes as the server's records (title and body).
    func localContents() throws -> [String: String] {
        try local().mapValues { "\($0.title)|\($0.body)" }
    }

    /// The server's notes (title and body).
    func serverContents() -> [String: String] {
        backend.notes.mapValues { "\($0.title)|\($0.body)" }
    }

    /// The outbox.
    func outbox() throws -> [PendingWrite] {
        try store.context.readAndWait { tx in try tx.fetch(Query<PendingWrite>(sortedBy: [PendingWrite.sequence.ascending()])) }
    }

    /// Saves notes locally through `mirror`.
    func save(_ notes: Note..., through mirror: SyncedCollection<Note>) throws {
        try store.context.persistAndWait { tx in
            for note in notes { try mirror.save(note, in: tx) }
        }
    }

    /// Deletes a note locally through `mirror`.
    func delete(_ id: String, through mirror: SyncedCollection<Note>) throws {
        try store.context.persistAndWait { tx in try mirror.delete(id, in: tx) }
    }
}
