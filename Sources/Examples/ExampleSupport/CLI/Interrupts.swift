import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C for the example programs: one handler, installed before a program does anything,
/// so every command answers SIGINT with one line saying what was kept and exit status 130.
///
/// ``ExampleProgram/run(_:)`` installs it first thing. A command says, as it goes, what an
/// interruption would leave behind (``keep(_:)``); on the first Ctrl-C the command's task is
/// cancelled, and when it has stopped the program prints `<program>: interrupted; <kept>`
/// and exits 130. A second Ctrl-C stops at once (every store write is one transaction, so
/// the store keeps what was committed and nothing half-written). A command that handles
/// Ctrl-C itself (`flickr watch` lets the fetch in progress finish) takes it over with
/// ``takeOver(_:)``.
///
/// The signal handler only writes a byte to a pipe (async-signal-safe); a thread reading the
/// pipe does the rest, so nothing else runs inside the handler and no press
/// is lost between the program's start and its first `await`.
public enum Interrupts {
    /// What happens on the presses: the first cancels (or goes to a command's handler),
    /// later ones stop at once.
    struct State {
        var presses = 0
        var kept = "nothing was changed"
        var cancel: (@Sendable () -> Void)?
        var takeover: (@Sendable (Int) -> Void)?
        var programName = "program"
        /// Whether the program is ending after Ctrl-C (its line printed, `exit` called).
        var ending = false
    }

    static let state = Protected(State())

    /// Installs the handler (once per process) for the program `name`.
    ///
    /// - Parameter name: the program's name, for the interruption line.
    static func install(programName name: String) {
        let first = state.withLock { state -> Bool in
            defer { state.programName = name }
            return state.programName == "program"
        }
        guard first else { return }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        interruptPipeWriteEnd = ends[1]
        interruptPipeReadEnd = ends[0]
        let readEnd = ends[0]
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while true {
                // Wait for a byte, count the press, then take the byte: at every moment a press
                // is either a byte in the pipe or counted (see `wereRequested`).
                guard byteIsWaiting(in: readEnd, wait: true) else {
                    if errno == EINTR { continue }
                    return
                }
                let presses = state.withLock { state in
                    state.presses += 1
                    return state.presses
                }
                while read(readEnd, &byte, 1) < 0, errno == EINTR {}
                pressed(presses)
            }
        }
        signal(SIGINT) { _ in
            // `write` may set errno; the interrupted code must find the errno it left.
            let saved = errno
            var byte: UInt8 = 1
            _ = write(interruptPipeWriteEnd, &byte, 1)
            errno = saved
        }
    }

    /// Records what an interruption from now on would leave behind, said after
    /// `interrupted; ` (for example `the 80 results of pages 1 to 2 are numbered`).
    ///
    /// - Parameter text: what was kept, in a few words.
    public static func keep(_ text: String) {
        state.withLock { $0.kept = text }
    }

    /// Whether Ctrl-C was pressed, including a press the reading thread has not handled yet
    /// (a command that ends just after a press still ends as interrupted).
    ///
    /// The pipe is looked at first: the reading thread counts a press before it takes the press's
    /// byte, so a byte gone from the pipe was counted already.
    public static var wereRequested: Bool {
        (interruptPipeReadEnd >= 0 && byteIsWaiting(in: interruptPipeReadEnd, wait: false))
            || state.withLock { $0.presses > 0 }
    }

    /// Lets a command handle the first two presses itself; a third stops at once.
    ///
    /// - Parameter handler: called on the reading thread with the press count (1 or 2).
    public static func takeOver(_ handler: @escaping @Sendable (_ presses: Int) -> Void) {
        state.withLock { $0.takeover = handler }
    }

    /// Sets what the first press does when no command took Ctrl-C over: cancel the command's
    /// task. A press that came before is acted on at once.
    static func onFirstPress(_ cancel: @escaping @Sendable () -> Void) {
        let pressedAlready = state.withLock { state -> Bool in
            state.cancel = cancel
            return state.presses > 0
        }
        if pressedAlready { cancel() }
    }

    /// The line printed when the program ends after Ctrl-C.
    static var interruptedLine: String {
        state.withLock { "\($0.programName): interrupted; \($0.kept)" }
    }

    private static func pressed(_ presses: Int) {
        let (cancel, takeover) = state.withLock { state in (state.cancel, state.takeover) }
        if let takeover, presses <= 2 {
            takeover(presses)
        } else if presses == 1 {
            cancel?()
            // A command that does not notice the cancellation is not waited for long.
            DispatchQueue.global().asyncAfter(deadline: .now() + 5) { stopNow(suffix: " (stopped without waiting)") }
        } else {
            stopNow(suffix: " (stopped at once)")
        }
    }

    /// Prints the interruption line and exits 130, once: a second caller (the command ending
    /// as its grace period runs out) waits for the first one's `exit`, without a second line.
    static func stopNow(suffix: String = "") -> Never {
        let first = state.withLock { state in
            defer { state.ending = true }
            return !state.ending
        }
        guard first else {
            while true { sleep(60) }
        }
        Terminal.complain(interruptedLine + suffix)
        exit(130)
    }
}

/// The write end of the interrupt pipe, set once before the SIGINT handler is installed
/// and only read by the handler afterwards.
nonisolated(unsafe) private var interruptPipeWriteEnd: Int32 = -1

/// The read end of the interrupt pipe, set once before the SIGINT handler is installed and only
/// read afterwards.
nonisolated(unsafe) private var interruptPipeReadEnd: Int32 = -1

/// Whether a byte is waiting in the pipe `descriptor` reads: at once, or when one arrives.
///
/// - Parameters:
///   - descriptor: the pipe's read end.
///   - wait: wait for a byte (`false`: answer at once).
/// - Returns: `true` when a byte can be read; `false` otherwise, or on an error (`errno` says).
private func byteIsWaiting(in descriptor: Int32, wait: Bool) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, wait ? -1 : 0) > 0 && entry.revents & Int16(POLLIN) != 0
}
