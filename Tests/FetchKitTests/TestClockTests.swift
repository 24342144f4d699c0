import FetchKitTesting
import Locking
import Testing

@Suite("Test clock")
struct TestClockTests {
    @Test func advanceWakesEverySleeperDueOnTheWayInDeadlineOrder() async throws {
        let clock = TestClock()
        let woken = Locked<[Int]>([])
        var tasks: [Task<Void, any Error>] = []
        for seconds in [3, 1, 2, 10] {
            tasks.append(
                Task {
                    try await clock.sleep(for: .seconds(seconds))
                    woken.withLock { $0.append(seconds) }
                })
        }
        #expect(await clock.sleepers(count: 4))
        await clock.advance(by: .seconds(5))
        #expect(woken.current == [1, 2, 3])
        #expect(clock.now.offset == .seconds(5))
        #expect(clock.sleeperCount == 1)
        await clock.run()
        #expect(woken.current == [1, 2, 3, 10])
        #expect(clock.now.offset == .seconds(10))
        for task in tasks { try await task.value }
    }

    @Test func aTaskWokenOnTheWaySleepsAgainWithinTheSameAdvance() async throws {
        let clock = TestClock()
        let ticks = Locked<[Duration]>([])
        let ticker = Task {
            for _ in 0..<5 {
                try await clock.sleep(for: .seconds(2))
                ticks.withLock { $0.append(clock.now.offset) }
            }
        }
        #expect(await clock.sleepers(count: 1))
        await clock.advance(by: .seconds(7))
        // Each wake-up happened at its own deadline, not at the end of the advance.
        #expect(ticks.current == [.seconds(2), .seconds(4), .seconds(6)])
        await clock.run()
        #expect(ticks.current == [.seconds(2), .seconds(4), .seconds(6), .seconds(8), .seconds(10)])
        try await ticker.value
    }

    @Test func aCancelledSleeperThrowsAndLeavesTheClock() async {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        #expect(await clock.sleepers(count: 1))
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func aDeadlineInThePastDoesNotSuspend() async throws {
        let clock = TestClock()
        await clock.advance(by: .seconds(1))
        try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)))
        #expect(clock.sleeperCount == 0)
    }

    @Test func waitingForSleepersGivesUpAfterItsRealTimeBound() async {
        let clock = TestClock()
        #expect(await clock.sleepers(count: 1, timeout: .milliseconds(20)) == false)
    }
}
