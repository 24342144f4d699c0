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

    /// Waits until `condition` holds, checking every few milliseconds, for at most `timeout`.
    ///
    /// The sleep only paces the polling; it suspends the task instead of blocking a thread.
    ///
    /// - Parameters:
    ///   - timeout: the bound.
    ///   - condition: what to wait for.
    /// - Returns: whether `condition` held before the bound.
    public static func poll(upTo timeout: Duration, until condition: () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }
}
