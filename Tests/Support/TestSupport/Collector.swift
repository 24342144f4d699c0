import Foundation
import Locking

/// Values collected from callbacks on any thread, in arrival order.
///
/// A synchronous test whose callbacks arrive on Dispatch queues waits for them with
/// ``wait(within:until:)``, which wakes at each ``append(_:)`` instead of polling.
public final class Collector<Value: Sendable>: Sendable {
    private let items = Locked<[Value]>([])
    /// Wakes ``wait(within:until:)`` after each append.
    private let appended = NSCondition()

    /// Creates an empty collector.
    public init() {}

    /// Adds a value.
    ///
    /// - Parameter value: the value.
    public func append(_ value: Value) {
        items.withLock { $0.append(value) }
        appended.lock()
        appended.broadcast()
        appended.unlock()
    }

    /// Blocks the calling thread until the values so far satisfy `condition`, for at most
    /// `timeout`; `condition` is checked now and after each append, never by polling.
    ///
    /// - Parameters:
    ///   - timeout: the bound (generous: it is reached only when something hangs).
    ///   - condition: what the values must satisfy, such as `{ $0.count == 2 }`.
    /// - Returns: whether `condition` held before the bound.
    public func wait(within timeout: Duration = Patience.hang, until condition: ([Value]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout.timeInterval)
        appended.lock()
        defer { appended.unlock() }
        // An append between the check and `wait` cannot be missed: it broadcasts under the
        // condition's lock, which `wait` gives up only once it waits.
        while !condition(items.current) {
            if !appended.wait(until: deadline) { return condition(items.current) }
        }
        return true
    }

    /// Every value so far.
    public var values: [Value] { items.current }

    /// How many values so far.
    public var count: Int { items.withLock { $0.count } }
}
