import Foundation

/// A value the example programs share between threads, behind an `NSLock`: the few lines an
/// app would write for itself (FetchKit's own lock box is internal to the library, and the
/// examples use only the library's products, so their code compiles as copied into an app).
///
/// ```swift
/// let count = Protected(0)
/// count.withLock { $0 += 1 }
/// ```
public final class Protected<Value> {
    private let lock = NSLock()
    private var value: Value

    /// Creates the box holding `value`.
    ///
    /// - Parameter value: the first value.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock for the whole call.
    ///
    /// - Parameter body: reads or changes the value; it must not call back into this box.
    /// - Returns: what `body` returns.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// `@unchecked Sendable`: every access to the value goes through `withLock`, which holds the
/// lock for the whole access; and only when `Value` is itself `Sendable`.
extension Protected: @unchecked Sendable where Value: Sendable {}
