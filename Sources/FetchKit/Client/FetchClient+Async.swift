public import Foundation
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension FetchClient {
    /// Fetches `url` and turns the response into a value, suspending until it is done.
    ///
    /// Cancelling the calling Swift task cancels the request, down to its URLSession task,
    /// and this method then throws ``FetchError/Code-swift.struct/cancelled``.
    ///
    /// - Parameters:
    ///   - url: the URL to `GET`.
    ///   - extraction: how to turn the response into a value.
    ///   - group: a group to cancel this fetch with, if any.
    /// - Returns: the value.
    /// - Throws: ``FetchError`` for every failure, including an invalid URL and cancellation.
    public func fetch<Value>(
        _ url: URL?, extracting extraction: Extraction<Value>, group: CancellationGroup? = nil
    )
        async throws(FetchError) -> Value
    {
        try await run(
            method: .get, timeout: configuration.timeout, extraction: extraction, group: group,
            build: { () throws(FetchError) -> OutgoingRequest in try OutgoingRequest(Self.getRequest(url)) })
    }

    /// Fetches an endpoint and turns the response into a value, suspending until it is done.
    ///
    /// Cancelling the calling Swift task cancels the request, down to its URLSession task,
    /// and this method then throws ``FetchError/Code-swift.struct/cancelled``.
    ///
    /// - Parameters:
    ///   - endpoint: the request to send.
    ///   - extraction: how to turn the response into a value.
    ///   - group: a group to cancel this fetch with, if any.
    /// - Returns: the value.
    /// - Throws: ``FetchError`` for every failure, including cancellation.
    public func fetch<Value>(
        _ endpoint: some Endpoint, extracting extraction: Extraction<Value>, group: CancellationGroup? = nil
    ) async throws(FetchError) -> Value {
        // Straight to `run`: each async call between costs a frame of the task's allocator.
        let timeout = endpoint.timeout ?? configuration.timeout
        return try await run(
            method: endpoint.method, timeout: timeout, extraction: extraction, group: group,
            build: { () throws(FetchError) -> OutgoingRequest in try self.outgoing(endpoint, timeout: timeout) })
    }

    /// The async fetch of an endpoint, reporting progress to `progress` (for ``transfer(_:extracting:group:)``).
    func fetch<Value>(
        _ endpoint: some Endpoint, extracting extraction: Extraction<Value>, group: CancellationGroup?,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(FetchError) -> Value {
        let timeout = endpoint.timeout ?? configuration.timeout
        return try await run(
            method: endpoint.method, timeout: timeout, extraction: extraction, group: group, progress: progress,
            build: { () throws(FetchError) -> OutgoingRequest in try self.outgoing(endpoint, timeout: timeout) })
    }

    /// Starts fetching an endpoint and returns a ``Transfer`` whose ``Transfer/progress``
    /// reports the upload and download as an `AsyncSequence`: the async way to follow a
    /// fetch's progress (the callback `fetch` takes a `progress` closure).
    ///
    /// ```swift
    /// let upload = client.transfer(Videos.upload(file: movieURL), extracting: .decode(Receipt.self))
    /// for await progress in upload.progress { print(progress) }
    /// let receipt = try await upload.value
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: the request to send.
    ///   - extraction: how to turn the response into a value.
    ///   - group: a group to cancel this fetch with, if any.
    /// - Returns: the transfer, already started.
    public func transfer<Value>(
        _ endpoint: some Endpoint, extracting extraction: Extraction<Value>, group: CancellationGroup? = nil
    ) -> Transfer<Value> {
        Transfer { progress in
            do throws(FetchError) {
                return .success(
                    try await self.fetch(endpoint, extracting: extraction, group: group, progress: progress))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Starts fetching a typed endpoint and returns a ``Transfer`` that reports its progress.
    ///
    /// - Parameters:
    ///   - endpoint: the request to send, with its response type.
    ///   - group: a group to cancel this fetch with, if any.
    /// - Returns: the transfer, already started.
    public func transfer<Target: TypedEndpoint>(
        _ endpoint: Target, group: CancellationGroup? = nil
    )
        -> Transfer<Target.Response>
    {
        transfer(endpoint, extracting: endpoint.extraction, group: group)
    }

    /// Starts downloading an endpoint's body into `file` and returns a ``Transfer`` that
    /// reports its progress (see ``download(_:to:group:progress:)-(Endpoint,_,_,_)``).
    ///
    /// - Parameters:
    ///   - endpoint: the request to send.
    ///   - file: where the body goes, replacing any file there; its folder must exist.
    ///   - group: a group to cancel this download with, if any.
    /// - Returns: the transfer, already started; its value is `file`.
    public func transfer(
        _ endpoint: some Endpoint, downloadingTo file: URL, group: CancellationGroup? = nil
    )
        -> Transfer<URL>
    {
        Transfer { progress in
            do throws(FetchError) {
                return .success(try await self.download(endpoint, to: file, group: group, progress: progress))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Runs a request and suspends until it ends: the one async entry of the fetches and downloads.
    ///
    /// The request hands its end straight to an `UnsafeContinuation` (no `Result` of the
    /// value's type, no checked continuation): this function is generic and runs
    /// unspecialized, so every generic type it named would be looked up at run time on each
    /// request. The request's state machine completes exactly once, which resumes the
    /// continuation exactly once.
    func run<Value>(
        method: HTTPMethod, timeout: Duration, extraction: Extraction<Value>, downloadTo: URL? = nil,
        group: CancellationGroup?, progress: (@Sendable (TransferProgress) -> Void)? = nil,
        build: @Sendable () throws(FetchError) -> OutgoingRequest
    ) async throws(FetchError) -> Value {
        let handle = TaskHandle()
        do {
            return try await withTaskCancellationHandler {
                try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Value, any Error>) in
                    handle.set(
                        execute(
                            method: method, timeout: timeout,
                            handoff: ContinuationHandoff(extraction, continuation: continuation),
                            downloadTo: downloadTo, group: group, delivery: .immediate, progress: progress,
                            build: build))
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
    private let state = Locked<(task: RequestExecution?, cancelled: Bool)>((nil, false))

    func set(_ task: RequestExecution) {
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state -> RequestExecution? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
