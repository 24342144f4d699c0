import Foundation
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an attempt brought back, judged: a transport's failure or a response (a 304 that
/// refreshes the stored body, a 5xx answered from the stale cache, a rejected token renewed,
/// a refused stream's start read for the error), then the value, or a retry, or the end.
extension RequestExecution {
    /// The transport ended exchange `exchange` of attempt `attempt`: when the machine still
    /// counts it, its result is evaluated.
    func transportDidComplete(
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
    func evaluateExchange(
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
            if let body = response.streamedBody, !client.configuration.acceptableStatusCodes.contains(status),
                !handoff.acceptsEveryStatus
            {
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
                response.streamedBody?.stop(FetchError(code: .cancelled))
                return
            } else if let authenticator = client.configuration.authenticator,
                authenticator.rejectionStatuses.contains(status)
            {
                // A rejected token is renewed and the request sent again, once; after that the rejection stands.
                let clientStopped = client.retriesStopped.withLock { $0 }
                let step = transition { $0.tokenRejected(attempt, status: status, clientStopped: clientStopped) }
                if case .renewToken = step.actions.next {
                    response.streamedBody?.stop(FetchError(code: .cancelled))
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
                // An extraction that takes every status gets the answer the pipeline ends with.
                let final = handoff.acceptsEveryStatus && error.code == .unacceptableStatus ? response : nil
                if final == nil { response.streamedBody?.stop(FetchError(code: .cancelled)) }
                handleFailure(attempt, error.waiting(retryAfter), retryAfter: retryAfter, answer: final, prepared)
            }
        }
    }

    /// The cache's hook after the response: stores it with its whole body (a download's read
    /// mapped from its file).
    func updateCache(after response: TransportResponse, _ prepared: AdaptedRequest) {
        guard cache.cache != nil else { return }
        var response = response
        guard let body = staging.body(of: response, downloaded: state.withLock({ $0.downloaded })) else { return }
        response.data = body
        cache.store(after: response, prepared, method: method, cacheUse: { self.state.withLock { $0.cacheUse } })
    }

    /// Validates a response and extracts the value (``FetchClient/Configuration-swift.struct/evaluate(_:_:handoff:staging:downloaded:)``).
    func evaluate(_ response: TransportResponse, _ prepared: AdaptedRequest) -> Outcome {
        client.configuration.evaluate(
            response, prepared, handoff: handoff, staging: staging,
            downloaded: { self.state.withLock { $0.downloaded } })
    }

    /// Validates and extracts an answer nothing follows (one the cache gives): a strategy that
    /// takes every status gets it whatever its status.
    func evaluateFinal(_ response: TransportResponse, _ prepared: AdaptedRequest) -> Outcome {
        let outcome = evaluate(response, prepared)
        guard case .failure(let error) = outcome, error.code == .unacceptableStatus, handoff.acceptsEveryStatus else {
            return outcome
        }
        return handOver(response, prepared)
    }

    /// Extracts the value from an answer of an unacceptable status, for a strategy that takes
    /// every status; the extraction's error scrubbed as any other.
    private func handOver(_ response: TransportResponse, _ prepared: AdaptedRequest) -> Outcome {
        do {
            return .success(try handoff.extract(response))
        } catch {
            return .failure(
                error.scrubbed(status: response.statusCode, secrets: prepared.secrets, client.configuration.redactor))
        }
    }

    /// Retries after `error` when the retry policy allows, or ends the request with it. `answer`,
    /// the response of an unacceptable status that an extraction taking every status waits for,
    /// ends the request as its value instead when no retry follows (its stream closed when one does).
    func handleFailure(
        _ attempt: Int, _ error: FetchError, retryAfter: Duration?, answer: TransportResponse? = nil,
        _ prepared: AdaptedRequest? = nil
    ) {
        let policy = client.configuration.retryPolicy
        let delay = policy.delay(after: error, method: method, retriesSoFar: attempt - 1, retryAfter: retryAfter)
        let clientStopped = delay != nil && client.retriesStopped.withLock { $0 }
        var step = transition { $0.attemptFailed(attempt, error, retryAfter: delay, clientStopped: clientStopped) }
        if case .finish(.failure) = step.actions.next, let answer, let prepared {
            // Not stored: the cache keeps only answers a plain fetch accepts (storing a final 5xx
            // would also evict the entry a later `stale-if-error` needs).
            let outcome = handOver(answer, prepared)
            if case .failure = outcome { answer.streamedBody?.stop(FetchError(code: .cancelled)) }
            step.actions.next = .finish(outcome)
        } else {
            // A retry follows, or the request ended meanwhile: the answer's stream is not wanted.
            answer?.streamedBody?.stop(FetchError(code: .cancelled))
            if case .scheduleRetry(_, let delay) = step.actions.next {
                reporting.willRetry(step.prepared, attempt: attempt, after: delay, because: error)
            }
        }
        perform(step)
    }
}
