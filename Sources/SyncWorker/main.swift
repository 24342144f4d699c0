// A child process for the sync fault harness: runs one sync of the notes collection against a
// NotesBackend, and kills itself with SIGKILL at a kill point when asked.
//
//     SyncWorker <store file> <backend URL> [<overlap ms>]
//
// Environment: FETCHKIT_SYNC_KILL_AT=<kill point> kills the process the first time the run
// reaches it (beforeSend, afterResponse, midPage); FETCHKIT_SYNC_WEAKEN=<names> removes
// guarantees (the harness's proof that the kill can fail the oracle).

import FetchKit
import Foundation
import Persistence
import Sync
import SyncHarness

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
if let point = environment["FETCHKIT_SYNC_KILL_AT"].flatMap(SyncKillPoint.init(rawValue:)) {
    SyncTestHooks.shared.withLock { hooks in
        hooks.killPoint = { reached in
            if reached == point { kill(getpid(), SIGKILL) }
        }
    }
}
if let names = environment["FETCHKIT_SYNC_WEAKEN"] {
    let all: [String: SyncWeakening] = [
        "freshKeyPerAttempt": .freshKeyPerAttempt, "dropSendingWrites": .dropSendingWrites,
        "cursorBeforePage": .cursorBeforePage, "dropFailedWrites": .dropFailedWrites,
    ]
    let chosen = names.split(separator: ",").compactMap { all[String($0)] }
    SyncTestHooks.shared.withLock { $0.weakenings = SyncWeakening(chosen) }
}

do {
    let store = try ObjectStore(at: URL(fileURLWithPath: arguments[1]), entities: [Note.self] + SyncSchema.entities)
    let overlap = arguments.count > 3 ? Int64(arguments[3]) ?? 5000 : 5000
    let mirror = Mirror(
        NotesAPI.collection(at: base, overlap: .time(.milliseconds(overlap)), pageSize: 5), store: store,
        client: NotesAPI.client())
    let report = try await mirror.sync()
    print("sent \(report.writesSent), applied \(report.recordsApplied), pages \(report.pagesApplied)")
    store.close()
} catch {
    FileHandle.standardError.write(Data("SyncWorker: \(error)\n".utf8))
    exit(1)
}
