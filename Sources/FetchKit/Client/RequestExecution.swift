import Dispatch
import Foundation
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One fetch from start to completion: builds and adapts the request, waits for a slot
/// for its host, runs attempts with their own timeout clock, retries, and finishes
/// exactly once.
///
/// The lifecycle is a ``RequestStateMachine`` kept under `state`'s lock: every event (a slot
/// granted, a response, a timer, a cancellation) is one transition of the machine, taken
/// under the lock together with the driver's own bookkeeping, and the actions it returns
/// (send, arm a timer, release a slot, finish) run after the lock is released. The machine
/// decides which events still count and returns the completion exactly once.
///
/// The concerns beside the lifecycle have types of their own: the HTTP cache behind its two
/// hooks (``RequestCache``), a download's staging files (``DownloadStaging``), progress,
/// metrics and observers (``RequestReporting``), and the judging of a response
/// (``FetchClient/Configuration-swift.struct/evaluate(_:_:handoff:staging:downloaded:)``). The
/// start (build, adapt, look up) is in `RequestExecution+Start.swift`, the judging of what an
/// attempt brought back in `RequestExecution+Outcome.swift`, the bookkeeping kept under the
/// lock in `RequestExecution+State.swift`.
///
/// The class is not generic: the value's type lives only in its ``ResultHandoff``, so the
/// driver, which runs unspecialized, looks up no generic metadata as it goes.
final class RequestExecution: CancellableExecution {
    typealias Actions = RequestStateMachine.Actions

    let id: Int
    let client: FetchClient
    let method: HTTPMethod
    let timeout: Duration
    /// A download's staging files (none for a data request, whose body stays in memory): the
    /// transport writes each exchange's body into one, renamed over the destination only when
    /// the download succeeds.
    let staging: DownloadStaging
    let group: CancellationGroup?
    private let delivery: Delivery
    let handoff: any ResultHandoff
    /// Progress, metrics and observers.
    let reporting: RequestReporting
    var progress: ProgressReporter? { reporting.progress }
    /// The HTTP cache's hooks: a look-up before sending, a store after the response.
    let cache: RequestCache
    /// Whether the body is handed over as it arrives (``Extraction/stream``): such a request
    /// skips the cache, and its head completes the exchange.
    let streams: Bool
    let state: Locked<State>

    init(
        id: Int, client: FetchClient, method: HTTPMethod, timeout: Duration, handoff: any ResultHandoff,
        downloadTo: URL? = nil, streams: Bool = false, group: CancellationGroup?, delivery: Delivery,
        progress: (@Sendable (TransferProgress) -> Void)? = nil, progressChannel: ProgressChannel? = nil
    ) {
        self.id = id
        self.streams = streams
        self.reporting = RequestReporting(
            observers: client.configuration.observers, progressInterval: client.configuration.progressInterval,
            delivery: delivery, progress: progress, channel: progressChannel)
        self.cache = RequestCache(
            cache: streams ? nil : client.configuration.cache, redactor: client.configuration.redactor)
        self.staging = DownloadStaging(destination: downloadTo)
        self.client = client
        self.method = method
        self.timeout = timeout
        self.group = group
        self.delivery = delivery
        self.handoff = handoff
        self.state = Locked(
            State(
                machine: RequestStateMachine(authenticates: client.configuration.authenticator != nil),
                timesWaits: reporting.isObserved))
    }

    var isFinished: Bool { state.withLock { $0.machine.isFinished } }

    /// The limiter's token for `attempt`: each attempt holds a slot of its own.
    private func slot(_ attempt: Int) -> HostLimiter.Token {
        HostLimiter.Token(request: id, attempt: attempt)
    }

    func cancel() {
        finish(.failure(FetchError(code: .cancelled)))
    }

    func markCancelled() -> (() -> Void)? {
        guard let step = conclude(.failure(FetchError(code: .cancelled))) else { return nil }
        return { [self] in perform(step) }
    }

    /// Lets the attempt in progress finish and starts no other: a request waiting to retry
    /// ends now with its last attempt's error, and one whose attempt fails later ends with it.
    func stopRetrying() {
        perform(transition { $0.stopRetrying() })
    }

    // MARK: Transitions

    /// Takes one transition of the machine under the lock, with the bookkeeping its actions need there.
    func transition(_ event: (inout RequestStateMachine) -> Actions) -> Step {
        state.withLock { state in
            let actions = event(&state.machine)
            return state.step(for: actions)
        }
    }

    /// Ends the request with `outcome` unless it has ended already; `nil` then.
    private func conclude(_ outcome: Outcome) -> Step? {
        state.withLock { state in
            guard let actions = state.machine.conclude(outcome) else { return nil }
            return state.step(for: actions)
        }
    }

    func finish(_ outcome: Outcome) {
        if let step = conclude(outcome) { perform(step) }
    }

    /// Performs a transition's actions, outside the lock: cancels and releases first, then the next step.
    /// ``RequestStateMachine/Actions/Next/answerLocally`` and ``RequestStateMachine/Actions/Next/evaluate(attempt:exchange:)``
    /// are left to the caller, which holds what they need.
    func perform(_ step: Step) {
        if let attempt = step.actions.cancelSlotWait, let prepared = step.prepared {
            client.limiter.cancelWaiting(host: prepared.host, token: slot(attempt))
        }
        if let (attempt, failed) = step.actions.releaseSlot, let prepared = step.prepared {
            client.limiter.release(host: prepared.host, token: slot(attempt), failed: failed)
        }
        if step.actions.cancelTimeout != nil { step.timeout?.cancel() }
        if step.actions.cancelRetryTimer != nil { step.retryTimer?.cancel() }
        step.actions.cancelTask?.cancel()
        if let exchange = step.actions.removeStaging { staging.remove(exchange) }
        if let attempt = step.actions.armTimeout {
            // The timer drops the action when the item is cancelled, which finishing always does.
            step.timeout?.start(after: timeout, on: client.configuration.clock) { [self] in timeoutFired(attempt) }
        }
        switch step.actions.next {
        case .none, .answerLocally, .evaluate:
            break
        case .startAttempt(let attempt):
            startAttempt(attempt)
        case .requestSlot(let attempt):
            if let prepared = step.prepared { requestSlot(attempt, prepared) }
        case .send(let attempt, let exchange, let resend):
            if let prepared = step.prepared { send(attempt, exchange, prepared, resend: resend) }
        case .attemptTimedOut(let attempt):
            if let prepared = step.prepared, serveStaleAfterError(prepared, transportFailed: true) { return }
            handleFailure(attempt, FetchError(code: .timedOut, timeout: timeout), retryAfter: nil)
        case .scheduleRetry(let attempt, let delay):
            step.retryTimer?.start(after: delay, on: client.configuration.clock) { [self] in retryTimerFired(attempt) }
        case .renewToken(let attempt, let grant):
            client.configuration.authenticator?.renew(
                replacing: grant, observers: client.configuration.observers
            ) { [weak self] result in
                guard let self else { return }
                switch result {
                case .success: perform(transition { $0.tokenRenewed(attempt) })
                case .failure(let error): finish(.failure(error))
                }
            }
        case .finish(let outcome):
            if let ended = step.ended { complete(outcome, step.prepared, ended) }
        case .removeTemporaryBody:
            step.prepared?.bodyFile?.removeIfTemporary()
        }
    }

    // MARK: An attempt

    /// Gets attempt `attempt` ready: its token, when there is an authenticator.
    private func startAttempt(_ attempt: Int) {
        guard let authenticator = client.configuration.authenticator else {
            attemptReady(attempt, token: nil)
            return
        }
        authenticator.currentToken(observers: client.configuration.observers) { [self] result in
            switch result {
            case .success(let grant): attemptReady(attempt, token: grant)
            case .failure(let error): finish(.failure(error))
            }
        }
    }

    /// Attempt `attempt` has its token: it goes in the request, and the attempt asks for a
    /// slot once its upload file is checked to be what it was.
    private func attemptReady(_ attempt: Int, token grant: TokenGrant?) {
        let authenticator = grant == nil ? nil : client.configuration.authenticator
        let step = state.withLock { state in
            let actions = state.machine.attemptReady(attempt, token: grant)
            if case .requestSlot = actions.next {
                if state.timesWaits { state.slotRequestedAt = .now }
                if let token = grant?.token, let authenticator, let prepared = state.prepared {
                    state.prepared = prepared.authorized(authenticator.apply(token, to: prepared.request), token: token)
                }
            }
            return state.step(for: actions)
        }
        if case .requestSlot = step.actions.next, let prepared = step.prepared,
            let failure = uploadFileChanged(prepared)
        {
            finish(.failure(failure))
            return
        }
        perform(step)
    }

    /// Asks the host limiter for a slot for attempt `attempt`.
    private func requestSlot(_ attempt: Int, _ prepared: AdaptedRequest) {
        client.limiter.acquire(
            host: prepared.host, token: slot(attempt),
            // A parked request may be sent again; a download's superseded exchange could still
            // write the shared staging file, and an upload would be sent twice, so neither is parked.
            parkable: method.isIdempotent && !staging.isDownload && prepared.bodyFile == nil,
            // Held strongly: the limiter drops its reference when it releases or cancels the
            // slot, though an admitted waiter's entry may stay in its queue until the queue is compacted.
            holder: self)
    }

    /// A ``FetchError/Code-swift.struct/fileUnavailable`` error when the file to upload changed
    /// since the request was built (``BuiltRequest/BodyFile/change``).
    func uploadFileChanged(_ prepared: AdaptedRequest) -> FetchError? { prepared.bodyFile?.change }

    /// Hands exchange `exchange` of attempt `attempt` to the transport (`resend`: in place of
    /// a parked exchange of the same attempt) and reports its task to the machine.
    private func send(_ attempt: Int, _ exchange: Int, _ prepared: AdaptedRequest, resend: Bool) {
        if !resend { reporting.willStart(prepared, attempt: attempt) }
        let task = transportTask(attempt, exchange, prepared)
        let step = transition { $0.sent(attempt, exchange: exchange, task: task) }
        perform(step)
        guard !resend, progress != nil, case .none = step.actions.next else { return }
        // Not when the exchange completed while it was handed over: its task reports no more.
        let running = state.withLock { state in
            if case .running(attempt, exchange, _, _, _) = state.machine.state { true } else { false }
        }
        if running { reporting.watchProgress(of: task, prepared) }
    }

    /// Hands the request to the transport as exchange number `exchange`.
    private func transportTask(_ attempt: Int, _ exchange: Int, _ prepared: AdaptedRequest) -> any TransportTask {
        if streams {
            let configuration = client.configuration
            let body = StreamedBody(idleTimeout: timeout, clock: configuration.clock) { error in
                configuration.transportError(error, prepared).describing("\(prepared.summary)")
            }
            let task = client.transport.stream(prepared.request, into: body) { [self] result in
                transportDidComplete(
                    attempt, exchange,
                    result.map { response in
                        var response = response
                        response.streamedBody = body
                        return response
                    })
            }
            body.attach(task)
            return task
        }
        if let file = staging.file(exchange) {
            return client.transport.download(prepared.request, into: file) { [self] result in
                transportDidComplete(attempt, exchange, result.map { TransportResponse(response: $0, data: Data()) })
            }
        }
        if let file = prepared.bodyFile {
            // Checked again at the last moment: the file may have changed while the request
            // waited for a connection.
            if let failure = uploadFileChanged(prepared) {
                transportDidComplete(attempt, exchange, .failure(failure))
                return NoTask()
            }
            return client.transport.upload(prepared.request, fromFile: file.url) { [self] result in
                transportDidComplete(attempt, exchange, result)
            }
        }
        if progress != nil {
            return client.transport.sendTrackingProgress(prepared.request) { [self] result in
                transportDidComplete(attempt, exchange, result)
            }
        }
        return client.transport.send(prepared.request) { [self] result in
            transportDidComplete(attempt, exchange, result)
        }
    }

    private func timeoutFired(_ attempt: Int) {
        let step = state.withLock { state in
            let actions = state.machine.timedOut(attempt)
            if case .attemptTimedOut = actions.next { state.timeout = nil }
            return state.step(for: actions)
        }
        perform(step)
    }

    private func retryTimerFired(_ attempt: Int) {
        let step = state.withLock { state in
            let actions = state.machine.retryTimerFired(attempt)
            switch actions.next {
            case .none: break
            default: state.retryTimer = nil
            }
            return state.step(for: actions)
        }
        perform(step)
    }

    // MARK: Finish

    /// Does the end's work: tells the group and the client, moves a download into place,
    /// removes files, sends the last progress report, tells observers and delivers the completion.
    private func complete(_ result: Outcome, _ prepared: AdaptedRequest?, _ ended: Ended) {
        var result = result
        // Read again if the request was cancelled before it was prepared and has been since.
        let prepared = prepared ?? state.withLock { $0.prepared }
        client.running.remove(self)
        group?.remove(self)
        if staging.isDownload {
            // A body served from memory (the cache) was written by the extraction; a streamed one moves now.
            if case .success = result, ended.downloaded != nil || ended.cacheUse == .none,
                let failure = staging.moveIntoPlace(ended.downloaded)
            {
                result = .failure(failure)
            }
            // Every exchange's staging file: the transport writes none of them any more.
            for exchange in 0..<ended.exchanges { staging.remove(exchange + 1) }
        }
        prepared?.bodyFile?.removeIfTemporary()
        let deliver: @Sendable () -> Void
        var failure: FetchError?
        switch result {
        case .success(let deliverValue):
            deliver = deliverValue
        case .failure(let error):
            let described = error.describing(prepared.map { "\($0.summary)" })
            failure = described
            let handoff = self.handoff
            deliver = { handoff.fail(described) }
        }
        var succeeded = false
        if case .success = result { succeeded = true }
        reporting.finish(
            succeeded: succeeded, failure: failure, prepared, ended, received: self.staging.destinationSize)
        delivery.run(deliver)
    }
}

extension RequestExecution: SlotHolder {
    func slotGranted(_ token: HostLimiter.Token, admission: HostLimiter.Admission) {
        perform(transition { $0.slotGranted(token.attempt, running: admission == .running) })
    }

    func slotClockStarted(_ token: HostLimiter.Token) {
        perform(transition { $0.clockStarted(token.attempt) })
    }

    func slotResend(_ token: HostLimiter.Token) {
        perform(transition { $0.resend(token.attempt) })
    }
}
