import Testing

@testable import FetchKit

/// The races the pipeline meets on a busy machine, each as the order of events that makes it,
/// without waiting for the timing that would produce it.
@Suite struct RequestStateMachineRaceTests {
    typealias Machine = RequestStateMachine

    static func running(parked: Bool = false) -> Machine {
        var machine = Machine(authenticates: false)
        _ = machine.prepared(answerLocally: false)
        _ = machine.attemptReady(1, token: nil)
        _ = machine.slotGranted(1, running: !parked)
        _ = machine.sent(1, exchange: 1, task: MachineTask(1))
        return machine
    }

    @Test func aResponseAfterTheTimeoutOnlyFreesItsSlot() {
        var machine = Self.running()
        #expect(MachineLabels.actions(machine.timedOut(1)) == "cancelTask(T1) attemptTimedOut(1)")
        #expect(
            MachineLabels.actions(machine.transportCompleted(1, exchange: 1, failed: false))
                == "releaseSlot(1) removeStaging(1)")
        #expect(MachineLabels.state(machine.state) == "processing(1)")
    }

    @Test func aTimeoutAfterTheResponseDoesNothing() {
        var machine = Self.running()
        #expect(
            MachineLabels.actions(machine.transportCompleted(1, exchange: 1, failed: false))
                == "releaseSlot(1) cancelTimeout(1) evaluate(1,1)")
        #expect(MachineLabels.actions(machine.timedOut(1)) == "")
    }

    @Test func aCancelDuringTheHandOverCompletesOnlyOnceTheTaskIsCancelled() {
        var machine = Machine(authenticates: false)
        _ = machine.prepared(answerLocally: false)
        _ = machine.attemptReady(1, token: nil)
        _ = machine.slotGranted(1, running: true)
        let cancel = machine.conclude(.failure(FetchError(code: .cancelled)))
        #expect(cancel.map(MachineLabels.actions) == "")
        #expect(machine.isFinished)
        #expect(machine.conclude(.success({})) == nil)
        #expect(
            MachineLabels.actions(machine.sent(1, exchange: 1, task: MachineTask(1)))
                == "cancelTask(T1) finish(cancelled)")
        #expect(
            MachineLabels.actions(machine.transportCompleted(1, exchange: 1, failed: true))
                == "releaseSlot(1,failed) removeStaging(1)")
    }

    @Test func aGrantThatArrivesAfterTheCancelIsHandedBack() {
        var machine = Machine(authenticates: false)
        _ = machine.prepared(answerLocally: false)
        _ = machine.attemptReady(1, token: nil)
        let cancel = machine.conclude(.failure(FetchError(code: .cancelled)))
        #expect(cancel.map(MachineLabels.actions) == "cancelSlotWait(1) finish(cancelled)")
        #expect(MachineLabels.actions(machine.slotGranted(1, running: true)) == "releaseSlot(1)")
        #expect(MachineLabels.actions(machine.slotGranted(1, running: true)) == "")
    }

    @Test func aParkedRequestSentAgainFreesItsSlotOnceThroughItsNewExchange() {
        var machine = Self.running(parked: true)
        #expect(MachineLabels.actions(machine.resend(1)) == "cancelTask(T1) resend(1,2)")
        #expect(MachineLabels.actions(machine.transportCompleted(1, exchange: 1, failed: true)) == "removeStaging(1)")
        #expect(MachineLabels.actions(machine.clockStarted(1)) == "countWait")
        #expect(MachineLabels.actions(machine.sent(1, exchange: 2, task: MachineTask(2))) == "armTimeout(1)")
        #expect(
            MachineLabels.actions(machine.transportCompleted(1, exchange: 2, failed: false))
                == "releaseSlot(1) cancelTimeout(1) evaluate(1,2)")
        #expect(MachineLabels.actions(machine.transportCompleted(1, exchange: 2, failed: false)) == "")
    }

    @Test func aClockStartedBeforeItsGrantArrivedStillArmsTheTimeout() {
        var machine = Machine(authenticates: false)
        _ = machine.prepared(answerLocally: false)
        _ = machine.attemptReady(1, token: nil)
        // The limiter's other thread starts the clock before this grant (parked) arrives.
        #expect(MachineLabels.actions(machine.clockStarted(1)) == "")
        #expect(MachineLabels.actions(machine.slotGranted(1, running: false)) == "countWait send(1,1)")
        #expect(MachineLabels.actions(machine.sent(1, exchange: 1, task: MachineTask(1))) == "armTimeout(1)")
        #expect(MachineLabels.actions(machine.timedOut(1)) == "cancelTask(T1) attemptTimedOut(1)")
    }

    @Test func aResendAskedForDuringTheHandOverHappensOnceTheTaskIsKnown() {
        var machine = Machine(authenticates: false)
        _ = machine.prepared(answerLocally: false)
        _ = machine.attemptReady(1, token: nil)
        _ = machine.slotGranted(1, running: false)
        #expect(MachineLabels.actions(machine.resend(1)) == "")
        #expect(
            MachineLabels.actions(machine.sent(1, exchange: 1, task: MachineTask(1)))
                == "cancelTask(T1) resend(1,2)")
        // The first exchange's completion frees nothing: the second holds the admission.
        #expect(MachineLabels.actions(machine.transportCompleted(1, exchange: 1, failed: true)) == "removeStaging(1)")
        _ = machine.sent(1, exchange: 2, task: MachineTask(2))
        #expect(
            MachineLabels.actions(machine.transportCompleted(1, exchange: 2, failed: false))
                == "releaseSlot(1) evaluate(1,2)")
    }

    @Test func stopRetryingWhileARetryWaitsForItsSlotEndsWithTheLastFailure() {
        var machine = Self.running()
        _ = machine.transportCompleted(1, exchange: 1, failed: true)
        _ = machine.attemptFailed(1, FetchError(code: .connectionLost), retryAfter: .seconds(1), clientStopped: false)
        _ = machine.retryTimerFired(1)
        _ = machine.attemptReady(2, token: nil)
        #expect(MachineLabels.state(machine.state) == "waitingForSlot(2)")
        #expect(MachineLabels.actions(machine.stopRetrying()) == "cancelSlotWait(2) finish(connectionLost)")
        // The limiter's grant, if it was already on its way, goes back.
        #expect(MachineLabels.actions(machine.slotGranted(2, running: true)) == "releaseSlot(2)")
    }

    @Test func stopRetryingWhileTheNextAttemptGetsItsTokenEndsWithTheLastFailure() {
        var machine = Machine(authenticates: true)
        _ = machine.prepared(answerLocally: false)
        _ = machine.attemptReady(1, token: TokenGrant(token: "old", epoch: 1))
        _ = machine.slotGranted(1, running: true)
        _ = machine.sent(1, exchange: 1, task: MachineTask(1))
        _ = machine.transportCompleted(1, exchange: 1, failed: false)
        #expect(
            MachineLabels.actions(machine.tokenRejected(1, status: 401, clientStopped: false)) == "renewToken(1,old)")
        #expect(MachineLabels.actions(machine.tokenRenewed(1)) == "startAttempt(2)")
        #expect(MachineLabels.actions(machine.stopRetrying()) == "finish(unacceptableStatus)")
        #expect(MachineLabels.actions(machine.attemptReady(2, token: nil)) == "")
    }

    @Test func aSecondRejectedTokenStands() {
        var machine = Machine(authenticates: true)
        _ = machine.prepared(answerLocally: false)
        for attempt in 1...2 {
            _ = machine.attemptReady(attempt, token: TokenGrant(token: "t\(attempt)", epoch: attempt))
            _ = machine.slotGranted(attempt, running: true)
            _ = machine.sent(attempt, exchange: attempt, task: MachineTask(attempt))
            _ = machine.transportCompleted(attempt, exchange: attempt, failed: false)
            let rejected = MachineLabels.actions(machine.tokenRejected(attempt, status: 401, clientStopped: false))
            if attempt == 1 {
                #expect(rejected == "renewToken(1,t1)")
                _ = machine.tokenRenewed(1)
            } else {
                #expect(rejected == "")
                #expect(MachineLabels.state(machine.state) == "processing(2)")
            }
        }
    }
}
