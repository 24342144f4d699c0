import Foundation

/// A value guarded by an `NSLock`, shared by the orchestration types.
///
/// `Synchronization.Mutex` needs macOS 15 and the package supports macOS 13, so this small
/// wrapper stands in for it. Every access to `value` goes through ``withLock(_:)``.
final class OrchestrationLock<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
