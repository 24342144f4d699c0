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
        let process: ChildProcess
        do {
            process = try ChildProcess(
                executable: executable, arguments, environment: ChildProcess.environment(changing: environment),
                standardOutput: .pipe, standardError: .pipe)
        } catch {
            throw ProgramRunError(description: "\(name) could not start: \(error)")
        }
        // Read both pipes and wait for the exit on threads of their own, never on the
        // cooperative pool (which has one thread per core): blocking there would stall every
        // other async test while the program runs.
        let stdout = process.standardOutput, stderr = process.standardError
        async let outData = Blocking.run { stdout?.readDataToEndOfFile() ?? Data() }
        async let errData = Blocking.run { stderr?.readDataToEndOfFile() ?? Data() }
        guard let ending = await process.exit(timeout: timeout) else {
            await process.kill()
            _ = await (outData, errData)
            throw ProgramRunError(
                description: "\(name) \(arguments.joined(separator: " ")) did not finish in \(timeout)")
        }
        let (out, err) = await (outData, errData)
        return ProgramRun(
            status: ending.status, output: String(decoding: out, as: UTF8.self),
            errorOutput: String(decoding: err, as: UTF8.self))
    }
}

/// A program could not be run to its end.
public struct ProgramRunError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
}
