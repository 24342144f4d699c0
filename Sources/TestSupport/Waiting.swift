import Foundation
import Locking

/// A test waited longer than its generous bound: something hung.
public struct TimedOut: Error, CustomStringConvertible {
    /// What the test waited for.
    public let what: String

    /// Creates the error.
    ///
    /// - Parameter what: what the test waited for.
    public init(what: String) {
        self.what = what
    }

    /// `timed out waiting for <what>`.
    public var description: String { "timed out waiting for \(what)" }
}

/// A value delivered from any thread, awaited with a bound; every delivery is recorded, so a
/// test can check that a callback ran exactly once.
public final class Arrival<Value: Sendable>: Sendable {
    private struct State {
        var values: [Value] = []
        var waiters: [CheckedContinuation<Value, any Error>] = []
    }

    private let state = Locked(State())

    /// Creates an arrival nothing was delivered to yet.
    public init() {}

    /// Records a delivery and resumes whoever waits for the first.
    ///
    /// - Parameter value: the delivered value.
    public func fulfill(_ value: Value) {
        let waiting = state.withLock { state in
            state.values.append(value)
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiting { waiter.resume(returning: value) }
    }

    /// How many times ``fulfill(_:)`` was called.
    public var count: Int { state.withLock { $0.values.count } }

    /// Every value delivered, in order.
    public var all: [Value] { state.withLock { $0.values } }

    /// The first value, waiting at most `timeout` for it.
    ///
    /// - Parameters:
    ///   - timeout: the bound.
    ///   - what: what is awaited, for the error.
    /// - Returns: the first value delivered.
    /// - Throws: ``TimedOut`` when nothing came in time.
    public func value(within timeout: Duration = Patience.hang, _ what: String = "a delivery") async throws -> Value {
        let timer = Task { [self] in
            try await Task.sleep(for: timeout)
            fail(what)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let first = state.withLock { state -> Value? in
                if let first = state.values.first { return first }
                state.waiters.append(continuation)
                return nil
            }
            if let first { continuation.resume(returning: first) }
        }
    }

    private func fail(_ what: String) {
        let waiting = state.withLock { state in
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiting { waiter.resume(throwing: TimedOut(what: what)) }
    }
}

/// Counts jobs in flight and remembers the most seen at once.
public final class InFlightCounter: Sendable {
    private let state = Locked<(current: Int, peak: Int, started: Int)>((0, 0, 0))

    /// Creates a counter at zero.
    public init() {}

    /// A job starts.
    public func enter() {
        state.withLock { state in
            state.current += 1
            state.started += 1
            state.peak = max(state.peak, state.current)
        }
    }

    /// A job ends.
    public func leave() {
        state.withLock { $0.current -= 1 }
    }

    /// The most jobs in flight at once.
    public var maximum: Int { state.withLock { $0.peak } }
    /// How many jobs started.
    public var startedCount: Int { state.withLock { $0.started } }
    /// How many jobs are in flight now.
    public var inFlight: Int { state.withLock { $0.current } }
}

/// A gate that async work waits at until the test opens it.
public final class Gate: Sendable {
    private let state = Locked<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Creates a closed gate.
    public init() {}

    /// Waits until the gate is open (at once when it is).
    public func wait() async {
        await withCheckedContinuation { continuation in
            let passes = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if passes { continuation.resume() }
        }
    }

    /// How many tasks wait at the gate.
    public var waiting: Int { state.withLock { $0.waiters.count } }

    /// Opens the gate for good, letting every waiter through.
    public func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiting { waiter.resume() }
    }
}

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
public func waitUntil(
    _ what: String, within timeout: Duration = Patience.hang, _ condition: () -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !condition() {
        guard clock.now < deadline else { throw TimedOut(what: what) }
        try? await Task.sleep(for: .milliseconds(5))
    }
}
