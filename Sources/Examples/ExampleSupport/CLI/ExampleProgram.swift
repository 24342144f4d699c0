public import Foundation
import Persistence

/// What every example program shares: its name, usage text, store location, and the
/// one-line error and exit-status convention (0 on success, 1 on failure, 2 on a wrong call).
public struct ExampleProgram: Sendable {
    /// The program's name, such as `booklab`.
    public let name: String
    /// The full help text, printed by `--help`.
    public let help: String
    /// The one-line usage, printed after a wrong call.
    public let usage: String
    /// Every flag and option the program's commands take, such as `--store`.
    public let options: Set<String>

    /// Creates the program description.
    ///
    /// - Parameters:
    ///   - name: the program's name.
    ///   - usage: the one-line usage.
    ///   - options: every flag and option its commands take (an unknown one is named in
    ///     the error of a call that has no command).
    ///   - help: the full help text.
    public init(name: String, usage: String, options: Set<String> = [], help: String) {
        self.name = name
        self.usage = usage
        self.options = options
        self.help = help
    }

    /// The default store file: `$XDG_DATA_HOME/<name>/<name>.sqlite`, or
    /// `~/.local/share/<name>/<name>.sqlite` when `XDG_DATA_HOME` is unset.
    ///
    /// - Parameter environment: the process environment.
    /// - Returns: the file URL (its folder is created by ``storeURL(option:environment:)``).
    public func defaultStoreURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty, xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home =
                environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            base = home.appendingPathComponent(".local/share", isDirectory: true)
        }
        return base.appendingPathComponent(name, isDirectory: true).appendingPathComponent("\(name).sqlite")
    }

    /// The store file to use: `--store <path>` when given, else ``defaultStoreURL(environment:)``;
    /// the default's folder is created on first use.
    ///
    /// - Parameters:
    ///   - option: the value of `--store`, if any.
    ///   - environment: the process environment.
    /// - Returns: the store file's URL.
    /// - Throws: ``ExampleFailure`` when the default folder cannot be created.
    public func storeURL(
        option: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    )
        throws(ExampleFailure) -> URL
    {
        if let option { return URL(fileURLWithPath: option) }
        let url = defaultStoreURL(environment: environment)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw ExampleFailure(
                "cannot create \(url.deletingLastPathComponent().path): \(error.localizedDescription)",
                fix: "give a store in a folder you can write to with --store <path>")
        }
        return url
    }

    /// The API key in environment variable `variable`, required for a live run.
    ///
    /// - Parameters:
    ///   - variable: the variable's name, such as `TMDB_API_KEY`.
    ///   - environment: the process environment.
    /// - Returns: the key (never print it).
    /// - Throws: ``ExampleFailure`` saying which variable to set, when it is unset or empty.
    public func liveKey(
        from variable: String, environment: [String: String] = ProcessInfo.processInfo.environment
    )
        throws(ExampleFailure) -> String
    {
        guard let key = environment[variable]?.trimmingCharacters(in: .whitespacesAndNewlines), !key.isEmpty else {
            throw ExampleFailure("--live needs an API key", fix: "set \(variable) in the environment")
        }
        return key
    }

    /// Runs the program's body and exits: status 0 after success, 2 with the message and the
    /// usage line after a ``UsageError``, 1 with a one-line message after any other error,
    /// 130 after Ctrl-C (see ``Interrupts``). `--help` or `-h` anywhere prints the help and
    /// exits 0.
    ///
    /// The Ctrl-C handler is installed before anything else, so a press at any moment is
    /// answered with one line saying what was kept.
    ///
    /// - Parameter body: the program, given its arguments; it runs in a task that the first
    ///   Ctrl-C cancels.
    public func run(_ body: @escaping @Sendable (inout Arguments) async throws -> Void) async -> Never {
        Interrupts.install(programName: name)
        let words = Array(CommandLine.arguments.dropFirst())
        if words.contains("--help") || words.contains("-h") || words.first == "help" {
            print(help)
            exit(0)
        }
        let options = options
        let task = Task { () -> (any Error)? in
            // A press during start-up: do nothing at all.
            if Interrupts.wereRequested { return CancellationError() }
            var arguments = Arguments(words, knownOptions: options)
            do {
                try await body(&arguments)
                return nil
            } catch {
                return error
            }
        }
        Interrupts.onFirstPress { task.cancel() }
        let failure = await task.value
        if Interrupts.wereRequested { Interrupts.stopNow() }
        switch failure {
        case nil:
            fflush(nil)
            exit(0)
        case let error as UsageError:
            printError("\(name): \(error.description)\nusage: \(usage)\nRun '\(name) --help' for more.")
            exit(2)
        case let error?:
            printError("\(name): \(Self.oneLine(error))")
            exit(1)
        }
    }

    /// Prints a line to standard error.
    ///
    /// - Parameter line: the text.
    public func printError(_ line: String) {
        Terminal.complain(line)
    }

    /// An error's description, on one line (Persistence's message without its type's name).
    public static func oneLine(_ error: any Error) -> String {
        ((error as? PersistenceError)?.message ?? String(describing: error)).oneLine
    }
}

/// A failure an example reports as one line, `<problem>; <fix>`, and exit status 1.
public struct ExampleFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for a person.
    public let problem: String
    /// What to do about it, when the program can say.
    public let fix: String?

    /// `cannot open the library at /x/b.sqlite: the directory /x does not exist; create it first`.
    public var description: String { fix.map { "\(problem); \($0)" } ?? problem }

    /// Creates the failure.
    ///
    /// - Parameters:
    ///   - problem: what went wrong.
    ///   - fix: what to do about it.
    public init(_ problem: String, fix: String? = nil) {
        self.problem = problem
        self.fix = fix
    }

    /// A store that cannot be opened, read or written: `<action>: <why>; <what to do>`, from
    /// Persistence's message (whose last sentence says what to do) or any other error.
    ///
    /// - Parameters:
    ///   - action: what failed, such as `cannot open the library at /x/b.sqlite`.
    ///   - error: the error that stopped it.
    ///   - fix: what to do when the error does not say.
    /// - Returns: the failure.
    public static func store(
        _ action: String, _ error: any Error, fix: String = "check the file, or give another one with --store <path>"
    ) -> ExampleFailure {
        guard let error = error as? PersistenceError else {
            return ExampleFailure("\(action): \(ExampleProgram.oneLine(error))", fix: fix)
        }
        let sentences = error.message.components(separatedBy: ". ").map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        }.filter { !$0.isEmpty }
        guard sentences.count > 1, let advice = sentences.last else {
            return ExampleFailure("\(action): \(lowercasingFirst(sentences.first ?? error.message))", fix: fix)
        }
        let why = sentences.dropLast().map(lowercasingFirst).joined(separator: ", ")
        return ExampleFailure("\(action): \(why)", fix: lowercasingFirst(advice))
    }

    /// `The store` → `the store`; a word in capitals (`SQLite`, `ISBN`) is kept.
    private static func lowercasingFirst(_ text: String) -> String {
        guard let first = text.first, first.isUppercase, text.dropFirst().first?.isLowercase == true else {
            return text
        }
        return first.lowercased() + text.dropFirst()
    }
}
