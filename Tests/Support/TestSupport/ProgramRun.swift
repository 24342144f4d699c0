public import Foundation

/// The result of running a program to its end: exit status and everything it printed.
public struct ProgramRun: Sendable, CustomStringConvertible {
    /// The exit status (or the signal number, when it was killed).
    public let status: Int32
    /// What it wrote to standard output.
    public let output: String
    /// What it wrote to standard error.
    public let errorOutput: String

    /// A summary for test failure messages.
    public var description: String {
        "exit status \(status)\n--- stdout ---\n\(output)\n--- stderr ---\n\(errorOutput)"
    }

    /// Runs a built product to its end, with a bound on how long it may take.
    ///
    /// - Parameters:
    ///   - name: the product's name, such as `booklab`.
    ///   - arguments: its arguments.
    ///   - environment: variables to set on top of (or, with a nil value, remove from) this
    ///     process's environment.
    ///   - timeout: how long to wait before killing it.
    /// - Returns: the run.
    /// - Throws: ``BuiltProductsError`` when the product is not built, ``ProgramRunError`` when
    ///   it cannot start or does not finish in time.
    public static func run(
        _ name: String, _ arguments: [String], environment: [String: String?] = [:],
        timeout: Duration = Patience.hang
    ) async throws -> ProgramRun {
        try await run(
            executable: BuiltProducts.executable(named: name), arguments, environment: environment, timeout: timeout)
    }

    /// Runs a program to its end, with a bound on how long it may take.
    ///
    /// - Parameters:
    ///   - executable: the program, such as the toolchain's `swiftc`.
    ///   - arguments: its arguments.
    ///   - environment: variables to set on top of (or, with a nil value, remove from) this
    ///     process's environment.
    ///   - timeout: how long to wait before killing it.
    /// - Returns: the run.
    /// - Throws: ``ProgramRunError`` when it cannot start or does not finish in time.
    public static func run(
        executable: URL, _ arguments: [String], environment: [String: String?] = [:],
        timeout: Duration = Patience.hang
    ) async throws -> ProgramRun {
        let name = executable.lastPathComponent
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            throw ProgramRunError(description: "\(name) could not start: \(error)")
        }
        // Read both pipes and wait for the exit on Dispatch's threads, never on the
        // cooperative pool (which has one thread per core): blocking there would stall every
        // other async test while the program runs.
        async let outData = Blocking.run { stdout.fileHandleForReading.readDataToEndOfFile() }
        async let errData = Blocking.run { stderr.fileHandleForReading.readDataToEndOfFile() }
        let seconds = Double(timeout.components.seconds)
        let waited = await Blocking.run { finished.wait(timeout: .now() + seconds) }
        if waited == .timedOut {
            process.terminate()
            _ = await (outData, errData)
            throw ProgramRunError(
                description: "\(name) \(arguments.joined(separator: " ")) did not finish in \(timeout)")
        }
        let (out, err) = await (outData, errData)
        return ProgramRun(
            status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
            errorOutput: String(decoding: err, as: UTF8.self))
    }
}

/// A program could not be run to its end.
public struct ProgramRunError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
}
