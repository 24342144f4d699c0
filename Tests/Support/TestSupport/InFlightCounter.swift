import Foundation
import Locking

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
