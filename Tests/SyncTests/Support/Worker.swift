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

    /// The running worker, for a backend fault that kills it.
    static let running = Locked<ChildProcess?>(nil)

    /// Kills the running worker (from a backend fault, after the write is applied).
    @Sendable static func killRunning() {
        running.withLock { $0 }?.send(SIGKILL)
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
        try await run(
            [fixture.storeURL.path, fixture.backend.baseURL.absoluteString, String(overlap), String(concurrency)],
            environment: ChildProcess.environment(changing: ["FETCHKIT_SYNC_NO_KEYS": withoutKeys ? "1" : nil]),
            registering: running)
    }

    /// Runs `SyncWorker` with `arguments` to its end, the process kept in `running` while it runs
    /// (for a kill).
    static func run(
        _ arguments: [String], environment: [String: String] = ChildProcess.environment(),
        registering running: Locked<ChildProcess?>
    ) async throws -> Ending {
        let process = try ChildProcess(
            executable: BuiltProducts.executable(named: "SyncWorker"), arguments, environment: environment,
            standardOutput: .pipe, standardError: .standardOutput)
        running.withLock { $0 = process }
        let data = await Blocking.run { process.standardOutput?.readDataToEndOfFile() ?? Data() }
        let ending = await process.exit(timeout: Patience.hang)
        running.withLock { $0 = nil }
        guard let ending else {
            await process.kill()
            throw WorkerError(description: "SyncWorker \(arguments.first ?? "") did not finish in \(Patience.hang)")
        }
        return Ending(
            killed: ending.signalled && ending.status == SIGKILL,
            status: ending.status, output: String(decoding: data, as: UTF8.self))
    }
}

/// The `SyncWorker` child process in its photos mode, one test's own (its kills reach only its
/// worker).
final class PhotosWorker: Sendable {
    let store: URL
    let backend: URL
    private let running = Locked<ChildProcess?>(nil)

    init(store: URL, backend: URL) {
        self.store = store
        self.backend = backend
    }

    /// Kills the running worker.
    @Sendable func kill() {
        running.withLock { $0 }?.send(SIGKILL)
    }

    /// Runs a photos command (`attach <id> <file>`, `sync`, `download <id>`) in a child process.
    func run(_ command: String...) async throws -> Worker.Ending {
        try await Worker.run(["photos", store.path, backend.absoluteString] + command, registering: running)
    }
}

extension Worker.Ending {
    /// The peak resident memory the worker printed, in kB.
    var peak: Int? {
        output.split(separator: "\n").last { $0.hasPrefix("peak ") }.flatMap { Int($0.dropFirst(5)) }
    }

    /// The file a download printed.
    var file: String? {
        output.split(separator: "\n").last { $0.hasPrefix("file ") }.map { String($0.dropFirst(5)) }
    }
}

struct WorkerError: Error, CustomStringConvertible {
    var description: String
}
