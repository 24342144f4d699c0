import ExampleSupport
import Foundation
import Persistence
import TestSupport

/// Runs booklab with a temporary store and data directory, and opens that store.
struct BookLabSandbox {
    let directory: TemporaryDirectory
    var store: URL { directory.file("library.sqlite") }

    init() throws {
        directory = try TemporaryDirectory(prefix: "BookLabTests")
    }

    /// Runs `booklab <arguments> --store <temp store>` with `XDG_DATA_HOME` in the temp dir.
    func run(
        _ arguments: [String], storePath: String? = nil, usesDefaultStore: Bool = false,
        environment: [String: String?] = [:]
    ) async throws -> ProgramRun {
        var environment = environment
        environment["XDG_DATA_HOME"] = dataHome.path
        if environment.index(forKey: "BOOKLAB_API_URL") == nil {
            environment.updateValue(nil, forKey: "BOOKLAB_API_URL")  // never inherit a mirror
        }
        return try await ProgramRun.run(
            "booklab", usesDefaultStore ? arguments : arguments + ["--store", storePath ?? store.path],
            environment: environment)
    }

    /// Starts booklab like ``run(_:storePath:usesDefaultStore:environment:)``, sends it SIGINT
    /// (Ctrl-C) as soon as `ready` is signalled, and waits (at most ``Patience/hang``) for it to end.
    ///
    /// The signal is sent from a thread of its own, not from the test's task: on a busy machine
    /// the task could resume after booklab's own request timeout had ended the search.
    func runInterrupted(
        _ arguments: [String], environment: [String: String], interruptWhen ready: DispatchSemaphore
    ) async throws -> InterruptedRun {
        let process = Process()
        process.executableURL = try BuiltProducts.executable(named: "booklab")
        process.arguments = arguments + ["--store", store.path]
        var merged = ProcessInfo.processInfo.environment
        merged["XDG_DATA_HOME"] = dataHome.path
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        // Files, not pipes: nothing has to read them while the program runs.
        let outURL = directory.file("interrupted.out")
        let errURL = directory.file("interrupted.err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let stdout = try FileHandle(forWritingTo: outURL)
        let stderr = try FileHandle(forWritingTo: errURL)
        defer {
            try? stdout.close()
            try? stderr.close()
        }
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let isReady = await Blocking.run {
            guard ready.wait(timeout: Patience.hangDeadline) == .success else { return false }
            kill(pid, SIGINT)  // Ctrl-C
            return true
        }
        if !isReady, process.isRunning { process.terminate() }
        let clock = ContinuousClock()
        let deadline = clock.now + Patience.hang
        while process.isRunning, clock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning { process.terminate() }
        guard isReady, !process.isRunning else {
            throw InterruptedRun.Failure(
                description: isReady
                    ? "booklab did not end within \(Patience.hang) of SIGINT" : "booklab never became ready")
        }
        process.waitUntilExit()
        return InterruptedRun(
            status: process.terminationStatus, output: try String(contentsOf: outURL, encoding: .utf8),
            errorOutput: try String(contentsOf: errURL, encoding: .utf8))
    }

    /// The data directory the program is given as `XDG_DATA_HOME`.
    var dataHome: URL { directory.file("data") }

    /// The library as stored, sorted by title ignoring case.
    func libraryBooks(at url: URL? = nil) throws -> [LibraryBook] {
        let store = try ObjectStore(at: url ?? store, entities: [LibraryBook.self, SearchResult.self, LibraryAuthor.self])
        defer { store.close() }
        return try store.context.readAndWait { tx in
            try tx.fetch(Query(sortedBy: [LibraryBook.title.ascending(caseInsensitive: true)]))
        }
    }

    /// The remembered search results, by number.
    func searchResults() throws -> [SearchResult] {
        let store = try ObjectStore(at: store, entities: [LibraryBook.self, SearchResult.self, LibraryAuthor.self])
        defer { store.close() }
        return try store.context.readAndWait { tx in
            try tx.fetch(Query(sortedBy: [SearchResult.idField.ascending()]))
        }
    }
}

/// What a booklab run that was sent SIGINT printed, and how it ended.
struct InterruptedRun: CustomStringConvertible {
    /// The run could not be interrupted as planned.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let status: Int32
    let output: String
    let errorOutput: String

    var description: String { "exit status \(status)\n--- stdout ---\n\(output)\n--- stderr ---\n\(errorOutput)" }
}

extension ProgramRun {
    /// The lines of standard output.
    var lines: [String] { output.split(separator: "\n").map(String.init) }
}
