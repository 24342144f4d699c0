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
/// Every state change happens under `state`'s lock, and `conclude` is the only place that
/// sets `finished`; whichever path gets there first (response, timeout, cancellation,
/// failure) delivers the completion, and every later path sees `finished` and stops.
///
/// The class is not generic: the value's type lives only in its ``ResultHandoff``, so the
/// state machine, which runs unspecialized, looks up no generic metadata as it goes.
final class RequestExecution: CancellableExecution {
    private typealias Phase = ExecutionPhase
    private typealias State = ExecutionState
    private typealias Prepared = ExecutionRequest

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
    private let startedAt = ContinuousClock.now
    private let state = Locked(State())

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
    }

    var isFinished: Bool { state.withLock { $0.finished } }

    /// The limiter's token for `attempt`: each attempt holds a slot of its own.
    private func slot(_ attempt: Int) -> HostLimiter.Token {
        HostLimiter.Token(request: id, attempt: attempt)
    }

    func cancel() {
        finish(.failure(FetchError(code: .cancelled)))
    }

    func markCancelled() -> (() -> Void)? {
        conclude(.failure(FetchError(code: .cancelled)))
    }

    /// Lets the attempt in progress finish and starts no other: a request waiting to retry
    /// ends now with its last attempt's error, and one whose attempt fails later ends with it.
    func stopRetrying() {
        let pending = state.withLock { state -> (ScheduledAction, FetchError)? in
            state.retriesStopped = true
            guard !state.finished, case .retryWait(let item) = state.phase, let failure = state.lastFailure else {
                return nil
            }
            return (item, failure)
        }
        guard let (item, failure) = pending else { return }
        item.cancel()
        finish(.failure(failure))
    }

    // MARK: Start

    func begin(build: @Sendable () throws(FetchError) -> OutgoingRequest) {
        client.running.add(self)
        group?.add(self)
        let configuration = client.configuration
        let redactor = configuration.redactor
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
            for adapter in configuration.adapters {
                request = try adapter.adapt(request)
            }
            host = try URLValidation.hostKey(of: request.url)
        } catch {
            removeTemporaryBody(outgoing.bodyFile)
            finish(.failure(error.describing(redactor.describe(request))))
            return
        }
        // The session's own timer is a backstop only: the client's clock below ends the attempt first.
        let sessionTimeout = FetchClient.sessionTimeout(for: timeout)
        if request.timeoutInterval != sessionTimeout { request.timeoutInterval = sessionTimeout }
        var ready = Prepared(
            request: request, host: host, id: id, method: method, redactor: redactor, bodyFile: outgoing.bodyFile)
        var served: (entry: CachedResponse, use: FetchMetrics.CacheUse)?
        var unsatisfiable = false
        if let cache = configuration.cache, downloadTo == nil,
            let key = HTTPCache.key(for: request, policy: outgoing.cachePolicy, redactor: redactor)
        {
            ready.cacheKey = key
            let now = Date()
            ready.requestedAt = now
            switch cache.lookup(key: key, request: request, policy: outgoing.cachePolicy, now: now) {
            case .fresh(let entry):
                served = (entry, .hit)
            case .staleWhileRevalidate(let entry):
                served = (entry, .staleWhileRevalidating)
                // Built as the fetch was, before adapters: the refresh runs them itself.
                ready.backgroundRefresh = outgoing.request
            case .revalidate(let entry, let headers):
                for (name, value) in headers { ready.request.setValue(value, forHTTPHeaderField: name) }
                ready.revalidating = entry
            case .miss(let headers):
                for (name, value) in headers { ready.request.setValue(value, forHTTPHeaderField: name) }
            case .unsatisfiable:
                unsatisfiable = true
            }
        }
        let finishedMeanwhile = state.withLock { state -> Bool in
            state.prepared = ready
            return state.finished
        }
        if finishedMeanwhile {
            // Cancelled while it was being built: the completion may already have run without
            // seeing this request, so its temporary body is removed here (removing twice is harmless).
            removeTemporaryBody(ready.bodyFile)
            return
        }
        if let served {
            serveFromCache(served.entry, ready, use: served.use)
            if let refresh = ready.backgroundRefresh, let key = ready.cacheKey {
                client.refreshInBackground(refresh, key: key)
            }
            return
        }
        if unsatisfiable, let url = ready.request.url,
            let response = HTTPURLResponse(url: url, statusCode: 504, httpVersion: "HTTP/1.1", headerFields: [:])
        {
            // `only-if-cached` with nothing stored: the cache answers 504 (RFC 9111 §5.2.1.7).
            state.withLock { $0.lastStatus = 504 }
            finish(evaluate(TransportResponse(response: response, data: Data()), ready))
            return
        }
        startAttempt(1)
    }

    /// Answers with a stored response; nothing is sent.
    private func serveFromCache(_ entry: CachedResponse, _ prepared: Prepared, use: FetchMetrics.CacheUse) {
        state.withLock { state in
            state.cacheUse = use
            state.lastStatus = entry.status
            state.phase = .processing
        }
        guard let url = prepared.request.url, let response = entry.response(for: url, at: Date()) else {
            finish(.failure(FetchError(code: .badResponse, detail: "the cached response could not be rebuilt")))
            return
        }
        finish(evaluate(TransportResponse(response: response, data: entry.body), prepared))
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

    private func startAttempt(_ attempt: Int) {
        if attempt > 1 {
            // A retry or a re-send after a rejected token, scheduled before retries stopped.
            let stopped = state.withLock { state in state.retriesStopped ? state.lastFailure : nil }
            if let stopped {
                finish(.failure(stopped))
                return
            }
        }
        guard let authenticator = client.configuration.authenticator else {
            proceed(attempt, token: nil)
            return
        }
        authenticator.currentToken { [self] result in
            switch result {
            case .success(let grant): proceed(attempt, token: grant)
            case .failure(let error): finish(.failure(error))
            }
        }
    }

    /// Starts an attempt (with `token` in place, when there is an authenticator): checks
    /// that an upload file is still what it was, then waits for a slot for the host.
    private func proceed(_ attempt: Int, token grant: TokenGrant?) {
        let authenticator = grant == nil ? nil : client.configuration.authenticator
        let token = grant?.token
        let prepared = state.withLock { state -> Prepared? in
            if let token, let authenticator, let request = state.prepared?.request {
                state.prepared?.request = authenticator.apply(token, to: request)
                if !(state.prepared?.extraSecrets.contains(token) ?? true) {
                    state.prepared?.extraSecrets.append(token)
                }
            }
            return state.prepared
        }
        guard let prepared else { return }
        if let failure = uploadFileChanged(prepared) {
            finish(.failure(failure))
            return
        }
        let proceed = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            if attempt > 1 {
                guard case .retryWait = state.phase, state.attempt == attempt - 1 else { return false }
            }
            state.attempt = attempt
            state.sentToken = grant
            state.phase = .waitingForSlot(since: .now)
            return true
        }
        guard proceed else { return }
        client.limiter.acquire(
            host: prepared.host, token: slot(attempt),
            // A parked request may be sent again; a download's superseded exchange could still
            // write the shared staging file, and an upload would be sent twice, so neither is parked.
            parkable: method.isIdempotent && downloadTo == nil && prepared.bodyFile == nil,
            // Strong captures (as `grant` always was, and the timeout and retry actions now are):
            // a weak one would give every request a side table to allocate and free. The
            // limiter drops a request's closures when it releases or cancels its slot, though
            // an admitted waiter's entry may stay in its queue until the queue is compacted.
            grant: { [self] admission in run(attempt, admission) },
            startClock: { [self] in clockStarted(attempt) },
            resend: { [self] in resend(attempt) })
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

    /// Runs one attempt once the limiter has admitted it: running (its clock starts now) or
    /// parked in the transport (its clock starts when ``clockStarted(_:)`` is called).
    private func run(_ attempt: Int, _ admission: HostLimiter.Admission) {
        let started = state.withLock { state -> (prepared: Prepared?, exchange: Int?) in
            guard !state.finished, state.attempt == attempt, case .waitingForSlot(let since) = state.phase else {
                return (state.prepared, nil)
            }
            state.slotRequestedAt = since
            state.clockRunning = admission == .running
            if state.clockRunning { state.waited += ContinuousClock.now - since }
            state.phase = .running(nil)
            state.attemptsStarted += 1
            state.exchange += 1
            return (state.prepared, state.exchange)
        }
        // Never nil: the request is prepared before its first attempt asks for a slot.
        guard let prepared = started.prepared else { return }
        guard let exchange = started.exchange else {
            client.limiter.release(host: prepared.host, token: slot(attempt))
            return
        }
        let observers = client.configuration.observers
        if !observers.isEmpty {
            let summary = prepared.summary.with(attempt: attempt)
            for observer in observers { observer.requestWillStart(summary) }
        }
        let task = send(attempt, exchange, prepared)
        let (cancelNow, end) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
            if state.finished {
                defer { state.endAfterSend = nil }
                return (true, state.endAfterSend)
            }
            guard state.attempt == attempt, case .running(nil) = state.phase else { return (false, nil) }
            state.phase = .running(task)
            return (false, nil)
        }
        if cancelNow {
            // The request ended while it was being handed over: the exchange is cancelled before
            // the end's work (removing files, the completion) that waited for it.
            task.cancel()
            end?()
        } else {
            armTimeout(attempt)
            watchProgress(of: task, prepared)
        }
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
    private func send(_ attempt: Int, _ exchange: Int, _ prepared: Prepared) -> any TransportTask {
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

    /// Sends a parked attempt again, keeping its admission: the exchange that waited inside
    /// the transport is cancelled and its completion ignored (see `HostLimiter.release`).
    private func resend(_ attempt: Int) {
        let old = state.withLock { state -> (task: any TransportTask, exchange: Int, prepared: Prepared)? in
            guard !state.finished, state.attempt == attempt, case .running(let task?) = state.phase,
                !state.clockRunning, let prepared = state.prepared
            else { return nil }
            state.superseded.insert(state.exchange)
            state.exchange += 1
            return (task, state.exchange, prepared)
        }
        guard let old else { return }
        old.task.cancel()
        let task = send(attempt, old.exchange, old.prepared)
        let cancelNow = state.withLock { state -> Bool in
            if state.finished { return true }
            guard state.attempt == attempt, state.exchange == old.exchange, case .running = state.phase else {
                return true
            }
            state.phase = .running(task)
            return false
        }
        if cancelNow { task.cancel() }
        // The clock may have started while the request was being sent again.
        armTimeout(attempt)
    }

    /// A parked attempt could start now: a running request of its host has ended.
    private func clockStarted(_ attempt: Int) {
        let proceed = state.withLock { state -> Bool in
            guard !state.finished, state.attempt == attempt, case .running = state.phase, !state.clockRunning else {
                return false
            }
            state.clockRunning = true
            state.waited += ContinuousClock.now - state.slotRequestedAt
            return true
        }
        if proceed { armTimeout(attempt) }
    }

    /// Starts the attempt's timeout once both its transport task exists and its clock runs.
    private func armTimeout(_ attempt: Int) {
        let item = state.withLock { state -> ScheduledAction? in
            guard !state.finished, state.attempt == attempt, case .running(.some) = state.phase, state.clockRunning,
                state.timeoutItem == nil
            else { return nil }
            let item = ScheduledAction()
            state.timeoutItem = item
            return item
        }
        // The timer drops the action when the item is cancelled, which finishing always does.
        item?.start(after: timeout, on: client.configuration.clock) { [self] in attemptTimedOut(attempt) }
    }

    // MARK: Outcomes of an attempt

    private func attemptTimedOut(_ attempt: Int) {
        let taken = state.withLock { state -> (any TransportTask)?? in
            guard !state.finished, state.attempt == attempt, case .running(let task) = state.phase else { return nil }
            state.phase = .processing
            state.timeoutItem = nil
            return .some(task)
        }
        guard case .some(let task) = taken else { return }
        task?.cancel()
        if let prepared = state.withLock({ $0.prepared }), serveStaleAfterError(prepared, transportFailed: true) {
            return
        }
        handleFailure(attempt, FetchError(code: .timedOut, timeout: timeout), retryAfter: nil)
    }

    private func transportDidComplete(
        _ attempt: Int, _ exchange: Int, _ result: Result<TransportResponse, any Error>
    ) {
        let prepared = state.withLock { state -> Prepared? in
            // A superseded exchange was replaced by another that holds the same admission.
            guard state.superseded.remove(exchange) == nil else { return nil }
            return state.prepared
        }
        // Never nil for an exchange that was not superseded: it was sent with this request.
        guard let prepared else {
            removeStaging(exchange)
            return
        }
        // Every other exchange the transport started frees its slot exactly once, here.
        var failed = false
        if case .failure = result { failed = true }
        client.limiter.release(host: prepared.host, token: slot(attempt), failed: failed)
        progress?.pause()
        let proceed = state.withLock { state -> Bool in
            guard !state.finished, state.attempt == attempt, case .running = state.phase else { return false }
            state.phase = .processing
            state.timeoutItem?.cancel()
            state.timeoutItem = nil
            if case .success(let response) = result {
                state.lastStatus = response.statusCode
                state.lastBytes = response.data.count
                if downloadTo != nil { state.downloaded = exchange }
            }
            return true
        }
        guard proceed else {
            // An exchange that ended after its request: the transport writes its file no more.
            removeStaging(exchange)
            return
        }
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
                    response = TransportResponse(response: stored, data: updated.body)
                    state.withLock { $0.cacheUse = .notModified }
                }
            } else if (500..<600).contains(status), serveStaleAfterError(prepared, transportFailed: false) {
                return
            } else if let authenticator = client.configuration.authenticator,
                authenticator.rejectionStatuses.contains(status), renewToken(attempt, authenticator, status: status)
            {
                return
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

    /// After a rejected token: gets a newer one (one refresh for every request rejected
    /// with the same token) and sends the request again, once. Returns `false` when the
    /// request was already sent again, so the rejection stands.
    private func renewToken(_ attempt: Int, _ authenticator: TokenAuthenticator, status: Int) -> Bool {
        let item = ScheduledAction()
        let clientStopped = client.retriesStopped.withLock { $0 }
        let rejected = state.withLock { state -> TokenGrant?? in
            guard !state.authRetried, !state.retriesStopped, !clientStopped, !state.finished, state.attempt == attempt,
                case .processing = state.phase
            else {
                return .none
            }
            state.authRetried = true
            state.phase = .retryWait(item)
            state.lastFailure = FetchError(code: .unacceptableStatus, statusCode: status)
            return .some(state.sentToken)
        }
        guard case .some(let grant) = rejected else { return false }
        authenticator.renew(replacing: grant) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success: startAttempt(attempt + 1)
            case .failure(let error): finish(.failure(error))
            }
        }
        return true
    }

    /// Stores a cacheable response, or drops the stored responses that a successful unsafe
    /// request (`POST`, `PUT`, `PATCH`, `DELETE`) changed.
    private func updateCache(after response: TransportResponse, _ prepared: Prepared) {
        guard let cache = client.configuration.cache, downloadTo == nil else { return }
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
        let configuration = client.configuration
        let status = response.statusCode
        let redactor = configuration.redactor
        guard configuration.acceptableStatusCodes.contains(status) else {
            var body = response.data
            if let staging = staging(state.withLock { $0.downloaded }) {
                // A download's body is on disk: read its start for the excerpt, then drop it.
                body = Self.start(of: staging)
                try? FileManager.default.removeItem(at: staging)
            }
            let excerpt = redactor.scrub(Self.excerpt(of: body), secrets: prepared.secrets)
            return .failure(FetchError(code: .unacceptableStatus, statusCode: status, bodyExcerpt: excerpt))
        }
        // An API-reported failure is looked for in bodies kept in memory; a download's body is
        // a file the caller reads.
        if downloadTo == nil, let detector = configuration.apiFailureDetector,
            var failure = detector(response.data, response.response)
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

    private func handleFailure(_ attempt: Int, _ error: FetchError, retryAfter: Duration?) {
        let policy = client.configuration.retryPolicy
        guard let delay = policy.delay(after: error, method: method, retriesSoFar: attempt - 1, retryAfter: retryAfter)
        else {
            finish(.failure(error))
            return
        }
        let item = ScheduledAction()
        let clientStopped = client.retriesStopped.withLock { $0 }
        let scheduled = state.withLock { state -> Bool? in
            guard !state.finished, state.attempt == attempt, case .processing = state.phase else { return false }
            if state.retriesStopped || clientStopped { return nil }
            state.phase = .retryWait(item)
            state.lastFailure = error
            return true
        }
        guard let scheduled else {
            finish(.failure(error))
            return
        }
        guard scheduled else { return }
        if !client.configuration.observers.isEmpty, let summary = state.withLock({ $0.prepared?.summary }) {
            let described = error.describing("\(summary)")
            for observer in client.configuration.observers {
                observer.requestWillRetry(summary.with(attempt: attempt), after: delay, because: described)
            }
        }
        item.start(after: delay, on: client.configuration.clock) { [self] in startAttempt(attempt + 1) }
    }

    // MARK: Finish

    private func finish(_ result: Outcome) {
        conclude(result)?()
    }

    /// Marks the request finished and returns what is left to do (cancel the transport
    /// task or timers, tell observers, deliver the completion), or `nil` when it had
    /// already finished. Splitting the two lets a group mark all its requests cancelled
    /// before any freed connection slot can start one of them.
    private func conclude(_ result: Outcome) -> (() -> Void)? {
        let ended = state.withLock { state -> (phase: Phase, state: State, deferred: Bool)? in
            guard !state.finished else { return nil }
            state.finished = true
            let phase = state.phase
            state.phase = .done
            state.timeoutItem?.cancel()
            state.timeoutItem = nil
            guard case .running(nil) = phase else { return (phase, state, false) }
            // The attempt is being handed to the transport, whose task is not known yet: the
            // thread handing it over cancels it, then does the rest (see `run`), so no file the
            // exchange writes can outlast the completion.
            let ended = state
            state.endAfterSend = { [self] in complete(result, phase, ended) }
            return (phase, state, true)
        }
        guard let ended else { return nil }
        if ended.deferred { return {} }
        return { [self] in complete(result, ended.phase, ended.state) }
    }

    private func complete(_ result: Outcome, _ phase: Phase, _ ended: State) {
        var result = result
        // Read again if the request was cancelled before it was prepared and has been since.
        let prepared = ended.prepared ?? state.withLock { $0.prepared }
        switch phase {
        case .running(let task):
            task?.cancel()
        case .retryWait(let item): item.cancel()
        case .waitingForSlot:
            if let prepared { client.limiter.cancelWaiting(host: prepared.host, token: slot(ended.attempt)) }
        case .preparing, .processing, .done: break
        }
        client.running.remove(self)
        group?.remove(self)
        if downloadTo != nil {
            if case .success = result, let failure = moveIntoPlace(ended.downloaded) { result = .failure(failure) }
            // Every exchange's staging file: the transport writes none of them any more.
            for exchange in 0..<ended.exchange { removeStaging(exchange + 1) }
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
                bytesReceived: ended.lastBytes, duration: ContinuousClock.now - startedAt,
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
        _ result: Outcome, _ prepared: Prepared?, _ ended: State
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

/// Where a ``RequestExecution`` is.
private enum ExecutionPhase {
    case preparing
    case waitingForSlot(since: ContinuousClock.Instant)
    case running((any TransportTask)?)
    case processing
    case retryWait(ScheduledAction)
    case done
}

/// What a ``RequestExecution`` knows, under its one lock.
private struct ExecutionState {
    var finished = false
    var phase = ExecutionPhase.preparing
    var attempt = 0
    var attemptsStarted = 0
    var timeoutItem: ScheduledAction?
    /// Whether the running attempt's timeout clock runs (false while it is parked in the transport).
    var clockRunning = false
    var slotRequestedAt = ContinuousClock.now
    /// Numbers the exchanges handed to the transport; a parked request sent again
    /// supersedes its first exchange, whose completion then neither frees a slot nor counts.
    var exchange = 0
    var superseded: Set<Int> = []
    var waited = Duration.zero
    var lastStatus: Int?
    var lastBytes = 0
    var cacheUse = FetchMetrics.CacheUse.none
    /// The token the current attempt was sent with.
    var sentToken: TokenGrant?
    /// Whether the request was already sent again after its token was rejected.
    var authRetried = false
    /// Whether the request may start no further attempt (``FetchClient/stopRetrying()``).
    var retriesStopped = false
    /// The failure a retry wait follows, which ends the request when retries stop.
    var lastFailure: FetchError?
    /// The request, once built and adapted (later attempts add a token or revalidation headers).
    var prepared: ExecutionRequest?
    /// The exchange whose download succeeded: its staging file holds the body.
    var downloaded: Int?
    /// The end of a request that finished while its attempt was being handed to the transport,
    /// run by the thread handing it over once it has cancelled the transport's task.
    var endAfterSend: (@Sendable () -> Void)?
}

/// The parts of a ``RequestExecution``'s request fixed once it is built and adapted.
///
/// The redacted summary and the secret values are worked out only when something needs
/// them (an observer, a failure): describing a URL parses it again, which a request that
/// succeeds unobserved should not pay for.
private struct ExecutionRequest: Sendable {
    var request: URLRequest
    var host: String
    var id: Int
    var method: HTTPMethod
    var redactor: Redactor
    var bodyFile: OutgoingRequest.BodyFile?
    /// The cache key of a cacheable `GET`.
    var cacheKey: String?
    /// The stored response this request revalidates (it carries its conditions).
    var revalidating: CachedResponse?
    /// When a cacheable request was looked up and sent (RFC 9111's `request_time`).
    var requestedAt: Date?
    /// The request that refreshes a response served within its `stale-while-revalidate` window.
    var backgroundRefresh: URLRequest?
    /// Secret values that the redactor does not find by name (a token under a custom header).
    var extraSecrets: [String] = []

    /// The size of the request body.
    var bodySize: Int64 {
        if let bodyFile { return bodyFile.size }
        return Int64(request.httpBody?.count ?? 0)
    }

    var summary: RequestSummary {
        RequestSummary(
            id: id, method: method, url: request.url.map(redactor.describe) ?? "<no URL>",
            headers: redactor.redact(headers: request.allHTTPHeaderFields ?? [:]), attempt: 1)
    }

    var secrets: [String] {
        (Self.secrets(in: request, redactor) + extraSecrets).sorted { $0.count > $1.count }
    }

    /// The values of secret query items and headers, raw and decoded, to scrub from texts a server may echo.
    private static func secrets(in request: URLRequest, _ redactor: Redactor) -> [String] {
        var values: [String] = []
        if let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true) {
            for pair in (components.percentEncodedQuery ?? "").split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { continue }
                let name = parts[0].removingPercentEncoding ?? parts[0]
                guard redactor.isSecret(name) else { continue }
                values.append(parts[1])
                if let decoded = parts[1].removingPercentEncoding { values.append(decoded) }
            }
        }
        for (name, value) in request.allHTTPHeaderFields ?? [:] where redactor.isSecret(name) {
            values.append(value)
            if let token = value.split(separator: " ").last { values.append(String(token)) }
        }
        return values.sorted { $0.count > $1.count }
    }
}

/// How a ``RequestExecution`` ended, without its value's type.
enum Outcome: Sendable {
    /// The value was extracted; calling this hands it to the caller.
    case success(@Sendable () -> Void)
    /// The request failed.
    case failure(FetchError)
}

/// The typed end of a request: turns an accepted response into the caller's value, and
/// hands the caller the value or the error.
protocol ResultHandoff: Sendable {
    /// Extracts the value from `response` and returns the call that delivers it.
    func extract(_ response: TransportResponse) throws(FetchError) -> @Sendable () -> Void
    /// Delivers `error` to the caller.
    func fail(_ error: FetchError)
}

/// A ``ResultHandoff`` for values of type `Value`: an ``Extraction`` and the caller's completion.
final class TypedHandoff<Value: Sendable>: ResultHandoff {
    private let extraction: Extraction<Value>
    private let completion: @Sendable (Result<Value, FetchError>) -> Void

    init(_ extraction: Extraction<Value>, completion: @escaping @Sendable (Result<Value, FetchError>) -> Void) {
        self.extraction = extraction
        self.completion = completion
    }

    func extract(_ response: TransportResponse) throws(FetchError) -> @Sendable () -> Void {
        let value = try extraction.extractResponse(response)
        let completion = completion
        return { completion(.success(value)) }
    }

    func fail(_ error: FetchError) {
        completion(.failure(error))
    }
}
