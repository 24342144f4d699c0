import Foundation

// The driver's bookkeeping, kept with its state machine under one lock: what each transition
// hands to the actions it returns, and what the request's end reports.
extension RequestExecution {
    /// What a ``RequestExecution`` keeps under its one lock: the machine and the driver's bookkeeping.
    struct State {
        var machine: RequestStateMachine
        /// The request, once built and adapted (later attempts add a token).
        var prepared: AdaptedRequest?
        /// The running attempt's timeout, from when it is armed until it fires or is cancelled.
        var timeout: ScheduledAction?
        /// The timer of a retry wait, from when it is scheduled until it fires or is cancelled.
        var retryTimer: ScheduledAction?
        /// Whether the waits for a slot are timed (for observers' metrics only).
        let timesWaits: Bool
        /// When the attempt asked for its slot, when waits are timed.
        var slotRequestedAt: ContinuousClock.Instant?
        var waited = Duration.zero
        var lastStatus: Int?
        var lastBytes = 0
        var cacheUse = FetchMetrics.CacheUse.none
        /// The exchange whose download succeeded: its staging file holds the body.
        var downloaded: Int?

        /// The step for `actions`, with the bookkeeping they need under the lock: a timer to
        /// arm is made here (so a cancel on another thread finds it), one to cancel is taken
        /// out, and the end's figures are read.
        mutating func step(for actions: RequestStateMachine.Actions) -> Step {
            var step = Step(actions: actions, prepared: prepared)
            if actions.cancelTimeout != nil {
                step.timeout = timeout
                timeout = nil
            } else if actions.armTimeout != nil {
                let item = ScheduledAction()
                timeout = item
                step.timeout = item
            }
            if actions.cancelRetryTimer != nil {
                step.retryTimer = retryTimer
                retryTimer = nil
            }
            if actions.countWait, let slotRequestedAt { waited += ContinuousClock.now - slotRequestedAt }
            switch actions.next {
            case .scheduleRetry:
                let item = ScheduledAction()
                retryTimer = item
                step.retryTimer = item
            case .finish:
                step.ended = Ended(
                    attempt: machine.attempt, attemptsStarted: machine.attemptsStarted, exchanges: machine.exchanges,
                    downloaded: downloaded, lastStatus: lastStatus, lastBytes: lastBytes, waited: waited,
                    cacheUse: cacheUse)
            default:
                break
            }
            return step
        }
    }

    /// One transition as the driver performs it: the machine's actions, the request, and the timers they name.
    struct Step {
        var actions: RequestStateMachine.Actions
        var prepared: AdaptedRequest?
        /// The timeout to start (``RequestStateMachine/Actions/armTimeout``) or to cancel.
        var timeout: ScheduledAction?
        /// The retry timer to start or to cancel.
        var retryTimer: ScheduledAction?
        /// The request's figures when it ended (with ``RequestStateMachine/Actions/Next/finish(_:)``).
        var ended: Ended?
    }

    /// What a request's end reports: its attempts, exchanges and metrics.
    struct Ended {
        var attempt: Int
        var attemptsStarted: Int
        var exchanges: Int
        var downloaded: Int?
        var lastStatus: Int?
        var lastBytes: Int
        var waited: Duration
        var cacheUse: FetchMetrics.CacheUse
    }
}
