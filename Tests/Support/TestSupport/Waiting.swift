import Foundation
import Locking

/// Waits until `condition` holds, checking every few milliseconds, for at most `timeout`: the
/// one wait verb of the tests.
///
/// The sleep only paces the checks (it suspends the task instead of blocking a thread); no
/// assertion depends on how long anything takes.
///
/// - Parameters:
///   - what: what is awaited, for the error.
///   - timeout: the bound (generous: it is reached only when something hangs).
///   - condition: what to wait for.
/// - Throws: ``TimedOut`` when the condition did not hold in time.
nonisolated(nonsending) public func waitUntil(
    _ what: String, within timeout: Duration = Patience.hang, _ condition: () -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !condition() {
        guard clock.now < deadline else { throw TimedOut(what: what) }
        try? await Task.sleep(for: .milliseconds(5))
    }
}
