import Foundation
import Locking

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
