import Foundation
import Locking

/// Serializes the writers of one store inside this process (SQLite's own locking and
/// `BEGIN IMMEDIATE` still serialize writers across processes).
///
/// A thread that already holds the lock and asks again is told at once that it would
/// deadlock, and a waiter gives up after the busy timeout: nothing waits forever.
///
/// An in-memory store has one connection for all its contexts; it lives here, handed only
/// to the thread holding the lock.
final class WriterLock: @unchecked Sendable {
    // `@unchecked Sendable`: `owner` is guarded by `condition`; `connection` is read and
    // written only by the thread that holds the lock (between `lock` and `unlock`).
    private let condition = NSCondition()
    private var owner: pthread_t?
    private var connection: Connection?

    /// Creates the lock of a store; `shared` is an in-memory store's one connection.
    init(shared: Connection? = nil) {
        connection = shared
    }

    /// The in-memory store's connection, or nil (a file store, or closed); call only while
    /// holding the lock.
    var sharedConnection: Connection? {
        get { connection }
        set { connection = newValue }
    }

    func lock(timeout: Duration, purpose: String) throws(PersistenceError) {
        let me = pthread_self()
        condition.lock()
        defer { condition.unlock() }
        if let owner, pthread_equal(owner, me) != 0 {
            throw PersistenceError(
                .misuse,
                "\(purpose) was started on a context while this thread is inside a persist block of another "
                    + "context of the same store; it would wait for itself. Use the outer block's transaction instead.")
        }
        let deadline = Date(timeIntervalSinceNow: timeout.timeInterval)
        while owner != nil {
            if !condition.wait(until: deadline) && owner != nil {
                throw PersistenceError(
                    .busy,
                    "Another persist block held the store's write lock for more than \(timeout.readable). "
                        + "Keep persist blocks short, or raise Configuration.busyTimeout.")
            }
        }
        owner = me
    }

    func unlock() {
        condition.lock()
        owner = nil
        condition.signal()
        condition.unlock()
    }
}

/// A flag set from one thread and read from another.
final class LockedFlag: Sendable {
    private let value = Locked(false)

    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }

    /// Sets the flag and returns whether it was already set.
    func testAndSet() -> Bool {
        value.withLock { value in
            defer { value = true }
            return value
        }
    }
}
