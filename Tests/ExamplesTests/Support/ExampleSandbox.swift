import Foundation
import Persistence
import TestSupport

/// One test's example program: a temporary folder holding the program's store and its data
/// home (`XDG_DATA_HOME`), runs of the built program against them, and the store opened with
/// Persistence.
struct ExampleSandbox {
    /// An example program and what each of its runs is given.
    struct Program: Sendable {
        /// The built product's name.
        let name: String
        /// The store's file name in the sandbox.
        let storeFile: String
        /// Whether `--store <path>` comes before the other arguments (after them otherwise).
        let storeFirst: Bool
        /// The variables every run sets (a nil value removes one from the test's environment).
        let environment: @Sendable (_ dataHome: URL) -> [String: String?]

        /// booklab, never inheriting a mirror of the API.
        static let bookLab = Program(name: "booklab", storeFile: "library.sqlite", storeFirst: false) {
            ["XDG_DATA_HOME": $0.path, "BOOKLAB_API_URL": nil]
        }

        /// mustc, with no live key and fixed offline popularity.
        static let mustC = Program(name: "mustc", storeFile: "movies.sqlite", storeFirst: true) {
            [
                "XDG_DATA_HOME": $0.path, "MUSTC_OFFLINE_POPULARITY": "fixed", "MUSTC_OFFLINE_KEY": nil,
                "TMDB_API_KEY": nil, "TMDB_SESSION_ID": nil, "MUSTC_OFFLINE_NETWORK": nil,
            ]
        }

        /// flickr, with no live key, no offline key override, and the offline stream at tick 5.
        static let flickr = Program(name: "flickr", storeFile: "flickr.sqlite", storeFirst: false) {
            [
                "XDG_DATA_HOME": $0.path, "FLICKR_API_KEY": nil, "FLICKR_OFFLINE_KEY": nil,
                "FLICKR_OFFLINE_LATENCY": nil, "FLICKR_OFFLINE_TICK": "5",
            ]
        }
    }

    let program: Program
    let directory: TemporaryDirectory

    /// Creates an empty sandbox for `program`.
    init(_ program: Program) throws {
        self.program = program
        directory = try TemporaryDirectory(prefix: "ExampleSandbox-\(program.name)")
    }

    /// The store the runs use.
    var store: URL { directory.file(program.storeFile) }

    /// The store's path.
    var storePath: String { store.path }

    /// The data directory the program is given as `XDG_DATA_HOME`.
    var dataHome: URL { directory.file("data") }

    /// The environment of a run: the program's variables with `extra` on top.
    func environment(_ extra: [String: String?] = [:]) -> [String: String?] {
        var environment = program.environment(dataHome)
        for (key, value) in extra { environment.updateValue(value, forKey: key) }
        return environment
    }

    /// Runs the program with `arguments` and `--store` (this sandbox's store, or `storePath`,
    /// or none with `usesDefaultStore`), in ``environment(_:)`` with `environment` on top.
    func run(
        _ arguments: [String], storePath: String? = nil, usesDefaultStore: Bool = false,
        environment extra: [String: String?] = [:]
    ) async throws -> ProgramRun {
        let store = usesDefaultStore ? [] : ["--store", storePath ?? self.storePath]
        return try await ProgramRun.run(
            program.name, program.storeFirst ? store + arguments : arguments + store, environment: environment(extra))
    }

    /// Reads the store with Persistence, as another program sharing it would.
    func read<T>(
        _ entities: [any StoredEntity.Type], at url: URL? = nil, _ block: (ObjectTransaction) throws -> T
    ) throws -> T {
        let opened = try ObjectStore(at: url ?? store, entities: entities)
        defer { opened.close() }
        return try opened.context.readAndWait(block)
    }

    /// Writes into the store with Persistence, as another program sharing it would.
    func write(_ entities: [any StoredEntity.Type], _ block: (ObjectTransaction) throws -> Void) throws {
        let opened = try ObjectStore(at: store, entities: entities)
        defer { opened.close() }
        try opened.context.persistAndWait(block)
    }

    /// Removes the sandbox's folder.
    func remove() {
        directory.remove()
    }
}

extension ProgramRun {
    /// The lines of standard output.
    var lines: [String] { output.split(separator: "\n").map(String.init) }
}
