public import Foundation
import Locking

/// Reads a pipe to its end with blocking reads on a thread of its own.
///
/// Tests read a child process's output with this instead of `FileHandle.readabilityHandler`:
/// tearing down that handler's Dispatch read source races the descriptor's close, which on
/// Linux can crash libdispatch's event loop (swift-corelibs-libdispatch issue 949) and take the
/// whole test process with it. A blocking read registers nothing with Dispatch.
public final class PipeReader: Sendable {
    private let ended = DispatchSemaphore(value: 0)

    /// Starts reading; `received` is called on the reader's thread with each chunk, in order.
    ///
    /// Start it once the process that writes is running (the parent's copy of the pipe's
    /// write end is closed by then), or the end never comes.
    ///
    /// - Parameters:
    ///   - handle: the pipe's read end.
    ///   - received: what to do with each chunk read.
    public init(_ handle: FileHandle, received: @escaping @Sendable (Data) -> Void) {
        Thread.detachNewThread { [ended] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                received(data)
            }
            ended.signal()
        }
    }

    /// Waits until the pipe has been read to its end, for at most `timeout`.
    ///
    /// - Parameter timeout: the bound.
    /// - Returns: whether the end was reached in time.
    public func waitForEnd(timeout: Duration) async -> Bool {
        await Blocking.run { [ended] in
            guard ended.wait(timeout: timeout.fromNow) == .success else { return false }
            ended.signal()  // For the next caller: the end stays reached.
            return true
        }
    }
}
