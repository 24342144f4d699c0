import Foundation

/// A value guarded by a lock, for state that several threads read and write: the one lock
/// box of every module of the package (shared with `package` access, not a product).
///
/// It is `Sendable` only when `Value` is, as swift-nio's `NIOLockedValueBox`: the lock
/// makes the accesses exclusive, but cannot make a non-`Sendable` value safe to hand to
/// another thread.
///
/// ```swift
/// let counts = Locked([String: Int]())
/// counts.withLock { $0["GET", default: 0] += 1 }
/// ```
package final class Locked<Value> {
    private let lock = NSLock()
    private var value: Value

    /// Creates the box holding `value`.
    ///
    /// - Parameter value: the first value.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock for the whole call.
    ///
    /// - Parameter body: reads or changes the value; it must not call back into this box.
    /// - Returns: what `body` returns.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value, read under the lock.
    package var current: Value {
        withLock { $0 }
    }
}

/// `@unchecked Sendable`: every access to `value` goes through `withLock`, which holds `lock`
/// (an `NSLock`) for the whole access; and only when `Value` is itself `Sendable`.
extension Locked: @unchecked Sendable where Value: Sendable {}
