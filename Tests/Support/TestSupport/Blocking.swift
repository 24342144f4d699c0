import Foundation

/// Blocking calls made from async tests without stalling the cooperative pool.
///
/// The pool has one thread per core (two on CI machines); a test that blocks one of them in
/// `DispatchSemaphore.wait`, `DispatchGroup.wait` or `Process.waitUntilExit` holds up every
/// other async test in the process for as long as it waits. Dispatch's global queues are no
/// place for such waits either: on Linux their threads are few and added slowly, and the stub
/// server and URLSession run on them, so each blocking call gets a thread of its own.
public enum Blocking {
    /// Runs a blocking call on a thread of its own and resumes the caller with its result.
    ///
    /// - Parameter body: the blocking call.
    /// - Returns: what `body` returned.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }
}
