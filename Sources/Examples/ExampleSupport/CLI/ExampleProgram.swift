public import Foundation

/// What every example program shares: its name, usage text, store location, and the
/// one-line error and exit-status convention (0 on success, 1 on failure, 2 on a wrong call).
public struct ExampleProgram: Sendable {
    /// The program's name, such as `booklab`.
    public let name: String
    /// The full help text, printed by `--help`.
    public let help: String
    /// The one-line usage, printed after a wrong call.
    public let usage: String

    /// Creates the program description.
    ///
    /// - Parameters:
    ///   - name: the program's name.
    ///   - usage: the one-line usage.
    ///   - help: the full help text.
    public init(name: String, usage: String, help: String) {
        self.name = name
        self.usage = usage
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
            throw ExampleFailure("cannot create \(url.deletingLastPathComponent().path): \(error.localizedDescription)")
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
            throw ExampleFailure("--live needs an API key: set \(variable) in the environment")
        }
        return key
    }

    /// Runs the program's body and exits: status 0 after success, 2 with the message and the
    /// usage line after a ``UsageError``, 1 with a one-line message after any other error.
    /// `--help` or `-h` anywhere prints the help and exits 0.
    ///
    /// - Parameter body: the program, given its arguments.
    public func run(_ body: (inout Arguments) async throws -> Void) async -> Never {
        let words = Array(CommandLine.arguments.dropFirst())
        if words.contains("--help") || words.contains("-h") || words.first == "help" {
            print(help)
            exit(0)
        }
        var arguments = Arguments(words)
        do {
            try await body(&arguments)
            exit(0)
        } catch let error as UsageError {
            printError("\(name): \(error.description)\nusage: \(usage)\nRun '\(name) --help' for more.")
            exit(2)
        } catch {
            printError("\(name): \(Self.oneLine(error))")
            exit(1)
        }
    }

    /// Prints a line to standard error.
    ///
    /// - Parameter line: the text.
    public func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// An error's description, on one line.
    static func oneLine(_ error: any Error) -> String {
        String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// A failure an example reports as one line and exit status 1.
public struct ExampleFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for a person.
    public let description: String

    /// Creates the failure.
    ///
    /// - Parameter message: what went wrong.
    public init(_ message: String) {
        description = message
    }
}
