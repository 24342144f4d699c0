import Foundation
import Locking

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
