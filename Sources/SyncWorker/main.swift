// A child process for the sync fault harness: runs one sync of the notes collection against a
// NotesBackend, and kills itself with SIGKILL at a kill point when asked.
//
//     SyncWorker <store file> <backend URL> [<overlap ms> [<concurrency>]]
//
// Environment: FETCHKIT_SYNC_KILL_AT=<kill point> kills the process the first time the run
// reaches it (beforeSend, afterResponse, midPage); FETCHKIT_SYNC_WEAKEN=<names> removes
// guarantees (the harness's proof that the kill can fail the oracle). Updates are sent without a
// conflict check, so that an idempotency key is the only thing that keeps a resend single.

import FetchKit
import Foundation
import Persistence
import Sync
import SyncHarness
import Locking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 3, let base = URL(string: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: SyncWorker <store file> <backend URL> [<overlap ms>]\n".utf8))
    exit(2)
}
let environment = ProcessInfo.processInfo.environment
// `<point>` or `<point>:<n>`: killed the n-th time the run reaches the point (1 by default).
if let spec = environment["FETCHKIT_SYNC_KILL_AT"]?.split(separator: ":"),
    let point = spec.first.flatMap({ SyncKillPoint(rawValue: String($0)) })
{
    let count = spec.count > 1 ? Int(spec[1]) ?? 1 : 1
    let reached = Reached()
    SyncTestHooks.shared.withLock { hooks in
        hooks.killPoint = { at in
            if at == point, reached.next() == count { kill(getpid(), SIGKILL) }
        }
    }
}
if let names = environment["FETCHKIT_SYNC_WEAKEN"] {
    let all: [String: SyncWeakening] = [
        "freshKeyPerAttempt": .freshKeyPerAttempt, "dropSendingWrites": .dropSendingWrites,
        "cursorBeforePage": .cursorBeforePage, "dropFailedWrites": .dropFailedWrites,
        "rejectUnauthorized": .rejectUnauthorized, "resyncWithoutPrune": .resyncWithoutPrune,
        "noOverlap": .noOverlap, "concurrentPerRecord": .concurrentPerRecord,
    ]
    let chosen = names.split(separator: ",").compactMap { all[String($0)] }
    SyncTestHooks.shared.withLock { $0.weakenings = SyncWeakening(chosen) }
}

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
    let mirror = SyncedCollection(
        NotesAPI.collection(at: base, overlap: .time(.milliseconds(overlap)), pageSize: 5, conflictCheck: .none),
        store: store, client: NotesAPI.client(), concurrency: concurrency)
    do {
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

/// How many times the kill point was reached.
final class Reached: Sendable {
    private let count = Locked(0)
    func next() -> Int { count.withLock { $0 += 1; return $0 } }
}
