import Foundation
import Testing

@testable import FetchKit

/// Every event in every state of ``RequestStateMachine``, without threads, clocks or a transport.
@Suite struct RequestStateMachineTests {
    typealias Machine = RequestStateMachine

    /// An event as the driver reports it, aimed at the attempt and exchange the state concerns.
    struct Event: Sendable, CustomStringConvertible {
        let description: String
        let apply: @Sendable (inout Machine, _ attempt: Int, _ exchange: Int) -> Machine.Actions?
    }

    static let failure = FetchError(code: .timedOut)
    static let grant = TokenGrant(token: "t1", epoch: 1)

    static let events: [Event] = [
        Event(description: "prepared") { machine, _, _ in machine.prepared(answerLocally: false) },
        Event(description: "preparedLocally") { machine, _, _ in machine.prepared(answerLocally: true) },
        Event(description: "attemptReady") { machine, attempt, _ in machine.attemptReady(attempt, token: grant) },
        Event(description: "grantedRunning") { machine, attempt, _ in machine.slotGranted(attempt, running: true) },
        Event(description: "grantedParked") { machine, attempt, _ in machine.slotGranted(attempt, running: false) },
        Event(description: "lateGrant") { machine, _, _ in machine.slotGranted(1, running: true) },
        Event(description: "sent") { machine, attempt, exchange in
            machine.sent(attempt, exchange: exchange, task: MachineTask(10 * attempt + exchange))
        },
        Event(description: "clockStarted") { machine, attempt, _ in machine.clockStarted(attempt) },
        Event(description: "resend") { machine, attempt, _ in machine.resend(attempt) },
        Event(description: "completed") { machine, attempt, exchange in
            machine.transportCompleted(attempt, exchange: exchange, failed: false)
        },
        Event(description: "completedFailed") { machine, attempt, exchange in
            machine.transportCompleted(attempt, exchange: exchange, failed: true)
        },
        Event(description: "firstExchangeCompleted") { machine, _, _ in
            machine.transportCompleted(1, exchange: 1, failed: true)
        },
        Event(description: "timedOut") { machine, attempt, _ in machine.timedOut(attempt) },
        Event(description: "firstTimedOut") { machine, _, _ in machine.timedOut(1) },
        Event(description: "failedRetry") { machine, attempt, _ in
            machine.attemptFailed(attempt, failure, retryAfter: .seconds(1), clientStopped: false)
        },
        Event(description: "failedNoRetry") { machine, attempt, _ in
            machine.attemptFailed(attempt, failure, retryAfter: nil, clientStopped: false)
        },
        Event(description: "failedClientStopped") { machine, attempt, _ in
            machine.attemptFailed(attempt, failure, retryAfter: .seconds(1), clientStopped: true)
        },
        Event(description: "tokenRejected") { machine, attempt, _ in
            machine.tokenRejected(attempt, status: 401, clientStopped: false)
        },
        Event(description: "tokenRejectedClientStopped") { machine, attempt, _ in
            machine.tokenRejected(attempt, status: 401, clientStopped: true)
        },
        Event(description: "retryTimerFired") { machine, attempt, _ in machine.retryTimerFired(attempt) },
        Event(description: "tokenRenewed") { machine, attempt, _ in machine.tokenRenewed(attempt) },
        Event(description: "stopRetrying") { machine, _, _ in machine.stopRetrying() },
        Event(description: "cancel") { machine, _, _ in machine.conclude(.failure(FetchError(code: .cancelled))) },
        Event(description: "succeed") { machine, _, _ in machine.conclude(.success({})) },
    ]

    static func event(_ name: String) -> Event {
        events.first { $0.description == name }!
    }

    /// Each state the tests start from, and the events that lead there from a new machine.
    static let states: [(name: String, path: [String])] = [
        ("finished while waiting for a slot", ["prepared", "attemptReady", "cancel"]),
        ("processing(1) after a timeout", ["prepared", "attemptReady", "grantedRunning", "sent", "timedOut"]),
        ("preparing", []),
        ("startingAttempt(1)", ["prepared"]),
        ("waitingForSlot(1)", ["prepared", "attemptReady"]),
        ("handingOver(1,1,clock)", ["prepared", "attemptReady", "grantedRunning"]),
        ("handingOver(1,1)", ["prepared", "attemptReady", "grantedParked"]),
        ("running(1,1,T11,clock,armed)", ["prepared", "attemptReady", "grantedRunning", "sent"]),
        ("running(1,1,T11)", ["prepared", "attemptReady", "grantedParked", "sent"]),
        ("processing(1)", ["prepared", "attemptReady", "grantedRunning", "sent", "completed"]),
        ("processing(0)", ["preparedLocally"]),
        ("waitingToRetry(1)", ["prepared", "attemptReady", "grantedRunning", "sent", "completed", "failedRetry"]),
        (
            "waitingToRetry(1,renewing)",
            ["prepared", "attemptReady", "grantedRunning", "sent", "completed", "tokenRejected"]
        ),
        (
            "startingAttempt(2)",
            ["prepared", "attemptReady", "grantedRunning", "sent", "completed", "failedRetry", "retryTimerFired"]
        ),
        (
            "waitingForSlot(2)",
            [
                "prepared", "attemptReady", "grantedRunning", "sent", "timedOut", "failedRetry", "retryTimerFired",
                "attemptReady",
            ]
        ),
        (
            "running(2,2,T22,clock,armed)",
            [
                "prepared", "attemptReady", "grantedRunning", "sent", "timedOut", "failedRetry", "retryTimerFired",
                "attemptReady", "grantedRunning", "sent",
            ]
        ),
        ("finishing(1,1)", ["prepared", "attemptReady", "grantedRunning", "cancel"]),
        ("finished", ["prepared", "attemptReady", "grantedRunning", "sent", "cancel"]),
    ]

    /// The attempt and exchange the events in `machine`'s state are aimed at.
    static func target(_ machine: Machine) -> (attempt: Int, exchange: Int) {
        switch machine.state {
        case .preparing: (1, 1)
        case .startingAttempt(let attempt), .waitingForSlot(let attempt): (attempt, machine.exchanges + 1)
        case .handingOver(let attempt, let exchange, _), .running(let attempt, let exchange, _, _, _),
            .finishing(_, let attempt, let exchange):
            (attempt, exchange)
        case .processing(let attempt), .waitingToRetry(let attempt, _): (max(1, attempt), machine.exchanges)
        case .finished: (max(1, machine.attempt), max(1, machine.exchanges))
        }
    }

    /// Applies `event` to `machine`: the actions' labels ("ended already" for a second end).
    @discardableResult
    static func apply(_ event: Event, to machine: inout Machine) -> (label: String, finishes: Bool) {
        let (attempt, exchange) = target(machine)
        guard let actions = event.apply(&machine, attempt, exchange) else { return ("ended already", false) }
        return (MachineLabels.actions(actions), MachineLabels.finishes(actions))
    }

    /// How many completions the events of `path` return.
    static func completions(along path: [String]) -> Int {
        var machine = Machine(authenticates: false)
        return path.filter { apply(event($0), to: &machine).finishes }.count
    }

    static func machine(at path: [String], authenticates: Bool = false) -> Machine {
        var machine = Machine(authenticates: authenticates)
        for name in path { apply(event(name), to: &machine) }
        return machine
    }

    @Test func eachStartingStateIsReachedByItsPath() {
        for (name, path) in Self.states {
            #expect(name.hasPrefix(MachineLabels.state(Self.machine(at: path).state)))
        }
    }

    /// Every event in every state: the actions and the state that follows, against the table
    /// (a pair the table leaves out does nothing and keeps the state).
    @Test func everyEventInEveryState() {
        var unexpected: [String] = []
        for (name, path) in Self.states {
            for event in Self.events {
                var machine = Self.machine(at: path)
                let completedBefore = Self.completions(along: path)
                let (label, finishes) = Self.apply(event, to: &machine)
                let after = MachineLabels.state(machine.state)
                let key = "\(name) | \(event)"
                let before = MachineLabels.state(Self.machine(at: path).state)
                let actual = label.isEmpty && after == before ? nil : "\(label) -> \(after)"
                if actual != Self.table[key] {
                    unexpected.append("\"\(key)\": \"\(actual ?? "<nothing>")\",")
                }
                #expect(completedBefore + (finishes ? 1 : 0) <= 1, "\(key) completed a request a second time")
            }
        }
        #expect(unexpected.isEmpty, "\n\(unexpected.joined(separator: "\n"))")
    }

    /// Once an event ends the request, no event that follows, in any order, ends it again.
    @Test func noEventAfterTheEndFinishesAgain() {
        for (_, path) in Self.states {
            for ending in Self.events {
                var machine = Self.machine(at: path)
                guard Self.apply(ending, to: &machine).finishes else { continue }
                #expect(machine.isFinished)
                for event in Self.events {
                    var after = machine
                    #expect(!Self.apply(event, to: &after).finishes, "\(path) \(ending) then \(event)")
                    for second in Self.events {
                        #expect(!Self.apply(second, to: &after).finishes, "\(path) \(ending) \(event) \(second)")
                    }
                }
            }
        }
    }

    /// The expected transitions: "state | event" to "actions -> state that follows".
    static let table: [String: String] = [
        "finished while waiting for a slot | prepared": "removeTemporaryBody -> finished",
        "finished while waiting for a slot | preparedLocally": "removeTemporaryBody -> finished",
        "finished while waiting for a slot | grantedRunning": "releaseSlot(1) -> finished",
        "finished while waiting for a slot | grantedParked": "releaseSlot(1) -> finished",
        "finished while waiting for a slot | lateGrant": "releaseSlot(1) -> finished",
        "finished while waiting for a slot | cancel": "ended already -> finished",
        "finished while waiting for a slot | succeed": "ended already -> finished",
        "processing(1) after a timeout | completed": "releaseSlot(1) removeStaging(1) -> processing(1)",
        "processing(1) after a timeout | completedFailed": "releaseSlot(1,failed) removeStaging(1) -> processing(1)",
        "processing(1) after a timeout | firstExchangeCompleted":
            "releaseSlot(1,failed) removeStaging(1) -> processing(1)",
        "processing(1) after a timeout | failedRetry": "scheduleRetry(1,1s) -> waitingToRetry(1)",
        "processing(1) after a timeout | failedNoRetry": "finish(timedOut) -> finished",
        "processing(1) after a timeout | failedClientStopped": "finish(timedOut) -> finished",
        "processing(1) after a timeout | tokenRejected": "renewToken(1,t1) -> waitingToRetry(1,renewing)",
        "processing(1) after a timeout | cancel": "finish(cancelled) -> finished",
        "processing(1) after a timeout | succeed": "finish(success) -> finished",
        "preparing | prepared": "startAttempt(1) -> startingAttempt(1)",
        "preparing | preparedLocally": "answerLocally -> processing(0)",
        "preparing | cancel": "finish(cancelled) -> finished",
        "preparing | succeed": "finish(success) -> finished",
        "startingAttempt(1) | attemptReady": "requestSlot(1) -> waitingForSlot(1)",
        "startingAttempt(1) | cancel": "finish(cancelled) -> finished",
        "startingAttempt(1) | succeed": "finish(success) -> finished",
        "waitingForSlot(1) | grantedRunning": "countWait send(1,1) -> handingOver(1,1,clock)",
        "waitingForSlot(1) | grantedParked": "send(1,1) -> handingOver(1,1)",
        "waitingForSlot(1) | lateGrant": "countWait send(1,1) -> handingOver(1,1,clock)",
        "waitingForSlot(1) | cancel": "cancelSlotWait(1) finish(cancelled) -> finished",
        "waitingForSlot(1) | succeed": "cancelSlotWait(1) finish(success) -> finished",
        "handingOver(1,1,clock) | sent": "armTimeout(1) -> running(1,1,T11,clock,armed)",
        "handingOver(1,1,clock) | completed": "releaseSlot(1) evaluate(1,1) -> processing(1)",
        "handingOver(1,1,clock) | completedFailed": "releaseSlot(1,failed) evaluate(1,1) -> processing(1)",
        "handingOver(1,1,clock) | firstExchangeCompleted": "releaseSlot(1,failed) evaluate(1,1) -> processing(1)",
        "handingOver(1,1,clock) | cancel": " -> finishing(1,1)",
        "handingOver(1,1,clock) | succeed": " -> finishing(1,1)",
        "handingOver(1,1) | sent": " -> running(1,1,T11)",
        "handingOver(1,1) | clockStarted": "countWait -> handingOver(1,1,clock)",
        "handingOver(1,1) | completed": "releaseSlot(1) evaluate(1,1) -> processing(1)",
        "handingOver(1,1) | completedFailed": "releaseSlot(1,failed) evaluate(1,1) -> processing(1)",
        "handingOver(1,1) | firstExchangeCompleted": "releaseSlot(1,failed) evaluate(1,1) -> processing(1)",
        "handingOver(1,1) | cancel": " -> finishing(1,1)",
        "handingOver(1,1) | succeed": " -> finishing(1,1)",
        "running(1,1,T11,clock,armed) | completed": "releaseSlot(1) cancelTimeout(1) evaluate(1,1) -> processing(1)",
        "running(1,1,T11,clock,armed) | completedFailed":
            "releaseSlot(1,failed) cancelTimeout(1) evaluate(1,1) -> processing(1)",
        "running(1,1,T11,clock,armed) | firstExchangeCompleted":
            "releaseSlot(1,failed) cancelTimeout(1) evaluate(1,1) -> processing(1)",
        "running(1,1,T11,clock,armed) | timedOut": "cancelTask(T11) attemptTimedOut(1) -> processing(1)",
        "running(1,1,T11,clock,armed) | firstTimedOut": "cancelTask(T11) attemptTimedOut(1) -> processing(1)",
        "running(1,1,T11,clock,armed) | cancel": "cancelTimeout(1) cancelTask(T11) finish(cancelled) -> finished",
        "running(1,1,T11,clock,armed) | succeed": "cancelTimeout(1) cancelTask(T11) finish(success) -> finished",
        "running(1,1,T11) | clockStarted": "countWait armTimeout(1) -> running(1,1,T11,clock,armed)",
        "running(1,1,T11) | resend": "cancelTask(T11) resend(1,2) -> handingOver(1,2)",
        "running(1,1,T11) | completed": "releaseSlot(1) evaluate(1,1) -> processing(1)",
        "running(1,1,T11) | completedFailed": "releaseSlot(1,failed) evaluate(1,1) -> processing(1)",
        "running(1,1,T11) | firstExchangeCompleted": "releaseSlot(1,failed) evaluate(1,1) -> processing(1)",
        "running(1,1,T11) | cancel": "cancelTask(T11) finish(cancelled) -> finished",
        "running(1,1,T11) | succeed": "cancelTask(T11) finish(success) -> finished",
        "processing(1) | failedRetry": "scheduleRetry(1,1s) -> waitingToRetry(1)",
        "processing(1) | failedNoRetry": "finish(timedOut) -> finished",
        "processing(1) | failedClientStopped": "finish(timedOut) -> finished",
        "processing(1) | tokenRejected": "renewToken(1,t1) -> waitingToRetry(1,renewing)",
        "processing(1) | cancel": "finish(cancelled) -> finished",
        "processing(1) | succeed": "finish(success) -> finished",
        "processing(0) | cancel": "finish(cancelled) -> finished",
        "processing(0) | succeed": "finish(success) -> finished",
        "waitingToRetry(1) | retryTimerFired": "startAttempt(2) -> startingAttempt(2)",
        "waitingToRetry(1) | stopRetrying": "cancelRetryTimer(1) finish(timedOut) -> finished",
        "waitingToRetry(1) | cancel": "cancelRetryTimer(1) finish(cancelled) -> finished",
        "waitingToRetry(1) | succeed": "cancelRetryTimer(1) finish(success) -> finished",
        "waitingToRetry(1,renewing) | tokenRenewed": "startAttempt(2) -> startingAttempt(2)",
        "waitingToRetry(1,renewing) | stopRetrying": "finish(unacceptableStatus) -> finished",
        "waitingToRetry(1,renewing) | cancel": "finish(cancelled) -> finished",
        "waitingToRetry(1,renewing) | succeed": "finish(success) -> finished",
        "startingAttempt(2) | attemptReady": "requestSlot(2) -> waitingForSlot(2)",
        "startingAttempt(2) | stopRetrying": "finish(timedOut) -> finished",
        "startingAttempt(2) | cancel": "finish(cancelled) -> finished",
        "startingAttempt(2) | succeed": "finish(success) -> finished",
        "waitingForSlot(2) | grantedRunning": "countWait send(2,2) -> handingOver(2,2,clock)",
        "waitingForSlot(2) | grantedParked": "send(2,2) -> handingOver(2,2)",
        "waitingForSlot(2) | firstExchangeCompleted": "releaseSlot(1,failed) removeStaging(1) -> waitingForSlot(2)",
        "waitingForSlot(2) | cancel": "cancelSlotWait(2) finish(cancelled) -> finished",
        "waitingForSlot(2) | succeed": "cancelSlotWait(2) finish(success) -> finished",
        "waitingForSlot(2) | stopRetrying": "cancelSlotWait(2) finish(timedOut) -> finished",
        "running(2,2,T22,clock,armed) | completed": "releaseSlot(2) cancelTimeout(2) evaluate(2,2) -> processing(2)",
        "running(2,2,T22,clock,armed) | completedFailed":
            "releaseSlot(2,failed) cancelTimeout(2) evaluate(2,2) -> processing(2)",
        "running(2,2,T22,clock,armed) | firstExchangeCompleted":
            "releaseSlot(1,failed) removeStaging(1) -> running(2,2,T22,clock,armed)",
        "running(2,2,T22,clock,armed) | timedOut": "cancelTask(T22) attemptTimedOut(2) -> processing(2)",
        "running(2,2,T22,clock,armed) | cancel": "cancelTimeout(2) cancelTask(T22) finish(cancelled) -> finished",
        "running(2,2,T22,clock,armed) | succeed": "cancelTimeout(2) cancelTask(T22) finish(success) -> finished",
        "finishing(1,1) | prepared": "removeTemporaryBody -> finishing(1,1)",
        "finishing(1,1) | preparedLocally": "removeTemporaryBody -> finishing(1,1)",
        "finishing(1,1) | sent": "cancelTask(T11) finish(cancelled) -> finished",
        "finishing(1,1) | completed": "releaseSlot(1) removeStaging(1) -> finishing(1,1)",
        "finishing(1,1) | completedFailed": "releaseSlot(1,failed) removeStaging(1) -> finishing(1,1)",
        "finishing(1,1) | firstExchangeCompleted": "releaseSlot(1,failed) removeStaging(1) -> finishing(1,1)",
        "finishing(1,1) | cancel": "ended already -> finishing(1,1)",
        "finishing(1,1) | succeed": "ended already -> finishing(1,1)",
        "finished | prepared": "removeTemporaryBody -> finished",
        "finished | preparedLocally": "removeTemporaryBody -> finished",
        "finished | completed": "releaseSlot(1) removeStaging(1) -> finished",
        "finished | completedFailed": "releaseSlot(1,failed) removeStaging(1) -> finished",
        "finished | firstExchangeCompleted": "releaseSlot(1,failed) removeStaging(1) -> finished",
        "finished | cancel": "ended already -> finished",
        "finished | succeed": "ended already -> finished",
    ]
}
