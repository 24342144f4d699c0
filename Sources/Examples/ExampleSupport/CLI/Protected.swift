import Foundation

/// A value shared between threads, read and changed only under its lock.
///
/// `@unchecked Sendable`: every access to `value` goes through `lock` (in `withLock`).
public final class Protected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Creates the box holding `value`.
    ///
    /// - Parameter value: the first value.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, under the lock.
    ///
    /// - Parameter body: reads or changes the value.
    /// - Returns: what `body` returns.
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
