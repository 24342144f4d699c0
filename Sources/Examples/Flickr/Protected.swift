import Foundation

/// A value shared between threads, read and changed only under its lock.
///
/// `@unchecked Sendable`: every access to `value` goes through `lock` (in `withLock`).
final class Protected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
