// A child process for the sync fault harness: runs one sync of the notes collection against a
// NotesBackend, which kills it (SIGKILL) when a request it was told to watch arrives.
//
//     SyncWorker <store file> <backend URL> [<overlap ms> [<concurrency>]]
//     SyncWorker library <store file> <PocketBase URL>     (Library.swift)
//     SyncWorker photos <store file> <backend URL> …       (Photos.swift)
//
// Environment: FETCHKIT_SYNC_NO_KEYS=1 describes the collection without idempotency keys (the
// harness's proof that a resend without them can fail the oracle). Updates are sent without a
// conflict check, so that an idempotency key is the only thing that keeps a resend single.

import FetchKit
import Foundation
import Persistence
import Sync
import SyncHarness

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "library", let server = URL(string: arguments[3]) {
    let token = ProcessInfo.processInfo.environment["SYNC_WORKER_TOKEN"] ?? ""
    exit(await syncLibrary(store: arguments[2], server: server, token: token))
}
if arguments.count >= 2, arguments[1] == "photos" {
    exit(await photos(Array(arguments.dropFirst(2))))
}
guard arguments.count >= 3, let base = URL(string: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: SyncWorker <store file> <backend URL> [<overlap ms>]\n".utf8))
    exit(2)
}
let withoutKeys = ProcessInfo.processInfo.environment["FETCHKIT_SYNC_NO_KEYS"] == "1"

/// One sync; the exit status.
func syncOnce(store path: String, base: URL, overlap: Int64, concurrency: Int) async -> Int32 {
    let store: ObjectStore
    do {
        store = try ObjectStore(at: URL(fileURLWithPath: path), entities: [Note.self] + SyncSchema.entities)
    } catch {
        FileHandle.standardError.write(Data("SyncWorker: \(error)\n".utf8))
        return 1
    }
    defer { store.close() }
    var notes = NotesAPI.collection(
        at: base, overlap: .time(.milliseconds(overlap)), pageSize: 5, conflictCheck: .none)
    if withoutKeys { notes.writes.idempotencyKeyHeader = nil }
    do {
        let mirror = try SyncedCollection(notes, store: store, client: NotesAPI.client(), concurrency: concurrency)
        let report = try await mirror.sync()
        print("sent \(report.writesSent), applied \(report.recordsApplied), pages \(report.pagesApplied)")
        return 0
    } catch {
        // A fault the harness injected leaves the writes queued for the next run.
        FileHandle.standardError.write(Data("SyncWorker: \(error)\n".utf8))
        return error.isTransient ? 0 : 1
    }
}

let overlap = arguments.count > 3 ? Int64(arguments[3]) ?? 5000 : 5000
let concurrency = arguments.count > 4 ? Int(arguments[4]) ?? 4 : 4
exit(await syncOnce(store: arguments[1], base: base, overlap: overlap, concurrency: concurrency))
