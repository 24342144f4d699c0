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
        // Files, not pipes: nothing has to read them while the program runs.
        let outURL = directory.file("interrupted.out")
        let errURL = directory.file("interrupted.err")
        let process = try ChildProcess(
            executable: BuiltProducts.executable(named: "booklab"), arguments + ["--store", store.path],
            environment: ChildProcess.environment(changing: self.environment(environment.mapValues { Optional($0) })),
            standardOutput: .file(outURL), standardError: .file(errURL))
        let isReady = await Blocking.run {
            guard ready.wait(timeout: Patience.hangDeadline) == .success else { return false }
            process.send(SIGINT)  // Ctrl-C
            return true
        }
        guard isReady, let ending = await process.exit(timeout: Patience.hang) else {
            await process.kill()
            throw InterruptedRun.Failure(
                description: isReady
                    ? "booklab did not end within \(Patience.hang) of SIGINT" : "booklab never became ready")
        }
        return InterruptedRun(
            status: ending.status, output: try String(contentsOf: outURL, encoding: .utf8),
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
