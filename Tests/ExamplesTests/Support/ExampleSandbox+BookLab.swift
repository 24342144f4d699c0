import ExampleSupport
import Foundation
import Persistence
import TestSupport

extension ExampleSandbox {
    /// A sandbox for booklab.
    static func bookLab() throws -> ExampleSandbox {
        try ExampleSandbox(.bookLab)
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
        for (key, value) in self.environment(environment.mapValues { Optional($0) }) { merged[key] = value }
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
        try? await waitUntil("booklab to end") { !process.isRunning }
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

    /// The library as stored, sorted by title ignoring case.
    func libraryBooks(at url: URL? = nil) throws -> [LibraryBook] {
        try read([LibraryBook.self, SearchResult.self, LibraryAuthor.self], at: url) { tx in
            try tx.fetch(Query(sortedBy: [LibraryBook.title.ascending(caseInsensitive: true)]))
        }
    }

    /// The remembered search results, by number.
    func searchResults() throws -> [SearchResult] {
        try read([LibraryBook.self, SearchResult.self, LibraryAuthor.self]) { tx in
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
