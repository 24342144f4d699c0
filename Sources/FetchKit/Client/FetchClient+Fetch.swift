import Dispatch
import Foundation
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension FetchClient {
    // MARK: async

    /// Fetches an endpoint and turns the response into a value, suspending until it is done:
    /// the one request call.
    ///
    /// ```swift
    /// let movie = try await client.fetch(TMDB.movie(id: 550), extracting: .decode(Movie.self))
    /// let page = try await client.fetch(.url(link), extracting: .string)
    /// let file = try await client.fetch(Photos.original(id), extracting: .file(to: destination))
    /// ```
    ///
    /// Cancelling the calling Swift task cancels the request, down to its transport task,
    /// and this method then throws ``FetchError/Code-swift.struct/cancelled``.
    ///
    /// - Parameters:
    ///   - endpoint: the request to send; `.url(link)` for a plain URL.
    ///   - extraction: how to turn the response into a value (``Extraction/file(to:)`` streams the
    ///     body to a file).
    ///   - group: a group to cancel this fetch with, if any.
    ///   - key: shares one request among the callers that give the same key while it is in
    ///     flight: a caller whose key is in flight joins it instead of sending another, and every
    ///     caller gets the first one's value or error (a download's file is at the first caller's
    ///     destination). The request is cancelled when every caller has cancelled. `nil` (the
    ///     default) shares nothing.
    /// - Returns: the value.
    /// - Throws: ``FetchError`` for every failure, including an invalid URL and cancellation.
    public func fetch<Value>(
        _ endpoint: some Endpoint, extracting extraction: Extraction<Value>, group: CancellationGroup? = nil,
        sharing key: String? = nil
    ) async throws(FetchError) -> Value {
        // Straight to `run`: each async call between costs a frame of the task's allocator.
        let timeout = endpoint.timeout ?? configuration.timeout
        let handling: BodyHandling = extraction.destination == nil ? .stream : .memory
        return try await run(
            method: endpoint.method, timeout: timeout, extraction: extraction, group: group, sharing: key,
            build: { () throws(FetchError) -> BuiltRequest in
                try self.builtRequest(endpoint, timeout: timeout, handling: handling)
            })
    }

    /// Fetches an endpoint that says what its response turns into (its ``Endpoint/Response``
    /// and ``Endpoint/extraction``), suspending until it is done.
    ///
    /// ```swift
    /// let movie = try await client.fetch(TMDB.movie(id: 550))  // the endpoint's Response
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: the request to send, with its response type.
    ///   - group: a group to cancel this fetch with, if any.
    ///   - key: shares one request among callers with the same key, as
    ///     ``fetch(_:extracting:group:sharing:)`` does.
    /// - Returns: the endpoint's response value.
    /// - Throws: ``FetchError`` for every failure, including cancellation.
    public func fetch<Target: Endpoint>(
        _ endpoint: Target, group: CancellationGroup? = nil, sharing key: String? = nil
    ) async throws(FetchError) -> Target.Response {
        try await fetch(endpoint, extracting: endpoint.extraction, group: group, sharing: key)
    }

    // MARK: Completion

    /// Fetches an endpoint and calls `completion` exactly once with the value or the error:
    /// the one request call, for code that is not `async`.
    ///
    /// The callbacks run in the caller's isolation, with no queue or actor to name: in a
    /// `@MainActor` class they run on the main actor, so they can update its state; in an
    /// actor's method, on that actor; in code isolated to no actor, one at a time on the client's
    /// ``Configuration-swift.struct/callbackQueue`` (your own `DispatchQueue`, or a serial queue
    /// of the client's). Code that must have them on one queue calls from code isolated to no
    /// actor, with that queue as the client's `callbackQueue`.
    ///
    /// ```swift
    /// @MainActor final class BookViewController {
    ///     var title = ""
    ///     func load(_ link: URL, client: FetchClient) {
    ///         client.fetch(.url(link), extracting: .string) { result in
    ///             self.title = (try? result.get()) ?? "Unavailable"
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// In `async` code, the same call keeps a handle whose ``FetchTask/progress`` follows the
    /// transfer and whose value is awaited:
    ///
    /// ```swift
    /// let download = client.fetch(Trailers.movie(550), extracting: .file(to: file), completion: nil)
    /// for await progress in download.progress { print(progress) }
    /// let trailer = try await download.value
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: the request to send; `.url(link)` for a plain URL.
    ///   - extraction: how to turn the response into a value.
    ///   - group: a group to cancel this fetch with, if any.
    ///   - key: shares one request among callers with the same key, as
    ///     ``fetch(_:extracting:group:sharing:)`` does.
    ///   - isolation: where the callbacks run; the caller's isolation (leave it out).
    ///   - completion: runs exactly once with the value or the ``FetchError``. It has no default:
    ///     a fetch whose handle alone is awaited says `completion: nil` on purpose (and so
    ///     `try await client.fetch(…)` always calls the `async` form).
    ///   - progress: called with the transfer's progress, at most every
    ///     ``Configuration-swift.struct/progressInterval``, and once, last, before the completion,
    ///     with ``TransferProgress/isFinished`` set; `nil` (the default) to not follow it.
    ///
    /// - Returns: a handle that cancels the fetch and can be awaited.
    @discardableResult
    public func fetch<Value>(
        _ endpoint: some Endpoint, extracting extraction: Extraction<Value>, group: CancellationGroup? = nil,
        sharing key: String? = nil, isolation: isolated (any Actor)? = #isolation,
        completion: ((Result<Value, FetchError>) -> Void)?, progress: ((TransferProgress) -> Void)? = nil
    ) -> FetchTask<Value> {
        fetch(
            endpoint, extracting: extraction, group: group, sharing: key,
            caller: CallerIsolation(isolation: isolation, queue: callbackQueue), completion: completion,
            progress: progress)
    }

    /// The completion forms' one body: the callbacks run where `caller` says.
    private func fetch<Value>(
        _ endpoint: some Endpoint, extracting extraction: Extraction<Value>, group: CancellationGroup?,
        sharing key: String?, caller: CallerIsolation, completion: ((Result<Value, FetchError>) -> Void)?,
        progress: ((TransferProgress) -> Void)?
    ) -> FetchTask<Value> {
        let timeout = endpoint.timeout ?? configuration.timeout
        let handling: BodyHandling = extraction.destination == nil ? .stream : .memory
        let build = { @Sendable () throws(FetchError) -> BuiltRequest in
            try self.builtRequest(endpoint, timeout: timeout, handling: handling)
        }
        let handoff = TaskHandoff(extraction, completion: completion.map(caller.wrap))
        let execution = start(
            method: endpoint.method, timeout: timeout, extraction: extraction, handoff: handoff, group: group,
            sharing: key, delivery: .queue(caller.queue), progress: progress.map(caller.wrap),
            progressChannel: handoff.progressChannel, build: build)
        return FetchTask(execution: execution, handoff: handoff)
    }

    /// Fetches an endpoint that says what its response turns into, and calls `completion`
    /// exactly once with its value or the error, in the caller's isolation (as
    /// ``fetch(_:extracting:group:sharing:isolation:completion:progress:)`` does).
    ///
    /// - Parameters:
    ///   - endpoint: the request to send, with its response type.
    ///   - group: a group to cancel this fetch with, if any.
    ///   - key: shares one request among callers with the same key.
    ///   - isolation: where the callbacks run; the caller's isolation (leave it out).
    ///   - completion: runs exactly once with the value or the ``FetchError``; `nil` when only the
    ///     returned task is awaited.
    ///   - progress: called with the transfer's progress; `nil` (the default) to not follow it.
    /// - Returns: a handle that cancels the fetch and can be awaited.
    @discardableResult
    public func fetch<Target: Endpoint>(
        _ endpoint: Target, group: CancellationGroup? = nil, sharing key: String? = nil,
        isolation: isolated (any Actor)? = #isolation, completion: ((Result<Target.Response, FetchError>) -> Void)?,
        progress: ((TransferProgress) -> Void)? = nil
    ) -> FetchTask<Target.Response> {
        fetch(
            endpoint, extracting: endpoint.extraction, group: group, sharing: key,
            caller: CallerIsolation(isolation: isolation, queue: callbackQueue), completion: completion,
            progress: progress)
    }

    // MARK: Internals

    /// Starts a request whose end goes to `handoff`, alone or shared by `key`.
    func start<Value>(
        method: HTTPMethod, timeout: Duration, extraction: Extraction<Value>, handoff: any ResultHandoff,
        group: CancellationGroup?, sharing key: String?, delivery: Delivery,
        progress: (@Sendable (TransferProgress) -> Void)?, progressChannel: ProgressChannel? = nil,
        build: @Sendable () throws(FetchError) -> BuiltRequest
    ) -> any CancellableExecution {
        if extraction.destination != nil, extraction.acceptsEveryStatus {
            // An error's body is not the file the caller asked for: the destination is left as it was.
            return execute(
                method: method, timeout: timeout, handoff: handoff, group: group, delivery: delivery,
                build: { () throws(FetchError) -> BuiltRequest in
                    throw FetchError(
                        code: .invalidRequest,
                        detail:
                            "a download (extracting: .file(to:)) cannot accept every status; read the body in memory instead"
                    )
                })
        }
        // Callers that take every status share only with each other: one that does not must still fail on a 404.
        let key = extraction.acceptsEveryStatus ? key.map { $0 + "\u{1F}every status" } : key
        guard let key else {
            return execute(
                method: method, timeout: timeout, handoff: handoff, downloadTo: extraction.destination,
                streams: extraction.streams, group: group, delivery: delivery, progress: progress,
                progressChannel: progressChannel, build: build)
        }
        if extraction.streams {
            // One reader per stream: a stream cannot be handed to several callers.
            return execute(
                method: method, timeout: timeout, handoff: handoff, group: group, delivery: delivery,
                build: { () throws(FetchError) -> BuiltRequest in
                    throw FetchError(
                        code: .invalidRequest,
                        detail: "a streamed response (extracting: .stream) cannot be shared; leave out `sharing:`")
                })
        }
        let member = SharedRequests.Member(id: makeID(), handoff: handoff, delivery: delivery, group: group)
        shared.join(key, member: member) { finish in
            execute(
                method: method, timeout: timeout, handoff: SharedHandoff(extraction, finish: finish),
                downloadTo: extraction.destination, group: nil, delivery: .immediate, progress: progress,
                progressChannel: progressChannel, build: build)
        }
        return member
    }

    /// Runs a request and suspends until it ends: the one async entry of the fetches and downloads.
    ///
    /// The request hands its end straight to an `UnsafeContinuation` (no `Result` of the
    /// value's type, no checked continuation): this function is generic and runs
    /// unspecialized, so every generic type it named would be looked up at run time on each
    /// request. The request's state machine completes exactly once, which resumes the
    /// continuation exactly once.
    func run<Value>(
        method: HTTPMethod, timeout: Duration, extraction: Extraction<Value>, group: CancellationGroup?,
        sharing key: String? = nil, progress: (@Sendable (TransferProgress) -> Void)? = nil,
        build: @Sendable () throws(FetchError) -> BuiltRequest
    ) async throws(FetchError) -> Value {
        let handle = TaskHandle()
        do {
            return try await withTaskCancellationHandler {
                try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Value, any Error>) in
                    let handoff = ContinuationHandoff(extraction, continuation: continuation)
                    // `start` shares by the key and refuses a download that takes every status.
                    if key == nil, extraction.destination == nil || !extraction.acceptsEveryStatus {
                        handle.set(
                            execute(
                                method: method, timeout: timeout, handoff: handoff,
                                downloadTo: extraction.destination, streams: extraction.streams, group: group,
                                delivery: .immediate, progress: progress, build: build))
                    } else {
                        handle.set(
                            start(
                                method: method, timeout: timeout, extraction: extraction, handoff: handoff,
                                group: group, sharing: key, delivery: .immediate, progress: progress, build: build))
                    }
                }
            } onCancel: {
                handle.cancel()
            }
        } catch let error as FetchError {
            throw error
        } catch {
            // The continuation is resumed with a `FetchError` only.
            throw FetchError(code: .badResponse, detail: "the request ended with an unexpected error: \(error)")
        }
    }
}

/// Connects Swift task cancellation to a request that may not exist yet when the
/// cancellation arrives. A struct around its one lock box: one allocation per request.
private struct TaskHandle: Sendable {
    private let state = Locked<(task: (any CancellableExecution)?, cancelled: Bool)>((nil, false))

    func set(_ task: any CancellableExecution) {
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state -> (any CancellableExecution)? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
