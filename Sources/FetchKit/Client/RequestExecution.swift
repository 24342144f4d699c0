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
/// start (build, adapt, look up) is in `RequestExecution+Start.swift`, the bookkeeping kept
/// under the lock in `RequestExecution+State.swift`.
///
/// The class is not generic: the value's type lives only in its ``ResultHandoff``, so the
/// driver, which runs unspecialized, looks up no generic metadata as it goes.
final class RequestExecution: CancellableExecution {
    private typealias Actions = RequestStateMachine.Actions

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
    private let handoff: any ResultHandoff
    /// Progress, metrics and observers.
    private let reporting: RequestReporting
    private var progress: ProgressReporter? { reporting.progress }
    /// The HTTP cache's hooks: a look-up before sending, a store after the response.
    let cache: RequestCache
    /// Whether the body is handed over as it arrives (``Extraction/stream``): such a request
    /// skips the cache, and its head completes the exchange.
    let streams: Bool
    let state: Locked<State>

    init(
        id: Int, client: FetchClient, method: HTTPMethod, timeout: Duration, handoff: any ResultHandoff,
        downloadTo: URL? = nil, streams: Bool = false, group: CancellationGroup?, delivery: Delivery,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) {
        self.id = id
        self.streams = streams
        self.reporting = RequestReporting(
            observers: client.configuration.observers, progressInterval: client.configuration.progressInterval,
            delivery: delivery, progress: progress)
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
    private func transition(_ event: (inout RequestStateMachine) -> Actions) -> Step {
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
            client.configuration.authenticator?.renew(replacing: grant) { [weak self] result in
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
        authenticator.currentToken { [self] result in
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
    private func uploadFileChanged(_ prepared: AdaptedRequest) -> FetchError? { prepared.bodyFile?.change }

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

    // MARK: Outcomes of an attempt

    private func transportDidComplete(
        _ attempt: Int, _ exchange: Int, _ result: Result<TransportResponse, any Error>
    ) {
        var failed = false
        if case .failure = result { failed = true }
        let step = state.withLock { state in
            let actions = state.machine.transportCompleted(attempt, exchange: exchange, failed: failed)
            if case .evaluate = actions.next, case .success(let response) = result {
                state.lastStatus = response.statusCode
                state.lastBytes = response.data.count
                if staging.isDownload { state.downloaded = exchange }
            }
            return state.step(for: actions)
        }
        perform(step)
        // Only the current exchange's end pauses the progress (a late one of an earlier attempt does not).
        if case .evaluate = step.actions.next { progress?.pause() }
        guard case .evaluate = step.actions.next, let prepared = step.prepared else {
            // A late head of a stream no longer wanted: close its connection.
            if case .success(let response) = result { response.streamedBody?.stop(FetchError(code: .cancelled)) }
            return
        }
        evaluateExchange(attempt, exchange, result, prepared)
    }

    /// Evaluates what exchange `exchange`, the current one of attempt `attempt`, brought back.
    private func evaluateExchange(
        _ attempt: Int, _ exchange: Int, _ result: Result<TransportResponse, any Error>, _ prepared: AdaptedRequest
    ) {
        if case .failure = result { staging.remove(exchange) }
        // The transport names a file that changed while it was sent; so does a file that
        // changed since the request was built, whatever the transport reported.
        var reported: FetchError?
        if case .failure(let error as FetchError) = result, error.code == .fileUnavailable { reported = error }
        if let failure = reported ?? uploadFileChanged(prepared) {
            staging.remove(exchange)
            finish(.failure(failure))
            return
        }
        switch result {
        case .failure(let error):
            let code = (error as? URLError)?.code ?? .unknown
            if code != .cancelled, serveStaleAfterError(prepared, transportFailed: true) { return }
            switch code {
            case .cancelled:
                finish(.failure(FetchError(code: .cancelled)))
            case .timedOut:
                handleFailure(attempt, FetchError(code: .timedOut, timeout: timeout), retryAfter: nil)
            default:
                handleFailure(attempt, client.configuration.transportError(error, prepared), retryAfter: nil)
            }
        case .success(var response):
            let status = response.statusCode
            if let body = response.streamedBody, !client.configuration.acceptableStatusCodes.contains(status) {
                // A refused stream's body is read (its start) for the error, as any other's.
                Task { [self, response] in
                    var refused = response
                    refused.data = await body.collect(upTo: 64 * 1024)
                    refused.streamedBody = nil
                    evaluateExchange(attempt, exchange, .success(refused), prepared)
                }
                return
            }
            if status == 304, cache.revalidates(prepared) {
                // Not modified: the stored body stands, with the fresh headers.
                if let stored = cache.refreshed(by: response, prepared) {
                    response = staging.inMemory(stored)
                    state.withLock { state in
                        state.cacheUse = .notModified
                        // A download's 304 streamed an empty body: the stored one is written instead.
                        state.downloaded = nil
                    }
                    staging.remove(exchange)
                }
            } else if (500..<600).contains(status), serveStaleAfterError(prepared, transportFailed: false) {
                return
            } else if let authenticator = client.configuration.authenticator,
                authenticator.rejectionStatuses.contains(status)
            {
                // A rejected token is renewed and the request sent again, once; after that the rejection stands.
                let clientStopped = client.retriesStopped.withLock { $0 }
                let step = transition { $0.tokenRejected(attempt, status: status, clientStopped: clientStopped) }
                if case .renewToken = step.actions.next {
                    perform(step)
                    return
                }
            }
            switch evaluate(response, prepared) {
            case .success(let value):
                updateCache(after: response, prepared)
                finish(.success(value))
            case .failure(let error):
                response.streamedBody?.stop(FetchError(code: .cancelled))
                let retryAfter = RetryAfter.delay(from: response.value(forHTTPHeaderField: "Retry-After"))
                handleFailure(attempt, error.waiting(retryAfter), retryAfter: retryAfter)
            }
        }
    }

    /// The cache's hook after the response: stores it with its whole body (a download's read
    /// mapped from its file).
    private func updateCache(after response: TransportResponse, _ prepared: AdaptedRequest) {
        guard cache.cache != nil else { return }
        var response = response
        guard let body = staging.body(of: response, downloaded: state.withLock({ $0.downloaded })) else { return }
        response.data = body
        cache.store(after: response, prepared, method: method, cacheUse: { self.state.withLock { $0.cacheUse } })
    }

    /// Validates a response and extracts the value (``FetchClient/Configuration-swift.struct/evaluate(_:_:handoff:staging:downloaded:)``).
    func evaluate(_ response: TransportResponse, _ prepared: AdaptedRequest) -> Outcome {
        client.configuration.evaluate(
            response, prepared, handoff: handoff, staging: staging, downloaded: { self.state.withLock { $0.downloaded } })
    }

    /// Retries after `error` when the retry policy allows, or ends the request with it.
    private func handleFailure(_ attempt: Int, _ error: FetchError, retryAfter: Duration?) {
        let policy = client.configuration.retryPolicy
        let delay = policy.delay(after: error, method: method, retriesSoFar: attempt - 1, retryAfter: retryAfter)
        let clientStopped = delay != nil && client.retriesStopped.withLock { $0 }
        let step = transition { $0.attemptFailed(attempt, error, retryAfter: delay, clientStopped: clientStopped) }
        if case .scheduleRetry(_, let delay) = step.actions.next {
            reporting.willRetry(step.prepared, attempt: attempt, after: delay, because: error)
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
