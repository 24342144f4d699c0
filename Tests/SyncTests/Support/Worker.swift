import Foundation
import Locking
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `SyncWorker` child process: one sync of the notes collection in a process of its own,
/// which the backend kills with SIGKILL when a request it watches for arrives.
enum Worker {
    /// How a run ended.
    struct Ending: Sendable, CustomStringConvertible {
        /// Whether SIGKILL ended it.
        var killed: Bool
        /// Its exit status (or signal).
        var status: Int32
        /// What it printed.
        var output: String
        var description: String { killed ? "killed" : "exit \(status): \(output)" }
    }

    /// The process identifier of the running worker, for a backend fault that kills it.
    static let running = Locked<Int32?>(nil)

    /// Kills the running worker (from a backend fault, after the write is applied).
    @Sendable static func killRunning() {
        if let pid = running.withLock({ $0 }) { kill(pid, SIGKILL) }
    }

    /// Runs one sync in a child process.
    ///
    /// - Parameters:
    ///   - fixture: the store file and backend.
    ///   - withoutKeys: whether the collection is described without idempotency keys.
    ///   - overlap: the keyset overlap in milliseconds.
    ///   - concurrency: writes sent at once (1: in outbox order, so faults hit a known write).
    static func sync(
        _ fixture: SyncFixture, withoutKeys: Bool = false, overlap: Int = 5000, concurrency: Int = 1
    ) async throws -> Ending {
        let process = Process()
        process.executableURL = try BuiltProducts.executable(named: "SyncWorker")
        process.arguments = [
            fixture.storeURL.path, fixture.backend.baseURL.absoluteString, String(overlap), String(concurrency),
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["FETCHKIT_SYNC_NO_KEYS"] = withoutKeys ? "1" : nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        running.withLock { $0 = process.processIdentifier }
        let data = await Blocking.run { output.fileHandleForReading.readDataToEndOfFile() }
        let waited = await Blocking.run { finished.wait(timeout: Patience.hangDeadline) }
        running.withLock { $0 = nil }
        if waited == .timedOut {
            process.terminate()
            throw WorkerError(description: "SyncWorker did not finish in \(Patience.hang)")
        }
        return Ending(
            killed: process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL,
            status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}

struct WorkerError: Error, CustomStringConvertible {
    var description: String
}
