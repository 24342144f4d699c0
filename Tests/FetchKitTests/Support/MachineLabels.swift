@testable import FetchKit

/// Short texts for a ``RequestStateMachine``'s states and actions, which the state machine
/// tests compare with their tables.
enum MachineLabels {
    /// The state, with the attempt and exchange it concerns.
    static func state(_ state: RequestStateMachine.State) -> String {
        switch state {
        case .preparing: "preparing"
        case .startingAttempt(let attempt): "startingAttempt(\(attempt))"
        case .waitingForSlot(let attempt): "waitingForSlot(\(attempt))"
        case .handingOver(let attempt, let exchange, let clock):
            "handingOver(\(attempt),\(exchange)\(clock ? ",clock" : ""))"
        case .running(let attempt, let exchange, let task, let clock, let armed):
            "running(\(attempt),\(exchange),T\(number(task))\(clock ? ",clock" : "")\(armed ? ",armed" : ""))"
        case .processing(let attempt): "processing(\(attempt))"
        case .waitingToRetry(let attempt, let renewing): "waitingToRetry(\(attempt)\(renewing ? ",renewing" : ""))"
        case .finishing(_, let attempt, let exchange): "finishing(\(attempt),\(exchange))"
        case .finished: "finished"
        }
    }

    /// The actions, in the order the driver performs them, joined by spaces ("" for none).
    static func actions(_ actions: RequestStateMachine.Actions) -> String {
        var parts: [String] = []
        if let attempt = actions.cancelSlotWait { parts.append("cancelSlotWait(\(attempt))") }
        if let (attempt, failed) = actions.releaseSlot {
            parts.append("releaseSlot(\(attempt)\(failed ? ",failed" : ""))")
        }
        if let attempt = actions.cancelTimeout { parts.append("cancelTimeout(\(attempt))") }
        if let attempt = actions.cancelRetryTimer { parts.append("cancelRetryTimer(\(attempt))") }
        if let task = actions.cancelTask { parts.append("cancelTask(T\(number(task)))") }
        if let exchange = actions.removeStaging { parts.append("removeStaging(\(exchange))") }
        if actions.countWait { parts.append("countWait") }
        if let attempt = actions.armTimeout { parts.append("armTimeout(\(attempt))") }
        if let next = next(actions.next) { parts.append(next) }
        return parts.joined(separator: " ")
    }

    static func next(_ next: RequestStateMachine.Actions.Next) -> String? {
        switch next {
        case .none: nil
        case .answerLocally: "answerLocally"
        case .startAttempt(let attempt): "startAttempt(\(attempt))"
        case .requestSlot(let attempt): "requestSlot(\(attempt))"
        case .send(let attempt, let exchange, let resend): "\(resend ? "resend" : "send")(\(attempt),\(exchange))"
        case .evaluate(let attempt, let exchange): "evaluate(\(attempt),\(exchange))"
        case .attemptTimedOut(let attempt): "attemptTimedOut(\(attempt))"
        case .scheduleRetry(let attempt, let delay): "scheduleRetry(\(attempt),\(delay.components.seconds)s)"
        case .renewToken(let attempt, let grant): "renewToken(\(attempt),\(grant?.token ?? "none"))"
        case .finish(let outcome): "finish(\(self.outcome(outcome)))"
        case .removeTemporaryBody: "removeTemporaryBody"
        }
    }

    static func outcome(_ outcome: Outcome) -> String {
        switch outcome {
        case .success: "success"
        case .failure(let error): error.code.description
        }
    }

    /// Whether the actions end the request.
    static func finishes(_ actions: RequestStateMachine.Actions) -> Bool {
        if case .finish = actions.next { return true }
        return false
    }

    private static func number(_ task: any TransportTask) -> Int {
        (task as? MachineTask)?.number ?? -1
    }
}
