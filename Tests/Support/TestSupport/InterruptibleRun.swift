import Foundation

/// A program run that a test interrupts: started, watched line by line, sent a signal.
public final class InterruptibleRun: @unchecked Sendable {
    // `@unchecked Sendable`: `output`, `triggers`, `reader` and `child` are guarded by `lock`; the rest is
    // immutable after init.
    private let lock = NSLock()
    private var output = ""
    private let executable: URL
    private let arguments: [String]
    private let environment: [String: String]
    private var child: ChildProcess?
    private let started = DispatchSemaphore(value: 0)
    private var reader: PipeReader?
    private var triggers: [Trigger] = []

    /// An action to take as soon as standard output contains some text.
    private struct Trigger {
        let text: String
        let action: @Sendable () -> Void
    }

    /// Starts a built product with its output watched.
    ///
    /// - Parameters:
    ///   - name: the product, such as `flickr`.
    ///   - arguments: its arguments.
    ///   - environment: variables to set on top of (or, with a nil value, remove from) this
    ///     process's environment.
    /// - Throws: when the product is not built or cannot start.
    ///   - startsNow: whether to start it at once; otherwise ``interruptOnceArmed(after:timeout:)``
    ///     starts it on the thread that watches it.
    public init(_ name: String, _ arguments: [String], environment: [String: String?], startsNow: Bool = true) throws {
        executable = try BuiltProducts.executable(named: name)
        self.arguments = arguments
        self.environment = ChildProcess.environment(changing: environment)
        if startsNow { try start() }
    }

    /// Starts the program and reads its standard output (see ``PipeReader`` for why not
    /// `readabilityHandler`).
    private func start() throws {
        let child = try ChildProcess(
            executable: executable, arguments, environment: environment, standardOutput: .pipe, standardError: .pipe)
        let reader = child.standardOutput.map { PipeReader($0) { [weak self] data in self?.received(data) } }
        lock.withLock {
            self.child = child
            self.reader = reader
        }
        started.signal()
    }

    /// The program, once started.
    private var process: ChildProcess? {
        lock.withLock { child }
    }

    /// Appends what the reader thread read and runs the triggers it satisfies.
    private func received(_ data: Data) {
        let due = lock.withLock { () -> [@Sendable () -> Void] in
            output += String(decoding: data, as: UTF8.self)
            let (due, waiting) = triggers.reduce(into: ([Trigger](), [Trigger]())) { parts, trigger in
                if output.contains(trigger.text) { parts.0.append(trigger) } else { parts.1.append(trigger) }
            }
            triggers = waiting
            return due.map(\.action)
        }
        for action in due { action() }
    }

    /// Everything printed to standard output so far.
    public var printed: String {
        lock.withLock { output }
    }

    /// Waits until standard output contains `text`, for at most `timeout`.
    public func waitForOutput(containing text: String, timeout: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while !printed.contains(text) {
            if clock.now >= deadline || process?.isRunning != true { return printed.contains(text) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// Sends SIGINT, as Ctrl-C does.
    public func interrupt() {
        process?.send(SIGINT)
    }

    /// Runs `action` on the thread that reads standard output as soon as it contains `text`.
    ///
    /// The action does not wait for the test's task to be scheduled: on a loaded machine the
    /// cooperative pool can be busy for seconds, longer than the program's own timeouts.
    public func when(output text: String, _ action: @escaping @Sendable () -> Void) {
        let now = lock.withLock { () -> Bool in
            if output.contains(text) { return true }
            triggers.append(Trigger(text: text, action: action))
            return false
        }
        if now { action() }
    }

    /// Sends SIGINT `delay` after the program started catching it (its Ctrl-C handler is
    /// installed, as `/proc/<pid>/status` shows on Linux; elsewhere 200 ms after the start).
    ///
    /// The waiting runs on a thread of its own, not on the cooperative pool, so a busy test
    /// process does not delay the signal past the moment meant.
    ///
    /// - Parameters:
    ///   - delay: how long after the handler is installed.
    ///   - timeout: how long to wait for the handler.
    /// - Returns: whether the handler was seen, or the program ended (or could not start) first;
    ///   the signal is sent only when it was seen.
    public func interruptOnceArmed(after delay: Duration, timeout: Duration) async -> Arming {
        await Blocking.run { () -> Arming in
            if self.process == nil {
                do { try self.start() } catch { return .endedFirst }
            }
            guard let process = self.process else { return .endedFirst }
            let deadline = Date().addingTimeInterval(Double(timeout.components.seconds))
            var seen = false
            while !seen, Date() < deadline, process.isRunning {
                seen = Self.catchesSIGINT(process.pid)
                if !seen { usleep(500) }
            }
            guard seen else { return process.isRunning ? .neverArmed : .endedFirst }
            let microseconds = delay.components.seconds * 1_000_000 + delay.components.attoseconds / 1_000_000_000_000
            if microseconds > 0 { usleep(useconds_t(microseconds)) }
            process.send(SIGINT)
            return .armed
        }
    }

    /// How ``interruptOnceArmed(after:timeout:)`` went.
    public enum Arming: Sendable, Equatable {
        /// The handler was seen and SIGINT sent.
        case armed
        /// The program ended before its handler was seen (it ran too fast to watch).
        case endedFirst
        /// The program ran past the timeout without catching SIGINT.
        case neverArmed
    }

    /// Whether the process catches SIGINT.
    private static func catchesSIGINT(_ pid: Int32) -> Bool {
        #if os(Linux)
            // Read to the end: procfs files report a size of 0, so a sized read gets nothing.
            guard let data = FileHandle(forReadingAtPath: "/proc/\(pid)/status")?.readDataToEndOfFile(),
                let status = String(data: data, encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
                let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
            else { return false }
            return mask & (1 << UInt64(SIGINT - 1)) != 0
        #else
            usleep(200_000)
            return true
        #endif
    }

    /// Waits for the program to end (killing it after `timeout`) and returns its status and
    /// output; `signalled` says the status is the number of a signal that ended it.
    public func finish(
        timeout: Duration
    ) async -> (status: Int32?, output: String, errorOutput: String, signalled: Bool) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        let process = await Blocking.run { [started] () -> ChildProcess? in
            guard started.wait(timeout: timeout.fromNow) == .success else { return nil }
            started.signal()
            return self.process
        }
        guard let process, let ending = await process.exit(timeout: clock.now.duration(to: deadline)) else {
            await process?.kill()
            return (nil, printed, "", false)
        }
        // The program has ended: its end of the pipe is closed, so the reader reaches the end
        // at once (unless a child it started still holds the pipe: then the output says so).
        let reachedEnd = await lock.withLock { reader }?.waitForEnd(timeout: Patience.hang) ?? true
        let errors = await Blocking.run { process.standardError?.readDataToEndOfFile() ?? Data() }
        let output = reachedEnd ? printed : printed + "\n[InterruptibleRun: standard output never reached its end]"
        return (
            ending.status, output, String(decoding: errors, as: UTF8.self), ending.signalled
        )
    }
}
