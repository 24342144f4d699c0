/// The lifecycle of one request as a value: each method takes an event, changes the state, and
/// returns the ``Actions`` its driver (``RequestExecution``) performs, outside its lock.
///
/// The machine runs no code, reads no clock and starts no thread. It decides which attempt and
/// which exchange an event still concerns (a late completion, a timer that fired after the
/// response, a slot granted after a cancellation), and it is the only place that decides the
/// request's end: exactly one transition returns ``Actions/Next/finish(_:)``, and every later
/// event returns nothing but the release of what it still holds.
///
/// What it owns, each exactly once: the slot of each attempt (requested with
/// ``Actions/Next/requestSlot(attempt:)``; cancelled while waiting, or released when the
/// attempt's current exchange completes), the attempt's timeout (armed with
/// ``Actions/armTimeout``; fired or cancelled), the retry timer (scheduled with
/// ``Actions/Next/scheduleRetry(attempt:delay:)``; fired or cancelled), and the
/// transport's task (cancelled when the request ends before its exchange).
struct RequestStateMachine {
    /// Where the request is.
    enum State {
        /// Being built, adapted and looked up in the cache.
        case preparing
        /// Getting attempt `attempt` ready: its token, the check of its upload file.
        case startingAttempt(attempt: Int)
        /// Waiting for the host limiter to admit attempt `attempt`.
        case waitingForSlot(attempt: Int)
        /// Admitted: exchange `exchange` is being handed to the transport, whose task is not known yet.
        case handingOver(attempt: Int, exchange: Int, clockRunning: Bool)
        /// Exchange `exchange` is with the transport; its timeout runs once `clockRunning`.
        case running(attempt: Int, exchange: Int, task: any TransportTask, clockRunning: Bool, timeoutArmed: Bool)
        /// The outcome of attempt `attempt` (0 for an answer without sending) is being evaluated.
        case processing(attempt: Int)
        /// Waiting to start the attempt after `attempt`: for the retry timer, or for a renewed token.
        case waitingToRetry(attempt: Int, renewingToken: Bool)
        /// Ended while exchange `exchange` was being handed over: the end completes once its
        /// task is known, so the task is cancelled before the completion runs.
        case finishing(Outcome, attempt: Int, exchange: Int)
        /// Ended; the completion has been returned.
        case finished
    }

    /// What the driver does after a transition, in the order of the fields: cancels and
    /// releases first, then ``next``.
    struct Actions {
        /// Takes attempt `cancelSlotWait` out of its host's queue.
        var cancelSlotWait: Int?
        /// Releases the slot of an attempt (`failed`: its exchange ended without a response).
        var releaseSlot: (attempt: Int, failed: Bool)?
        /// Cancels the timeout of attempt `cancelTimeout`.
        var cancelTimeout: Int?
        /// Cancels the retry timer that follows attempt `cancelRetryTimer`.
        var cancelRetryTimer: Int?
        /// Cancels the transport's task.
        var cancelTask: (any TransportTask)?
        /// Removes the staging file of exchange `removeStaging` (a download's).
        var removeStaging: Int?
        /// Adds the time since the slot was requested to the time spent waiting for a connection.
        var countWait = false
        /// Starts the timeout of attempt `armTimeout`.
        var armTimeout: Int?
        /// The step that follows.
        var next = Next.none

        /// What follows the cancels and releases.
        enum Next {
            /// Nothing.
            case none
            /// Answers from the cache (or with the cache's 504) without sending.
            case answerLocally
            /// Gets attempt `attempt` ready (its token, its upload file), then reports ``RequestStateMachine/attemptReady(_:token:)``.
            case startAttempt(attempt: Int)
            /// Asks the host limiter for a slot for attempt `attempt`.
            case requestSlot(attempt: Int)
            /// Hands exchange `exchange` of attempt `attempt` to the transport; `resend` when it
            /// replaces a parked exchange of the same attempt.
            case send(attempt: Int, exchange: Int, resend: Bool)
            /// Evaluates the result of exchange `exchange` of attempt `attempt`.
            case evaluate(attempt: Int, exchange: Int)
            /// Attempt `attempt` ran out of time: its failure is evaluated.
            case attemptTimedOut(attempt: Int)
            /// Starts the retry timer that follows attempt `attempt` (the driver tells observers,
            /// with the failure it reported).
            case scheduleRetry(attempt: Int, delay: Duration)
            /// Renews the token `grant` that attempt `attempt` was rejected with.
            case renewToken(attempt: Int, grant: TokenGrant?)
            /// Ends the request with `outcome`: the one completion.
            case finish(Outcome)
            /// Removes the request's temporary body (it was prepared after it ended).
            case removeTemporaryBody
        }
    }

    private(set) var state = State.preparing
    /// Whether an attempt gets a token before it asks for its slot.
    let authenticates: Bool
    /// The latest attempt asked for a slot (0 before the first).
    private(set) var attempt = 0
    /// The attempts that were admitted and handed to the transport.
    private(set) var attemptsStarted = 0
    /// The exchanges handed to the transport, numbered from 1.
    private(set) var exchanges = 0
    /// Exchanges replaced by a re-send of their parked attempt: their completion frees no slot.
    private var superseded: Set<Int> = []
    /// The exchanges (of the first 64) handed to the transport and not completed yet: a second
    /// completion of one frees nothing. Later ones are trusted to complete once, as the
    /// transport promises.
    private var openExchanges: UInt64 = 0
    /// The attempt whose slot wait the request's end cancelled: the limiter may have granted it
    /// meanwhile, and that grant is handed back.
    private var cancelledSlotWait: Int?
    /// The attempt whose clock the limiter started before its grant arrived (the two come from
    /// different threads): the grant then counts as running.
    private var clockStartedBeforeGrant: Int?
    /// The attempt the limiter asked to send again while its exchange was being handed over:
    /// the re-send happens once the task is known.
    private var resendAfterHandOver: Int?
    /// The token the current attempt was sent with.
    private(set) var sentToken: TokenGrant?
    /// Whether the request was sent again after a rejected token (once at most).
    private var renewedToken = false
    /// Whether the request starts no further attempt.
    private(set) var retriesStopped = false
    /// The failure a retry waits after, which ends the request when retries stop.
    private var lastFailure: FetchError?

    init(authenticates: Bool) {
        self.authenticates = authenticates
    }

    /// Whether the request has ended (its completion may still be running).
    var isFinished: Bool {
        switch state {
        case .finishing, .finished: true
        default: false
        }
    }

    // MARK: Preparation

    /// The request is built, adapted and looked up: it is answered without sending
    /// (`answerLocally`), or its first attempt starts.
    mutating func prepared(answerLocally: Bool) -> Actions {
        guard case .preparing = state else {
            // Ended while it was built: its completion may not have seen the temporary body.
            return isFinished ? Actions(next: .removeTemporaryBody) : Actions()
        }
        if answerLocally {
            state = .processing(attempt: 0)
            return Actions(next: .answerLocally)
        }
        state = .startingAttempt(attempt: 1)
        return Actions(next: .startAttempt(attempt: 1))
    }

    /// Attempt `attempt` has its token (when there is an authenticator) and its upload file is
    /// what it was: it asks for a slot.
    mutating func attemptReady(_ attempt: Int, token: TokenGrant?) -> Actions {
        guard case .startingAttempt(attempt) = state else { return Actions() }
        self.attempt = attempt
        sentToken = token
        state = .waitingForSlot(attempt: attempt)
        return Actions(next: .requestSlot(attempt: attempt))
    }

    // MARK: Admission and the exchange

    /// The host limiter admitted attempt `attempt`: running (its clock starts now) or parked.
    mutating func slotGranted(_ attempt: Int, running: Bool) -> Actions {
        guard case .waitingForSlot(attempt) = state else {
            // Ended while the grant was on its way: the slot goes back at once. (Any other grant
            // is one the limiter does not give, and holds nothing.)
            guard cancelledSlotWait == attempt else { return Actions() }
            cancelledSlotWait = nil
            return Actions(releaseSlot: (attempt, false))
        }
        let running = running || clockStartedBeforeGrant == attempt
        clockStartedBeforeGrant = nil
        resendAfterHandOver = nil
        attemptsStarted += 1
        exchanges += 1
        openExchanges |= Self.bit(exchanges)
        state = .handingOver(attempt: attempt, exchange: exchanges, clockRunning: running)
        return Actions(countWait: running, next: .send(attempt: attempt, exchange: exchanges, resend: false))
    }

    /// The transport took exchange `exchange` and returned its task.
    mutating func sent(_ attempt: Int, exchange: Int, task: any TransportTask) -> Actions {
        switch state {
        case .handingOver(attempt, exchange, let clockRunning):
            state = .running(
                attempt: attempt, exchange: exchange, task: task, clockRunning: clockRunning,
                timeoutArmed: clockRunning)
            if resendAfterHandOver == attempt {
                resendAfterHandOver = nil
                // Asked for while the task was not known: done now (nothing when its clock has
                // started since, as the limiter re-sends parked exchanges only).
                if !clockRunning { return resend(attempt) }
            }
            return Actions(armTimeout: clockRunning ? attempt : nil)
        case .finishing(let outcome, attempt, exchange):
            state = .finished
            return Actions(cancelTask: task, next: .finish(outcome))
        default:
            // The exchange completed while it was handed over; its task has nothing left to do.
            return Actions()
        }
    }

    /// A parked attempt could start now: its timeout clock starts.
    mutating func clockStarted(_ attempt: Int) -> Actions {
        switch state {
        case .running(attempt, let exchange, let task, false, _):
            state = .running(attempt: attempt, exchange: exchange, task: task, clockRunning: true, timeoutArmed: true)
            return Actions(countWait: true, armTimeout: attempt)
        case .handingOver(attempt, let exchange, false):
            state = .handingOver(attempt: attempt, exchange: exchange, clockRunning: true)
            return Actions(countWait: true)
        case .waitingForSlot(attempt):
            // The limiter started the clock before its grant arrived: the grant counts as running.
            clockStartedBeforeGrant = attempt
            return Actions()
        default:
            return Actions()
        }
    }

    /// The limiter asks a parked attempt to be sent again: its exchange is cancelled and a
    /// new one, holding the same admission, replaces it.
    mutating func resend(_ attempt: Int) -> Actions {
        if case .handingOver(attempt, _, false) = state {
            resendAfterHandOver = attempt
            return Actions()
        }
        guard case .running(attempt, let exchange, let task, false, _) = state else { return Actions() }
        superseded.insert(exchange)
        exchanges += 1
        openExchanges |= Self.bit(exchanges)
        state = .handingOver(attempt: attempt, exchange: exchanges, clockRunning: false)
        return Actions(cancelTask: task, next: .send(attempt: attempt, exchange: exchanges, resend: true))
    }

    /// Exchange `exchange` of attempt `attempt` completed (`failed`: without a response).
    mutating func transportCompleted(_ attempt: Int, exchange: Int, failed: Bool) -> Actions {
        // An exchange that was never handed over, or has completed already, holds nothing.
        guard exchange >= 1, exchange <= exchanges else { return Actions() }
        if exchange <= 64 {
            guard openExchanges & Self.bit(exchange) != 0 else { return Actions() }
            openExchanges &= ~Self.bit(exchange)
        }
        if superseded.remove(exchange) != nil {
            // Replaced by another exchange that holds the same admission.
            return Actions(removeStaging: exchange)
        }
        switch state {
        case .running(attempt, exchange, _, _, let timeoutArmed):
            state = .processing(attempt: attempt)
            return Actions(
                releaseSlot: (attempt, failed), cancelTimeout: timeoutArmed ? attempt : nil,
                next: .evaluate(attempt: attempt, exchange: exchange))
        case .handingOver(attempt, exchange, _):
            // Completed before the transport returned its task.
            state = .processing(attempt: attempt)
            return Actions(releaseSlot: (attempt, failed), next: .evaluate(attempt: attempt, exchange: exchange))
        default:
            // Ended after its request, or after its attempt timed out: it frees its slot, and
            // the transport writes its file no more.
            return Actions(releaseSlot: (attempt, failed), removeStaging: exchange)
        }
    }

    /// The timeout of attempt `attempt` fired.
    mutating func timedOut(_ attempt: Int) -> Actions {
        guard case .running(attempt, _, let task, _, true) = state else { return Actions() }
        state = .processing(attempt: attempt)
        return Actions(cancelTask: task, next: .attemptTimedOut(attempt: attempt))
    }

    // MARK: After an attempt

    /// Attempt `attempt` failed with `failure`; `delay` is the retry policy's wait before the
    /// next attempt (`nil`: no retry). `clientStopped`: the client starts no further attempt.
    mutating func attemptFailed(
        _ attempt: Int, _ failure: FetchError, retryAfter delay: Duration?, clientStopped: Bool
    )
        -> Actions
    {
        guard case .processing(attempt) = state else { return Actions() }
        guard let delay, !retriesStopped, !clientStopped else {
            state = .finished
            return Actions(next: .finish(.failure(failure)))
        }
        lastFailure = failure
        state = .waitingToRetry(attempt: attempt, renewingToken: false)
        return Actions(next: .scheduleRetry(attempt: attempt, delay: delay))
    }

    /// The server rejected attempt `attempt`'s token with `status`: the request renews it and
    /// is sent again, once. Any other answer than ``Actions/Next/renewToken(attempt:grant:)``
    /// means the rejection stands.
    mutating func tokenRejected(_ attempt: Int, status: Int, clientStopped: Bool) -> Actions {
        guard case .processing(attempt) = state, !renewedToken, !retriesStopped, !clientStopped else {
            return Actions()
        }
        renewedToken = true
        lastFailure = FetchError(code: .unacceptableStatus, statusCode: status)
        state = .waitingToRetry(attempt: attempt, renewingToken: true)
        return Actions(next: .renewToken(attempt: attempt, grant: sentToken))
    }

    /// The retry timer after attempt `attempt` fired.
    mutating func retryTimerFired(_ attempt: Int) -> Actions {
        guard case .waitingToRetry(attempt, false) = state else { return Actions() }
        return startNextAttempt(after: attempt)
    }

    /// The token that rejected attempt `attempt` was renewed.
    mutating func tokenRenewed(_ attempt: Int) -> Actions {
        guard case .waitingToRetry(attempt, true) = state else { return Actions() }
        return startNextAttempt(after: attempt)
    }

    private mutating func startNextAttempt(after attempt: Int) -> Actions {
        if retriesStopped, let lastFailure {
            state = .finished
            return Actions(next: .finish(.failure(lastFailure)))
        }
        state = .startingAttempt(attempt: attempt + 1)
        return Actions(next: .startAttempt(attempt: attempt + 1))
    }

    /// Lets the attempt in progress finish and starts no other: a request waiting to retry
    /// ends now with its last attempt's failure.
    mutating func stopRetrying() -> Actions {
        retriesStopped = true
        guard let lastFailure else { return Actions() }
        switch state {
        case .waitingToRetry(let attempt, let renewing):
            state = .finished
            return Actions(cancelRetryTimer: renewing ? nil : attempt, next: .finish(.failure(lastFailure)))
        case .startingAttempt(let attempt) where attempt > 1:
            state = .finished
            return Actions(next: .finish(.failure(lastFailure)))
        case .waitingForSlot(let attempt) where attempt > 1:
            // A retry queued behind its host's other requests is not sent.
            state = .finished
            cancelledSlotWait = attempt
            return Actions(cancelSlotWait: attempt, next: .finish(.failure(lastFailure)))
        default:
            return Actions()
        }
    }

    /// The bit of `exchange` in ``openExchanges`` (none after the 64th).
    private static func bit(_ exchange: Int) -> UInt64 {
        exchange >= 1 && exchange <= 64 ? 1 << UInt64(exchange - 1) : 0
    }

    // MARK: The end

    /// Ends the request with `outcome` wherever it is (a response evaluated, a failure, a
    /// cancellation); `nil` when it had ended already. While an exchange is being handed over
    /// the end waits for its task (see ``sent(_:exchange:task:)``) and the actions are empty.
    mutating func conclude(_ outcome: Outcome) -> Actions? {
        switch state {
        case .finishing, .finished:
            return nil
        case .preparing, .startingAttempt, .processing, .waitingToRetry(_, true):
            state = .finished
            return Actions(next: .finish(outcome))
        case .waitingForSlot(let attempt):
            state = .finished
            cancelledSlotWait = attempt
            return Actions(cancelSlotWait: attempt, next: .finish(outcome))
        case .handingOver(let attempt, let exchange, _):
            state = .finishing(outcome, attempt: attempt, exchange: exchange)
            return Actions()
        case .running(let attempt, _, let task, _, let timeoutArmed):
            state = .finished
            return Actions(cancelTimeout: timeoutArmed ? attempt : nil, cancelTask: task, next: .finish(outcome))
        case .waitingToRetry(let attempt, false):
            state = .finished
            return Actions(cancelRetryTimer: attempt, next: .finish(outcome))
        }
    }
}
