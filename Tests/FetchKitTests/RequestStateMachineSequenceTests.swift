import Foundation
import SeededRandom
import Testing

@testable import FetchKit

/// Random orders of the events a request meets, from many seeds: whatever the order, the
/// request completes exactly once, every slot it asks for is cancelled or released exactly
/// once, and every timer it arms is cancelled or fires.
@Suite struct RequestStateMachineSequenceTests {
    @Test(arguments: 0..<400)
    func everyOrderCompletesOnceAndReleasesWhatItHolds(seed: UInt64) {
        var world = MachineWorld(seed: seed)
        world.run()
        #expect(world.problems.isEmpty, "seed \(seed): \(world.problems) after \(world.log)")
        #expect(world.completions == 1, "seed \(seed): \(world.completions) completions after \(world.log)")
    }

    /// The walks reach the states they are meant to test: retries, parking, re-sends, renewed
    /// tokens, timeouts and ends during a hand-over all happen across the seeds.
    @Test func theWalksReachEveryKindOfEvent() {
        var seen: Set<String> = []
        for seed in UInt64(0)..<400 {
            var world = MachineWorld(seed: seed)
            world.run()
            for entry in world.log { seen.insert(String(entry.prefix { $0 != "(" && $0 != " " })) }
        }
        for kind in [
            "resend", "clockStarted", "timedOut", "retryTimerFired", "tokenRenewed", "tokenRejected", "lateGrant",
            "endDuringHandover", "stopRetrying", "cancel", "completedBeforeSent", "clockStartedBeforeGrant",
        ] {
            #expect(seen.contains(kind), "no walk reached \(kind)")
        }
    }
}
