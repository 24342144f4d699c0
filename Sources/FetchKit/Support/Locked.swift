import Foundation

/// A value guarded by a lock, for state that several threads read and write.
///
/// `@unchecked Sendable`: every access to `value` goes through `withLock`, which holds
/// `lock` (an `NSLock`) for the whole access.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
