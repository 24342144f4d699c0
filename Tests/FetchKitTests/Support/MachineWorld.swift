import Foundation
import SeededRandom

@testable import FetchKit

/// A request's surroundings, simulated: the host limiter, the transport, the timers and the
/// driver's work, each answering the machine's actions in an order a seeded generator picks.
struct MachineWorld {
    typealias Machine = RequestStateMachine

    var machine: Machine
    var random: SeededGenerator
    var completions = 0
    var problems: [String] = []
    var log: [String] = []

    /// Attempts waiting in the limiter's queue.
    var queued: Set<Int> = []
    /// Grants the limiter decided on and has not delivered yet (attempt, running).
    var grantsInFlight: [(attempt: Int, running: Bool)] = []
    /// Slots held: attempt to whether it is parked.
    var held: [Int: Bool] = [:]
    /// Parked grants whose clock the limiter started before the grant was delivered (the two
    /// come from different threads).
    var clockedEarly: Set<Int> = []
    /// Exchanges the transport has and has not completed yet.
    var exchanges: [(attempt: Int, exchange: Int)] = []
    /// Exchanges being handed over: the transport's task is not reported yet.
    var handovers: [(attempt: Int, exchange: Int)] = []
    var timeouts: Set<Int> = []
    var retryTimers: Set<Int> = []
    /// Attempts getting their token.
    var starting: [Int] = []
    /// The attempt whose outcome the driver evaluates.
    var evaluating: Int?
    /// The attempt whose rejected token is being renewed.
    var renewing: Int?
    var externalEvents = 0

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
        machine = Machine(authenticates: seed % 3 == 0)
    }

    private mutating func chance(_ percent: Int) -> Bool {
        Int.random(in: 0..<100, using: &random) < percent
    }

    mutating func run() {
        apply("prepared", machine.prepared(answerLocally: chance(5)))
        var steps = 0
        while steps < 400, step(externals: true) { steps += 1 }
        if !machine.isFinished { apply("cancel", machine.conclude(.failure(FetchError(code: .cancelled)))) }
        while step(externals: false) {}
        if !queued.isEmpty { problems.append("still queued: \(queued)") }
        if !grantsInFlight.isEmpty { problems.append("grants undelivered") }
        if !held.isEmpty { problems.append("slots never released: \(held.keys.sorted())") }
        if !timeouts.isEmpty || !retryTimers.isEmpty { problems.append("timers left armed") }
    }

    /// Takes one step the surroundings can take; `false` when none can.
    private mutating func step(externals: Bool) -> Bool {
        var choices: [Int] = []
        if !starting.isEmpty { choices.append(0) }
        if !queued.isEmpty { choices.append(1) }
        if !grantsInFlight.isEmpty { choices.append(2) }
        if !handovers.isEmpty { choices.append(3) }
        if !exchanges.isEmpty { choices.append(4) }
        if held.values.contains(true) { choices.append(contentsOf: [5, 6]) }
        if !timeouts.isEmpty { choices.append(7) }
        if !retryTimers.isEmpty { choices.append(8) }
        if renewing != nil { choices.append(9) }
        if evaluating != nil { choices.append(contentsOf: [10, 10]) }
        if grantsInFlight.contains(where: { !$0.running && !clockedEarly.contains($0.attempt) }) {
            choices.append(12)
        }
        if externals, !machine.isFinished, externalEvents < 3 { choices.append(11) }
        guard let choice = choices.randomElement(using: &random) else { return false }
        switch choice {
        case 0:
            let attempt = starting.removeFirst()
            if chance(90) {
                apply(
                    "attemptReady(\(attempt))", machine.attemptReady(attempt, token: TokenGrant(token: "t", epoch: 1)))
            } else {
                apply("tokenFailed", machine.conclude(.failure(FetchError(code: .authenticationFailed))))
            }
        case 1:
            let attempt = queued.randomElement(using: &random)!
            queued.remove(attempt)
            grantsInFlight.append((attempt, chance(60)))
        case 2:
            let (attempt, running) = grantsInFlight.removeFirst()
            held[attempt] = !running && clockedEarly.remove(attempt) == nil
            let late = !isWaitingForSlot(attempt)
            apply(
                late ? "lateGrant(\(attempt))" : "granted(\(attempt),\(running))",
                machine.slotGranted(attempt, running: running))
        case 3:
            let index = Int.random(in: 0..<handovers.count, using: &random)
            let (attempt, exchange) = handovers.remove(at: index)
            let ending = isFinishing
            apply(
                ending ? "endDuringHandover(\(attempt),\(exchange))" : "sent(\(attempt),\(exchange))",
                machine.sent(attempt, exchange: exchange, task: MachineTask(exchange)))
        case 4:
            let index = Int.random(in: 0..<exchanges.count, using: &random)
            let (attempt, exchange) = exchanges.remove(at: index)
            let early = handovers.contains { $0 == (attempt, exchange) }
            apply(
                early ? "completedBeforeSent(\(attempt),\(exchange))" : "completed(\(attempt),\(exchange))",
                machine.transportCompleted(attempt, exchange: exchange, failed: chance(30)))
        case 5:
            // The limiter starts a parked attempt's clock once, and it runs from then on.
            let attempt = held.first { $0.value }!.key
            held[attempt] = false
            apply("clockStarted(\(attempt))", machine.clockStarted(attempt))
        case 6:
            let attempt = held.first { $0.value }!.key
            apply("resend(\(attempt))", machine.resend(attempt))
        case 7:
            let attempt = timeouts.randomElement(using: &random)!
            timeouts.remove(attempt)
            apply("timedOut(\(attempt))", machine.timedOut(attempt))
        case 8:
            let attempt = retryTimers.randomElement(using: &random)!
            retryTimers.remove(attempt)
            apply("retryTimerFired(\(attempt))", machine.retryTimerFired(attempt))
        case 9:
            let attempt = renewing!
            renewing = nil
            if chance(85) {
                apply("tokenRenewed(\(attempt))", machine.tokenRenewed(attempt))
            } else {
                apply("renewalFailed", machine.conclude(.failure(FetchError(code: .authenticationFailed))))
            }
        case 10:
            evaluate()
        case 12:
            let attempt = grantsInFlight.first { !$0.running && !clockedEarly.contains($0.attempt) }!.attempt
            clockedEarly.insert(attempt)
            apply("clockStartedBeforeGrant(\(attempt))", machine.clockStarted(attempt))
        default:
            externalEvents += 1
            if chance(50) {
                apply("stopRetrying", machine.stopRetrying())
            } else {
                apply("cancel", machine.conclude(.failure(FetchError(code: .cancelled))))
            }
        }
        return true
    }

    /// The driver's evaluation of an attempt's outcome: a retry, a rejected token, or the end.
    private mutating func evaluate() {
        let attempt = evaluating!
        evaluating = nil
        let failure = FetchError(code: .timedOut)
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4:
            apply(
                "attemptFailed(\(attempt))",
                machine.attemptFailed(attempt, failure, retryAfter: .seconds(1), clientStopped: chance(5)))
        case 4:
            apply(
                "attemptFailed(\(attempt),final)",
                machine.attemptFailed(attempt, failure, retryAfter: nil, clientStopped: false))
        case 5..<7:
            let actions = machine.tokenRejected(attempt, status: 401, clientStopped: chance(5))
            if case .renewToken = actions.next {
                apply("tokenRejected(\(attempt))", actions)
            } else {
                apply("tokenRejectedStands(\(attempt))", actions)
                apply(
                    "attemptFailed(\(attempt),final)",
                    machine.attemptFailed(attempt, failure, retryAfter: nil, clientStopped: false))
            }
        default:
            apply("succeeded", machine.conclude(.success({})))
        }
    }

    private func isWaitingForSlot(_ attempt: Int) -> Bool {
        if case .waitingForSlot(attempt) = machine.state { return true }
        return false
    }

    private var isFinishing: Bool {
        if case .finishing = machine.state { return true }
        return false
    }

    private mutating func apply(_ event: String, _ actions: Machine.Actions?) {
        log.append(event)
        defer { checkClock(event) }
        guard let actions else { return }
        if let attempt = actions.cancelSlotWait {
            // Still queued, or granted already: then the grant arrives and the machine releases it.
            if queued.remove(attempt) == nil, !grantsInFlight.contains(where: { $0.attempt == attempt }) {
                problems.append("\(event): cancelled the slot wait of \(attempt), which was not waiting")
            }
        }
        if let (attempt, _) = actions.releaseSlot, held.removeValue(forKey: attempt) == nil {
            problems.append("\(event): released the slot of \(attempt), which it did not hold")
        }
        if let attempt = actions.cancelTimeout, timeouts.remove(attempt) == nil {
            problems.append("\(event): cancelled timeout \(attempt), which was not armed")
        }
        if let attempt = actions.cancelRetryTimer, retryTimers.remove(attempt) == nil {
            problems.append("\(event): cancelled retry timer \(attempt), which was not scheduled")
        }
        if let attempt = actions.armTimeout, !timeouts.insert(attempt).inserted {
            problems.append("\(event): armed timeout \(attempt) twice")
        }
        switch actions.next {
        case .none, .removeTemporaryBody:
            break
        case .answerLocally:
            setEvaluating(0, event)
        case .startAttempt(let attempt):
            starting.append(attempt)
        case .requestSlot(let attempt):
            if !queued.insert(attempt).inserted || held[attempt] != nil {
                problems.append("\(event): asked for slot \(attempt) twice")
            }
        case .send(let attempt, let exchange, _):
            if held[attempt] == nil { problems.append("\(event): sent attempt \(attempt) without its slot") }
            handovers.append((attempt, exchange))
            exchanges.append((attempt, exchange))
        case .evaluate(let attempt, _), .attemptTimedOut(let attempt):
            setEvaluating(attempt, event)
        case .scheduleRetry(let attempt, _):
            if !retryTimers.insert(attempt).inserted { problems.append("\(event): scheduled retry \(attempt) twice") }
        case .renewToken(let attempt, _):
            renewing = attempt
        case .finish:
            completions += 1
            if completions > 1 { problems.append("\(event): a second completion") }
            if !timeouts.isEmpty || !retryTimers.isEmpty {
                problems.append("\(event): completed with timers armed")
            }
        }
    }

    /// An exchange with the transport has its timeout armed exactly when the limiter started
    /// its attempt's clock.
    private mutating func checkClock(_ event: String) {
        guard case .running(let attempt, _, _, let clockRunning, _) = machine.state else { return }
        if clockRunning, !timeouts.contains(attempt) {
            problems.append("\(event): attempt \(attempt) runs its clock without a timeout")
        }
        if !clockRunning, held[attempt] == false {
            problems.append("\(event): the limiter started the clock of attempt \(attempt), which the request ignored")
        }
    }

    private mutating func setEvaluating(_ attempt: Int, _ event: String) {
        if evaluating != nil { problems.append("\(event): two evaluations at once") }
        evaluating = attempt
    }
}
