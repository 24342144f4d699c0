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
/// The class is not generic: the value's type lives only in its ``ResultHandoff``, so the
/// driver, which runs unspecialized, looks up no generic metadata as it goes.
final class RequestExecution: CancellableExecution {
    private typealias Prepared = ExecutionRequest
    private typealias Actions = RequestStateMachine.Actions

    let id: Int
    private let client: FetchClient
    private let method: HTTPMethod
    private let timeout: Duration
    /// Where a download's body goes once it is complete; `nil` for a data request, whose body
    /// stays in memory. The transport writes each exchange's body into a staging file of its own
    /// next to it (``staging(_:)``), renamed over it only when the download succeeds.
    private let downloadTo: URL?
    /// Names this download's staging files (empty for a data request).
    private let stagingTag: String
    private let group: CancellationGroup?
    private let delivery: Delivery
    private let handoff: any ResultHandoff
    private let progress: ProgressReporter?
    /// When the request started, read only for observers (the clock is not read when there are none).
    private let startedAt: ContinuousClock.Instant?
    private let state: Locked<State>

    init(
        id: Int, client: FetchClient, method: HTTPMethod, timeout: Duration, handoff: any ResultHandoff,
        downloadTo: URL? = nil, group: CancellationGroup?, delivery: Delivery,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) {
        self.id = id
        if let progress {
            let queue: DispatchQueue? =
                switch delivery {
                case .queue(let queue): queue
                case .immediate: nil
                }
            self.progress = ProgressReporter(
                interval: client.configuration.progressInterval, delivery: queue, handler: progress)
        } else {
            self.progress = nil
        }
        self.downloadTo = downloadTo
        self.stagingTag = downloadTo == nil ? "" : UUID().uuidString
        self.client = client
        self.method = method
        self.timeout = timeout
        self.group = group
        self.delivery = delivery
        self.handoff = handoff
        let observed = !client.configuration.observers.isEmpty
        self.startedAt = observed ? .now : nil
        self.state = Locked(
            State(
                machine: RequestStateMachine(authenticates: client.configuration.authenticator != nil),
                timesWaits: observed))
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

    private func finish(_ outcome: Outcome) {
        if let step = conclude(outcome) { perform(step) }
    }

    /// Performs a transition's actions, outside the lock: cancels and releases first, then the next step.
    /// ``RequestStateMachine/Actions/Next/answerLocally`` and ``RequestStateMachine/Actions/Next/evaluate(attempt:exchange:)``
    /// are left to the caller, which holds what they need.
    private func perform(_ step: Step) {
        if let attempt = step.actions.cancelSlotWait, let prepared = step.prepared {
            client.limiter.cancelWaiting(host: prepared.host, token: slot(attempt))
        }
        if let (attempt, failed) = step.actions.releaseSlot, let prepared = step.prepared {
            client.limiter.release(host: prepared.host, token: slot(attempt), failed: failed)
        }
        if step.actions.cancelTimeout != nil { step.timeout?.cancel() }
        if step.actions.cancelRetryTimer != nil { step.retryTimer?.cancel() }
        step.actions.cancelTask?.cancel()
        if let exchange = step.actions.removeStaging { removeStaging(exchange) }
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
            removeTemporaryBody(step.prepared?.bodyFile)
        }
    }

    // MARK: Start

    func begin(build: @Sendable () throws(FetchError) -> OutgoingRequest) {
        client.running.add(self)
        group?.add(self)
        // Read field by field: a copy of the whole configuration costs more than the reads.
        let redactor = client.configuration.redactor
        var outgoing: OutgoingRequest
        do {
            outgoing = try build()
        } catch {
            finish(.failure(error))
            return
        }
        var request = outgoing.request
        let host: String
        do {
            let adapters = client.configuration.adapters
            for adapter in adapters {
                request = try adapter.adapt(request)
            }
            // The key the build read from the URL's text holds while the adapters left the URL as it was.
            if let key = outgoing.hostKey, adapters.isEmpty || request.url == outgoing.request.url {
                host = key
            } else {
                host = try URLValidation.hostKey(of: request.url)
            }
        } catch {
            removeTemporaryBody(outgoing.bodyFile)
            finish(.failure(error.describing(redactor.describe(request))))
            return
        }
        // The session's own timer is a backstop only: the client's clock below ends the attempt first.
        let sessionTimeout = FetchClient.sessionTimeout(for: timeout)
        if request.timeoutInterval != sessionTimeout { request.timeoutInterval = sessionTimeout }
        var sent = request
        var cacheKey: String?
        var requestedAt: Date?
        var revalidating: CachedResponse?
        var backgroundRefresh: URLRequest?
        var served: (entry: CachedResponse, use: FetchMetrics.CacheUse)?
        var unsatisfiable = false
        if let cache = client.configuration.cache,
            let key = HTTPCache.key(for: request, policy: outgoing.cachePolicy, redactor: redactor)
        {
            cacheKey = key
            let now = Date()
            requestedAt = now
            switch cache.lookup(key: key, request: request, policy: outgoing.cachePolicy, now: now) {
            case .fresh(let entry):
                served = (entry, .hit)
            case .staleWhileRevalidate(let entry):
                served = (entry, .staleWhileRevalidating)
                // Built as the fetch was, before adapters: the refresh runs them itself.
                backgroundRefresh = outgoing.request
            case .revalidate(let entry, let headers):
                for (name, value) in headers { sent.setValue(value, forHTTPHeaderField: name) }
                revalidating = entry
            case .miss(let headers):
                for (name, value) in headers { sent.setValue(value, forHTTPHeaderField: name) }
            case .unsatisfiable:
                unsatisfiable = true
            }
        }
        let ready = Prepared(
            request: sent, host: host, id: id, method: method, redactor: redactor, bodyFile: outgoing.bodyFile,
            cacheKey: cacheKey, revalidating: revalidating, requestedAt: requestedAt,
            backgroundRefresh: backgroundRefresh)
        let step = state.withLock { state in
            state.prepared = ready
            return state.step(for: state.machine.prepared(answerLocally: served != nil || unsatisfiable))
        }
        guard case .answerLocally = step.actions.next else {
            // The first attempt, or, when it was cancelled while it was being built, the
            // removal of its temporary body.
            perform(step)
            return
        }
        if let served {
            serveFromCache(served.entry, ready, use: served.use)
            if let refresh = ready.backgroundRefresh, let key = ready.cacheKey {
                client.refreshInBackground(refresh, key: key)
            }
            return
        }
        // `only-if-cached` with nothing stored: the cache answers 504 (RFC 9111 §5.2.1.7).
        guard let url = ready.request.url,
            let response = HTTPURLResponse(url: url, statusCode: 504, httpVersion: "HTTP/1.1", headerFields: [:])
        else {
            finish(.failure(FetchError(code: .badResponse, detail: "the cache's 504 response could not be built")))
            return
        }
        state.withLock { $0.lastStatus = 504 }
        finish(evaluate(TransportResponse(response: response, data: Data()), ready))
    }

    /// Answers with a stored response; nothing is sent.
    private func serveFromCache(_ entry: CachedResponse, _ prepared: Prepared, use: FetchMetrics.CacheUse) {
        state.withLock { state in
            state.cacheUse = use
            state.lastStatus = entry.status
        }
        guard let url = prepared.request.url, let response = entry.response(for: url, at: Date()) else {
            finish(.failure(FetchError(code: .badResponse, detail: "the cached response could not be rebuilt")))
            return
        }
        finish(evaluate(inMemory(TransportResponse(response: response, data: entry.body)), prepared))
    }

    /// `response`, marked for a download as a body in memory that its extraction writes to the
    /// destination (a stored response: nothing streamed to disk).
    private func inMemory(_ response: TransportResponse) -> TransportResponse {
        guard downloadTo != nil else { return response }
        var response = response
        response.bodyInMemory = response.data
        return response
    }

    /// Serves the stale response a failed revalidation leaves, when its `stale-if-error` or the
    /// cache's offline policy allows; `false` when the failure stands.
    private func serveStaleAfterError(_ prepared: Prepared, transportFailed: Bool) -> Bool {
        guard let entry = prepared.revalidating, let cache = client.configuration.cache,
            cache.mayServeAfterError(entry, transportFailed: transportFailed, now: Date())
        else { return false }
        serveFromCache(entry, prepared, use: .staleAfterError)
        return true
    }

    /// Removes a temporary body file (a multipart form written for this request).
    private func removeTemporaryBody(_ file: OutgoingRequest.BodyFile?) {
        if let file, file.isTemporary { try? FileManager.default.removeItem(at: file.url) }
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
    private func requestSlot(_ attempt: Int, _ prepared: Prepared) {
        client.limiter.acquire(
            host: prepared.host, token: slot(attempt),
            // A parked request may be sent again; a download's superseded exchange could still
            // write the shared staging file, and an upload would be sent twice, so neither is parked.
            parkable: method.isIdempotent && downloadTo == nil && prepared.bodyFile == nil,
            // Held strongly: the limiter drops its reference when it releases or cancels the
            // slot, though an admitted waiter's entry may stay in its queue until the queue is compacted.
            holder: self)
    }

    /// A ``FetchError/Code-swift.struct/fileUnavailable`` error when the file to upload is
    /// gone or is no longer the file its request was built with: another file, another size,
    /// or modified since.
    private func uploadFileChanged(_ prepared: Prepared) -> FetchError? {
        guard let file = prepared.bodyFile else { return nil }
        guard let now = FileSnapshot(path: file.url.path) else {
            return .uploadFileChanged(file.url, "was deleted or moved")
        }
        return now.change(since: file.snapshot).map { .uploadFileChanged(file.url, $0) }
    }

    /// Hands exchange `exchange` of attempt `attempt` to the transport (`resend`: in place of
    /// a parked exchange of the same attempt) and reports its task to the machine.
    private func send(_ attempt: Int, _ exchange: Int, _ prepared: Prepared, resend: Bool) {
        let observers = client.configuration.observers
        if !resend, !observers.isEmpty {
            let summary = prepared.summary.with(attempt: attempt)
            for observer in observers { observer.requestWillStart(summary) }
        }
        let task = transportTask(attempt, exchange, prepared)
        let step = transition { $0.sent(attempt, exchange: exchange, task: task) }
        perform(step)
        guard !resend, progress != nil, case .none = step.actions.next else { return }
        // Not when the exchange completed while it was handed over: its task reports no more.
        let running = state.withLock { state in
            if case .running(attempt, exchange, _, _, _) = state.machine.state { true } else { false }
        }
        if running { watchProgress(of: task, prepared) }
    }

    /// Polls the exchange's progress for the caller who follows it.
    private func watchProgress(of task: any TransportTask, _ prepared: Prepared) {
        guard let progress else { return }
        let bodySize = prepared.bodySize
        progress.watch {
            guard var report = task.progress else { return nil }
            if report.totalBytesToSend == nil || report.totalBytesToSend == 0 { report.totalBytesToSend = bodySize }
            return report
        }
    }

    /// Hands the request to the transport as exchange number `exchange`.
    private func transportTask(_ attempt: Int, _ exchange: Int, _ prepared: Prepared) -> any TransportTask {
        if let staging = staging(exchange) {
            return client.transport.download(prepared.request, into: staging) { [self] result in
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
                if downloadTo != nil { state.downloaded = exchange }
            }
            return state.step(for: actions)
        }
        perform(step)
        // Only the current exchange's end pauses the progress (a late one of an earlier attempt does not).
        if case .evaluate = step.actions.next { progress?.pause() }
        guard case .evaluate = step.actions.next, let prepared = step.prepared else { return }
        evaluateExchange(attempt, exchange, result, prepared)
    }

    /// Evaluates what exchange `exchange`, the current one of attempt `attempt`, brought back.
    private func evaluateExchange(
        _ attempt: Int, _ exchange: Int, _ result: Result<TransportResponse, any Error>, _ prepared: Prepared
    ) {
        if case .failure = result { removeStaging(exchange) }
        // The transport names a file that changed while it was sent; so does a file that
        // changed since the request was built, whatever the transport reported.
        var reported: FetchError?
        if case .failure(let error as FetchError) = result, error.code == .fileUnavailable { reported = error }
        if let failure = reported ?? uploadFileChanged(prepared) {
            removeStaging(exchange)
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
                let failure = TransportFailure.classify(error)
                let detail = failure.detail.map { client.configuration.redactor.scrub($0, secrets: prepared.secrets) }
                handleFailure(
                    attempt, FetchError(code: failure.code, detail: detail, urlErrorCode: failure.urlErrorCode),
                    retryAfter: nil)
            }
        case .success(var response):
            let status = response.statusCode
            if status == 304, let entry = prepared.revalidating,
                let cache = client.configuration.cache
            {
                // Not modified: the stored body stands, with the fresh headers.
                let now = Date()
                let updated = entry.revalidated(with: response.response, requestedAt: prepared.requestedAt, at: now)
                cache.store(updated, secrets: prepared.secrets, redactor: client.configuration.redactor)
                if let url = prepared.request.url, let stored = updated.response(for: url, at: now) {
                    response = inMemory(TransportResponse(response: stored, data: updated.body))
                    state.withLock { state in
                        state.cacheUse = .notModified
                        // A download's 304 streamed an empty body: the stored one is written instead.
                        state.downloaded = nil
                    }
                    removeStaging(exchange)
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
                let retryAfter = RetryAfter.delay(from: response.value(forHTTPHeaderField: "Retry-After"))
                handleFailure(attempt, error, retryAfter: retryAfter)
            }
        }
    }

    /// Stores a cacheable response, or drops the stored responses that a successful unsafe
    /// request (`POST`, `PUT`, `PATCH`, `DELETE`) changed.
    private func updateCache(after response: TransportResponse, _ prepared: Prepared) {
        guard let cache = client.configuration.cache else { return }
        var response = response
        if response.bodyInMemory == nil, let staging = staging(state.withLock { $0.downloaded }) {
            // A download's body is on disk: the cache reads it mapped.
            guard let body = try? Data(contentsOf: staging, options: .alwaysMapped) else { return }
            response.data = body
        }
        let redactor = client.configuration.redactor
        if let key = prepared.cacheKey {
            guard state.withLock({ $0.cacheUse }) == .none else { return }
            cache.storeIfCacheable(
                key: key, request: prepared.request, response: response.response, body: response.data,
                redactor: redactor, secrets: prepared.secrets, requestedAt: prepared.requestedAt, now: Date())
        } else if !["GET", "HEAD", "OPTIONS", "TRACE"].contains(method.rawValue) {
            cache.afterUnsafeRequest(
                prepared.request, response: response.response, body: response.data, redactor: redactor,
                secrets: prepared.secrets, requestedAt: prepared.requestedAt, now: Date())
        }
    }

    /// Validates a response and extracts the value.
    private func evaluate(_ response: TransportResponse, _ prepared: Prepared) -> Outcome {
        let status = response.statusCode
        let redactor = client.configuration.redactor
        guard client.configuration.acceptableStatusCodes.contains(status) else {
            var body = response.data
            if let staging = staging(state.withLock { $0.downloaded }) {
                // A download's body is on disk: read its start for the excerpt, then drop it.
                body = Self.start(of: staging)
                try? FileManager.default.removeItem(at: staging)
            }
            let excerpt = redactor.scrub(Self.excerpt(of: body), secrets: prepared.secrets)
            return .failure(FetchError(code: .unacceptableStatus, statusCode: status, bodyExcerpt: excerpt))
        }
        // An API-reported failure is looked for in every body, a download's read mapped from its file.
        if let detector = client.configuration.apiFailureDetector,
            var failure = detector(detectedBody(of: response), response.response)
        {
            failure.message = redactor.scrub(failure.message, secrets: prepared.secrets)
            return .failure(FetchError(code: .apiFailure, statusCode: status, reportedFailure: failure))
        }
        do {
            return .success(try handoff.extract(response))
        } catch {
            return .failure(error.scrubbed(status: status, secrets: prepared.secrets, redactor))
        }
    }

    /// The body an API-failure detector reads: in memory, or a download's file read mapped.
    private func detectedBody(of response: TransportResponse) -> Data {
        guard response.bodyInMemory == nil, let staging = staging(state.withLock { $0.downloaded }) else {
            return response.data
        }
        return (try? Data(contentsOf: staging, options: .alwaysMapped)) ?? Data()
    }

    /// Retries after `error` when the retry policy allows, or ends the request with it.
    private func handleFailure(_ attempt: Int, _ error: FetchError, retryAfter: Duration?) {
        let policy = client.configuration.retryPolicy
        let delay = policy.delay(after: error, method: method, retriesSoFar: attempt - 1, retryAfter: retryAfter)
        let clientStopped = delay != nil && client.retriesStopped.withLock { $0 }
        let step = transition { $0.attemptFailed(attempt, error, retryAfter: delay, clientStopped: clientStopped) }
        let observers = client.configuration.observers
        if case .scheduleRetry(_, let delay) = step.actions.next, !observers.isEmpty,
            let summary = step.prepared?.summary
        {
            let described = error.describing("\(summary)")
            for observer in observers {
                observer.requestWillRetry(summary.with(attempt: attempt), after: delay, because: described)
            }
        }
        perform(step)
    }

    // MARK: Finish

    /// Does the end's work: tells the group and the client, moves a download into place,
    /// removes files, sends the last progress report, tells observers and delivers the completion.
    private func complete(_ result: Outcome, _ prepared: Prepared?, _ ended: Ended) {
        var result = result
        // Read again if the request was cancelled before it was prepared and has been since.
        let prepared = prepared ?? state.withLock { $0.prepared }
        client.running.remove(self)
        group?.remove(self)
        if downloadTo != nil {
            // A body served from memory (the cache) was written by the extraction; a streamed one moves now.
            if case .success = result, ended.downloaded != nil || ended.cacheUse == .none,
                let failure = moveIntoPlace(ended.downloaded)
            {
                result = .failure(failure)
            }
            // Every exchange's staging file: the transport writes none of them any more.
            for exchange in 0..<ended.exchanges { removeStaging(exchange + 1) }
        }
        removeTemporaryBody(prepared?.bodyFile)
        if let progress {
            progress.finish(finalProgress(result, prepared, ended))
        }
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
        if !client.configuration.observers.isEmpty, let summary = prepared?.summary {
            let metrics = FetchMetrics(
                error: failure, statusCode: ended.lastStatus, attempts: ended.attemptsStarted,
                bytesReceived: ended.lastBytes, duration: startedAt.map { ContinuousClock.now - $0 } ?? .zero,
                waitForConnection: ended.waited, cacheUse: ended.cacheUse)
            for observer in client.configuration.observers {
                observer.requestDidFinish(summary.with(attempt: max(1, ended.attempt)), metrics: metrics)
            }
        }
        switch delivery {
        case .queue(let queue): queue.async(execute: deliver)
        case .immediate: deliver()
        }
    }

    /// The last progress report: the whole transfer on success, the last polled one otherwise.
    private func finalProgress(
        _ result: Outcome, _ prepared: Prepared?, _ ended: Ended
    )
        -> TransferProgress
    {
        guard case .success = result else {
            var report = progress?.lastReport ?? TransferProgress(totalBytesToSend: prepared?.bodySize)
            report.isFinished = true
            return report
        }
        var received = Int64(ended.lastBytes)
        if let downloadTo,
            let size = try? FileManager.default.attributesOfItem(atPath: downloadTo.path)[.size] as? NSNumber
        {
            received = size.int64Value
        }
        let sent = ended.cacheUse == .hit ? 0 : prepared?.bodySize ?? 0
        return TransferProgress(
            bytesSent: sent, totalBytesToSend: sent, bytesReceived: received, totalBytesToReceive: received,
            isFinished: true)
    }

    // MARK: Downloads

    /// The file exchange number `exchange` of a download writes its body into: hidden, next to
    /// the destination (so renaming it there is atomic), and its own (a late write of a cancelled
    /// exchange cannot reach another's). `nil` for a data request.
    private func staging(_ exchange: Int?) -> URL? {
        guard let downloadTo, let exchange else { return nil }
        return downloadTo.deletingLastPathComponent()
            .appendingPathComponent(".\(downloadTo.lastPathComponent).\(stagingTag)-\(exchange).download")
    }

    private func removeStaging(_ exchange: Int) {
        if let staging = staging(exchange) { try? FileManager.default.removeItem(at: staging) }
    }

    /// Renames the body of exchange `exchange` over the destination, in one atomic step that
    /// replaces any file there; returns the error when it cannot.
    private func moveIntoPlace(_ exchange: Int?) -> FetchError? {
        guard let downloadTo, let staging = staging(exchange) else {
            return FetchError(code: .badResponse, detail: "the download's body was not written")
        }
        if !FileManager.default.fileExists(atPath: staging.path) {
            // A transport that writes nothing for an empty body: the file is empty.
            _ = FileManager.default.createFile(atPath: staging.path, contents: nil)
        }
        guard rename(staging.path, downloadTo.path) == 0 else {
            let reason = String(cString: strerror(errno))
            return FetchError(
                code: .fileUnavailable,
                detail: "the downloaded file could not be moved into place at \(downloadTo.path) (\(reason)). "
                    + "Check that its folder exists and is writable")
        }
        return nil
    }

    // MARK: Helpers

    /// The first 600 bytes of a file, or none when it cannot be read.
    private static func start(of file: URL) -> Data {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return Data() }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 600)) ?? Data()
    }

    private static func excerpt(of data: Data) -> String {
        let text = String(decoding: data.prefix(600), as: UTF8.self)
        let collapsed = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
        return collapsed.count > 200 ? String(collapsed.prefix(200)) + "…" : collapsed
    }
}

extension RequestExecution {
    /// What a ``RequestExecution`` keeps under its one lock: the machine and the driver's bookkeeping.
    fileprivate struct State {
        var machine: RequestStateMachine
        /// The request, once built and adapted (later attempts add a token).
        var prepared: ExecutionRequest?
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
    fileprivate struct Step {
        var actions: RequestStateMachine.Actions
        var prepared: ExecutionRequest?
        /// The timeout to start (``RequestStateMachine/Actions/armTimeout``) or to cancel.
        var timeout: ScheduledAction?
        /// The retry timer to start or to cancel.
        var retryTimer: ScheduledAction?
        /// The request's figures when it ended (with ``RequestStateMachine/Actions/Next/finish(_:)``).
        var ended: Ended?
    }

    /// What a request's end reports: its attempts, exchanges and metrics.
    fileprivate struct Ended {
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
