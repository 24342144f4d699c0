public import Foundation

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
        let timeout = configuration.timeout
        return try await run(method: .get, timeout: timeout, extraction: extraction, group: group) {
            () throws(FetchError) -> URLRequest in
            try URLValidation.check(url)
            guard let url else { throw FetchError(code: .invalidURL, detail: "the URL is nil") }
            return URLRequest(url: url)
        }
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
        let timeout = endpoint.timeout ?? configuration.timeout
        let base = configuration.baseURL
        return try await run(method: endpoint.method, timeout: timeout, extraction: extraction, group: group) {
            () throws(FetchError) -> URLRequest in
            try endpoint.urlRequest(defaultTimeout: timeout, base: base)
        }
    }

    func run<Value>(
        method: HTTPMethod, timeout: Duration, extraction: Extraction<Value>, downloadTo: URL? = nil,
        group: CancellationGroup?, build: @escaping @Sendable () throws(FetchError) -> URLRequest
    ) async throws(FetchError) -> Value {
        let handle = TaskHandle()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, FetchError>, Never>) in
                let task = start(
                    method: method, timeout: timeout, extraction: extraction, downloadTo: downloadTo, group: group,
                    delivery: .immediate, completion: { continuation.resume(returning: $0) }, build: build)
                handle.set(task)
            }
        } onCancel: {
            handle.cancel()
        }
        return try result.get()
    }
}

/// Connects Swift task cancellation to a ``FetchTask`` that may not exist yet when the
/// cancellation arrives.
private final class TaskHandle: Sendable {
    private let state = Locked<(task: FetchTask?, cancelled: Bool)>((nil, false))

    func set(_ task: FetchTask) {
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state -> FetchTask? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
