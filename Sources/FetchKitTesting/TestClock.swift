import Foundation
import Locking

/// A clock whose time moves only when a test moves it: timeouts, retry waits and periodic
/// ticks run at once, in order, and no test waits for real time to pass.
///
/// It has the semantics of swift-clocks' `TestClock`: ``advance(by:)`` moves time forward
/// step by step, waking every sleeper that falls due on the way in deadline order and
/// letting the woken tasks run (and sleep again) before it moves on; ``run()`` advances
/// until no sleeper is left. Give it to the code under test, such as
/// `FetchClient.Configuration.clock` or a `PeriodicFetcher`:
///
/// ```swift
/// let clock = TestClock()
/// let client = FetchClient {
///     $0.clock = clock
///     $0.timeout = .seconds(30)
/// }
/// let fetch = Task { try await client.fetch(server.url("/never-answers"), extracting: .data) }
/// await clock.sleepers(count: 1)         // the request is on the wire, its timeout armed
/// await clock.advance(by: .seconds(30))   // … and now it has timed out, in no real time
/// ```
///
/// Work that the code under test does on other threads (a response arriving from a
/// server) is not part of time: wait for its next sleeper with ``sleepers(count:within:timeout:)``,
/// which is told when one registers instead of polling.
public final class TestClock: Clock, Sendable {
    /// A point in the test clock's time: an offset from its start.
    public struct Instant: InstantProtocol, Sendable {
        /// The time since the clock started.
        public var offset: Duration

        /// Creates an instant at an offset from the clock's start.
        ///
        /// - Parameter offset: the time since the start.
        init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        ///
        /// - Parameter duration: how far to move.
        /// - Returns: the later instant.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The duration from this instant to `other`.
        ///
        /// - Parameter other: the later (or earlier) instant.
        /// - Returns: the signed duration between them.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        ///
        /// - Parameters:
        ///   - lhs: an instant.
        ///   - rhs: another instant.
        /// - Returns: `true` when `lhs` is earlier.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct Sleeper {
        let deadline: Instant
        let order: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct CountWaiter {
        let count: Int
        let within: Duration?
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [UUID: Sleeper] = [:]
        var nextOrder = 0
        var countWaiters: [UUID: CountWaiter] = [:]
    }

    private let state = Locked(State())

    /// Creates a clock at offset zero with no sleepers.
    public init() {}

    /// The clock's current time.
    public var now: Instant {
        state.withLock { $0.now }
    }

    /// Zero: the clock moves exactly as far as it is told.
    public var minimumResolution: Duration { .zero }

    /// The number of tasks sleeping on the clock now.
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// Suspends until the clock reaches `deadline` (at once when it already has).
    ///
    /// - Parameters:
    ///   - deadline: when to wake.
    ///   - tolerance: ignored.
    /// - Throws: `CancellationError` when the sleeping task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (wakeNow, satisfied) = state.withLock { state -> (Bool, [CountWaiter]) in
                    if deadline <= state.now { return (true, []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, order: state.nextOrder, continuation: continuation)
                    state.nextOrder += 1
                    return (false, Self.takeSatisfied(&state))
                }
                for waiter in satisfied { waiter.continuation.resume(returning: true) }
                if wakeNow {
                    continuation.resume()
                } else if Task.isCancelled {
                    // Cancelled before the sleeper was registered: onCancel found nothing to wake.
                    state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(
                        throwing: CancellationError())
                }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration`, waking every sleeper due on the way, in deadline
    /// order, and letting each woken task run before time moves on.
    ///
    /// - Parameter duration: how far to move; zero wakes only the sleepers already due.
    public func advance(by duration: Duration = .zero) async {
        await advance(to: now.advanced(by: max(.zero, duration)))
    }

    /// Moves time forward to `deadline` (never backward), waking every sleeper due on the
    /// way, in deadline order.
    ///
    /// - Parameter deadline: the time to reach.
    public func advance(to deadline: Instant) async {
        while let sleeper = state.withLock({ state -> Sleeper? in
            guard let (id, next) = state.sleepers.min(by: { Self.before($0.value, $1.value) }),
                next.deadline <= deadline
            else { return nil }
            state.sleepers.removeValue(forKey: id)
            if state.now < next.deadline { state.now = next.deadline }
            return next
        }) {
            sleeper.continuation.resume()
            await Self.yieldToWokenTasks()
        }
        state.withLock { state in
            if state.now < deadline { state.now = deadline }
        }
        await Self.yieldToWokenTasks()
    }

    /// Advances until no task sleeps on the clock (at most 10,000 wake-ups, so a task that
    /// sleeps again forever cannot hang the test).
    public func run() async {
        for _ in 0..<10_000 {
            guard let next = state.withLock({ $0.sleepers.values.min(by: Self.before)?.deadline }) else { return }
            await advance(to: next)
        }
    }

    /// Waits until at least `count` tasks sleep on the clock, told by each registration
    /// rather than by polling, for at most `timeout` of real time.
    ///
    /// With `within`, only sleepers due at most that long from now count: a test that waits
    /// for a 2-minute retry wait passes `within: .minutes(2)` and is not fooled by a request's
    /// 10-minute timeout sleeping on the same clock.
    ///
    /// - Parameters:
    ///   - count: the number of sleepers to wait for.
    ///   - within: how soon a sleeper must be due to count; `nil` counts every sleeper.
    ///   - timeout: a bound in real time, so a test that goes wrong fails instead of hanging;
    ///     the default, thirty minutes, outlasts a whole test suite that keeps a two-core machine
    ///     busy (a test runs among all the others, so it can take as long as the whole run), so
    ///     it is reached only when something hangs.
    /// - Returns: whether the count was reached.
    @discardableResult
    public func sleepers(count: Int = 1, within: Duration? = nil, timeout: Duration = HangBound.duration) async -> Bool {
        let id = UUID()
        let timer = Task {
            try? await Task.sleep(for: timeout)
            state.withLock { $0.countWaiters.removeValue(forKey: id) }?.continuation.resume(returning: false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let reached = state.withLock { state -> Bool in
                if Self.count(state, within: within) >= count { return true }
                state.countWaiters[id] = CountWaiter(count: count, within: within, continuation: continuation)
                return false
            }
            if reached { continuation.resume(returning: true) }
        }
    }

    private static func count(_ state: State, within: Duration?) -> Int {
        guard let within else { return state.sleepers.count }
        let limit = state.now.advanced(by: within)
        return state.sleepers.values.lazy.filter { $0.deadline <= limit }.count
    }

    private static func takeSatisfied(_ state: inout State) -> [CountWaiter] {
        let snapshot = state
        let due = state.countWaiters.filter { $0.value.count <= count(snapshot, within: $0.value.within) }
        for id in due.keys { state.countWaiters.removeValue(forKey: id) }
        return Array(due.values)
    }

    private static func before(_ lhs: Sleeper, _ rhs: Sleeper) -> Bool {
        lhs.deadline == rhs.deadline ? lhs.order < rhs.order : lhs.deadline < rhs.deadline
    }

    /// Lets tasks that were just resumed run up to their next suspension.
    private static func yieldToWokenTasks() async {
        for _ in 0..<20 { await Task.yield() }
    }
}
