import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The start of a ``RequestExecution``: the request built, adapted and looked up in the cache,
// then the first attempt started or the cache's answer given without sending anything.
extension RequestExecution {
    /// Builds the request with `build`, runs the client's adapters and looks it up in the
    /// cache; then starts the first attempt, or answers from the cache.
    func begin(build: @Sendable () throws(FetchError) -> BuiltRequest) {
        client.running.add(self)
        group?.add(self)
        // Read field by field: a copy of the whole configuration costs more than the reads.
        let redactor = client.configuration.redactor
        var built: BuiltRequest
        do {
            built = try build()
        } catch {
            finish(.failure(error))
            return
        }
        var request = built.request
        let host: String
        do {
            let adapters = client.configuration.adapters
            for adapter in adapters {
                request = try adapter.adapt(request)
            }
            // The key the build read from the URL's text holds while the adapters left the URL as it was.
            if let key = built.hostKey, adapters.isEmpty || request.url == built.request.url {
                host = key
            } else {
                host = try URLValidation.hostKey(of: request.url)
            }
        } catch {
            built.bodyFile?.removeIfTemporary()
            finish(.failure(error.describing(redactor.describe(request))))
            return
        }
        // The session's own timer is a backstop only: the client's clock below ends the attempt first.
        let sessionTimeout = FetchClient.sessionTimeout(for: timeout)
        if request.timeoutInterval != sessionTimeout { request.timeoutInterval = sessionTimeout }
        let lookup = cache.lookUp(request, built: built)
        let ready = AdaptedRequest(
            request: lookup.sent, host: host, id: id, method: method, redactor: redactor, bodyFile: built.bodyFile,
            cacheKey: lookup.cacheKey, revalidating: lookup.revalidating, requestedAt: lookup.requestedAt,
            backgroundRefresh: lookup.backgroundRefresh)
        let step = state.withLock { state in
            state.prepared = ready
            return state.step(for: state.machine.prepared(answerLocally: lookup.answersLocally))
        }
        guard case .answerLocally = step.actions.next else {
            // The first attempt, or, when it was cancelled while it was being built, the
            // removal of its temporary body.
            perform(step)
            return
        }
        if let served = lookup.served {
            serveFromCache(served.entry, ready, use: served.use)
            if let refresh = ready.backgroundRefresh, let key = ready.cacheKey {
                client.refreshInBackground(refresh, key: key)
            }
            return
        }
        // `only-if-cached` with nothing stored: the cache answers 504 (RFC 9111 §5.2.1.7).
        guard let response = RequestCache.unsatisfiable(ready) else {
            finish(.failure(FetchError(code: .badResponse, detail: "the cache's 504 response could not be built")))
            return
        }
        state.withLock { $0.lastStatus = 504 }
        finish(evaluateFinal(response, ready))
    }

    /// Answers with a stored response; nothing is sent.
    func serveFromCache(_ entry: CachedResponse, _ prepared: AdaptedRequest, use: FetchMetrics.CacheUse) {
        state.withLock { state in
            state.cacheUse = use
            state.lastStatus = entry.status
        }
        guard let url = prepared.request.url, let response = entry.response(for: url, at: Date()) else {
            finish(.failure(FetchError(code: .badResponse, detail: "the cached response could not be rebuilt")))
            return
        }
        finish(evaluateFinal(staging.inMemory(TransportResponse(response: response, data: entry.body)), prepared))
    }

    /// Serves the stale response a failed revalidation leaves, when its `stale-if-error` or the
    /// cache's offline policy allows; `false` when the failure stands.
    func serveStaleAfterError(_ prepared: AdaptedRequest, transportFailed: Bool) -> Bool {
        guard let entry = cache.staleAfterError(prepared, transportFailed: transportFailed) else { return false }
        serveFromCache(entry, prepared, use: .staleAfterError)
        return true
    }
}
