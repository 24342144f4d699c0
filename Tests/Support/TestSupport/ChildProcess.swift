public import Foundation
import Locking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process the tests start with `posix_spawn`, instead of Foundation's `Process`.
///
/// Foundation's `Process.run()` on Linux finds the highest open descriptor by scanning
/// `/proc/self/fd` with a read past its buffer (`findMaximumOpenFromProcSelfFD`, see
/// `Docs/KnownIssues.md`): AddressSanitizer stops the run there, and an unsanitized run crashed
/// on it once. This spawns directly: standard input from `/dev/null`, each output discarded,
/// piped, written to a file or inherited (see ``Output``), every other descriptor closed in the
/// child (so a child never holds a test's socket or another child's pipe open), default signal
/// dispositions and an empty mask. A thread of its own waits for the exit, so `isRunning` and
/// the status need no polling. On Linux it needs glibc 2.34 or later
/// (`posix_spawn_file_actions_addclosefrom_np`; Debian 12 has 2.36): with an older C library
/// every start throws a ``ProgramRunError`` that says so.
public final class ChildProcess: Sendable {
    /// Where the child's standard output or standard error goes.
    public enum Output: Sendable, Equatable {
        /// Discarded (`/dev/null`).
        case discarded
        /// A pipe the test reads from (``standardOutput`` or ``standardError``).
        case pipe
        /// This process's own (the test run's output).
        case inherited
        /// A file, created or emptied (nothing has to read it while the child runs).
        case file(URL)
        /// For standard error only: wherever standard output goes.
        case standardOutput
    }

    /// How a child ended.
    public struct Termination: Sendable, Equatable {
        /// The exit status, or the number of the signal that ended it (-1: the child could not be
        /// waited for).
        public let status: Int32
        /// Whether `status` is a signal number.
        public let signalled: Bool

        /// An ending with `status`, a signal's number when `signalled`.
        public init(status: Int32, signalled: Bool) {
            self.status = status
            self.signalled = signalled
        }
    }

    /// The child's process identifier.
    public let pid: pid_t
    /// The read end of the child's standard output, when it goes to a pipe.
    public let standardOutput: FileHandle?
    /// The read end of the child's standard error, when it goes to a pipe of its own.
    public let standardError: FileHandle?
    private let ended = DispatchSemaphore(value: 0)
    private let termination = Locked<Termination?>(nil)

    /// This process's environment with `changes` applied (a nil value removes a variable).
    ///
    /// - Parameter changes: variables to set or remove.
    /// - Returns: the environment for a child.
    public static func environment(changing changes: [String: String?] = [:]) -> [String: String] {
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in changes { merged[key] = value }
        return merged
    }

    /// Starts a program.
    ///
    /// - Parameters:
    ///   - executable: the program's file.
    ///   - arguments: its arguments (without the program's name).
    ///   - environment: its whole environment; ``environment(changing:)`` builds one from this
    ///     process's.
    ///   - directory: its working directory, or nil for this process's.
    ///   - standardOutput: where its standard output goes.
    ///   - standardError: where its standard error goes.
    /// - Throws: ``ProgramRunError`` when it cannot be started.
    public init(
        executable: URL, _ arguments: [String], environment: [String: String] = ChildProcess.environment(),
        directory: URL? = nil, standardOutput: Output = .discarded, standardError: Output = .discarded
    ) throws {
        let path = executable.path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        var childEnds: [Int32] = []
        defer { for fd in childEnds { close(fd) } }
        func pipeFor(_ target: Int32) throws -> FileHandle {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else {
                throw ProgramRunError(description: "\(path): no pipe (errno \(errno))")
            }
            // Close-on-exec on both ends, so no other child started meanwhile inherits them
            // (the spawn's `dup2` clears the flag on the child's copy).
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            childEnds.append(fds[1])
            posix_spawn_file_actions_adddup2(&actions, fds[1], target)
            return FileHandle(fileDescriptor: fds[0], closeOnDealloc: true)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var outHandle: FileHandle?
        var errHandle: FileHandle?
        #if canImport(Darwin)
            // POSIX_SPAWN_CLOEXEC_DEFAULT closes every descriptor no action names, 0–2 included.
            if standardOutput == .inherited { posix_spawn_file_actions_addinherit_np(&actions, 1) }
            if standardError == .inherited { posix_spawn_file_actions_addinherit_np(&actions, 2) }
        #endif
        do {
            switch standardOutput {
            case .pipe: outHandle = try pipeFor(1)
            case .inherited: break
            case .file(let url):
                posix_spawn_file_actions_addopen(&actions, 1, url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .discarded, .standardOutput: posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            }
            switch standardError {
            case .pipe: errHandle = try pipeFor(2)
            case .inherited: break
            case .file(let url):
                posix_spawn_file_actions_addopen(&actions, 2, url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .discarded: posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            case .standardOutput: posix_spawn_file_actions_adddup2(&actions, 1, 2)
            }
        }  // A pipe made before a failure is closed by its handle, released with it.
        if let directory {
            guard Self.addChangeDirectory(&actions, directory.path) else {
                throw ProgramRunError(description: "\(path): this C library cannot set a child's directory")
            }
        }
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        #if canImport(Darwin)
            flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #else
            guard Self.addCloseFrom(&actions, 3) else {
                throw ProgramRunError(description: "\(path): this C library cannot close a child's descriptors")
            }
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            outHandle = nil
            errHandle = nil
            throw ProgramRunError(description: "\(path) could not start: \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        self.standardOutput = outHandle
        self.standardError = errHandle
        Thread.detachNewThread { [ended, termination, pid] in
            // Wait for the end without reaping (`WNOWAIT`), then reap under the lock `send(_:)`
            // takes: until the end is recorded the pid stays this child's (a zombie at worst),
            // so a signal never reaches a process that reused the number.
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
            termination.withLock { ending in
                var status: Int32 = 0
                var reaped: pid_t
                repeat { reaped = waitpid(pid, &status, 0) } while reaped == -1 && errno == EINTR
                guard reaped == pid else {
                    // The child could not be waited for: no status to read.
                    ending = Termination(status: -1, signalled: false)
                    return
                }
                // WIFSIGNALED / WTERMSIG / WEXITSTATUS, spelled out: they are C macros.
                let signal = status & 0x7f
                ending =
                    signal != 0 && signal != 0x7f
                    ? Termination(status: signal, signalled: true)
                    : Termination(status: (status >> 8) & 0xff, signalled: false)
            }
            ended.signal()
        }
    }

    #if !canImport(Darwin)
        /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), looked up at run time:
        /// Swift's Glibc module declares it only under `_GNU_SOURCE`.
        private static func addCloseFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) -> Bool {
            typealias Function = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
            else { return false }
            return unsafeBitCast(symbol, to: Function.self)(&actions, lowest) == 0
        }
    #endif

    /// `posix_spawn_file_actions_addchdir_np`, looked up at run time on Linux (see
    /// `addCloseFrom`).
    private static func addChangeDirectory(_ actions: inout posix_spawn_file_actions_t, _ path: String) -> Bool {
        #if canImport(Darwin)
            return posix_spawn_file_actions_addchdir_np(&actions, path) == 0
        #else
            typealias Function =
                @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
            else { return false }
            return unsafeBitCast(symbol, to: Function.self)(&actions, path) == 0
        #endif
    }

    /// Whether the child has not ended yet.
    public var isRunning: Bool {
        termination.withLock { $0 } == nil
    }

    /// How it ended, or nil while it runs.
    public var ending: Termination? {
        termination.withLock { $0 }
    }

    /// Sends it a signal (nothing once it has ended and been reaped).
    ///
    /// - Parameter signal: such as `SIGINT` or `SIGKILL`.
    public func send(_ signal: Int32) {
        termination.withLock { ending in
            // Under the lock the waiting thread cannot record the end meanwhile; until it
            // has, the pid is still this child's (a zombie at worst), never a reused one.
            if ending == nil { _ = Foundation.kill(pid, signal) }
        }
    }

    /// Waits for the end on the calling thread, for at most `timeout` (forever when nil).
    ///
    /// - Parameter timeout: the bound.
    /// - Returns: how it ended, or nil when it still runs.
    public func waitBlocking(timeout: Duration? = nil) -> Termination? {
        if let timeout {
            guard ended.wait(timeout: timeout.fromNow) == .success else { return nil }
        } else {
            ended.wait()
        }
        ended.signal()  // For the next caller: the end stays reached.
        return ending
    }

    /// Waits for the end without holding a thread of the cooperative pool.
    ///
    /// - Parameter timeout: the bound (forever when nil).
    /// - Returns: how it ended, or nil when it still runs.
    public func exit(timeout: Duration? = nil) async -> Termination? {
        await Blocking.run { self.waitBlocking(timeout: timeout) }
    }

    /// Kills it (SIGKILL) when it still runs, and waits for the end.
    ///
    /// - Returns: how it ended.
    @discardableResult
    public func kill() async -> Termination? {
        send(SIGKILL)
        return await exit()
    }
}
