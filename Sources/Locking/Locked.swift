#if canImport(Darwin)
    public import Darwin
#elseif canImport(Glibc)
    public import Glibc
#elseif canImport(Musl)
    public import Musl
#elseif canImport(Android)
    public import Android
#endif

/// A value guarded by a lock, for state that several threads read and write: the one lock
/// box of every module of the package (not a product; `public` rather than `package` because the
/// compiler inlines and specializes a `package` declaration's `@inlinable` body in no other module).
///
/// It is `Sendable` only when `Value` is, as swift-nio's `NIOLockedValueBox`: the lock
/// makes the accesses exclusive, but cannot make a non-`Sendable` value safe to hand to
/// another thread.
///
/// ```swift
/// let counts = Locked([String: Int]())
/// counts.withLock { $0["GET", default: 0] += 1 }
/// ```
///
/// Copies of a `Locked` share one value and one lock. The value and the mutex live in one
/// allocation (as in `NIOLockedValueBox`), not in a box plus an `NSLock` plus the mutex it
/// allocates: request state makes several of these per request. The box is inlinable, so
/// each caller gets a copy specialized for its value (no generic metadata looked up per call).
public struct Locked<Value> {
    @usableFromInline
    let storage: LockedStorage<Value>

    /// Creates the box holding `value`.
    ///
    /// - Parameter value: the first value.
    @inlinable
    public init(_ value: Value) {
        storage = LockedStorage.make(value)
    }

    /// Runs `body` with the value, holding the lock for the whole call.
    ///
    /// - Parameter body: reads or changes the value; it must not call back into this box.
    /// - Returns: what `body` returns.
    @inlinable
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }

    /// A copy of the value, read under the lock.
    public var current: Value {
        withLock { $0 }
    }
}

/// `@unchecked Sendable`: every access to the value goes through `withLock`, which holds the
/// storage's `pthread_mutex_t` for the whole access; and only when `Value` is itself `Sendable`.
extension Locked: @unchecked Sendable where Value: Sendable {}

/// The value (the buffer's header) and its mutex (the buffer's one element), in one allocation.
@usableFromInline
final class LockedStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    /// A storage holding `value`, its mutex initialized.
    @inlinable
    static func make(_ value: Value) -> LockedStorage<Value> {
        let buffer = create(minimumCapacity: 1) { _ in value }
        let storage = unsafeDowncast(buffer, to: LockedStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            // Fails only for an invalid attribute (none is given) or when memory runs out.
            let status = pthread_mutex_init(mutex, nil)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
        }
        return storage
    }

    /// Runs `body` on the value with the mutex held.
    @inlinable
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }

    deinit {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }
}
