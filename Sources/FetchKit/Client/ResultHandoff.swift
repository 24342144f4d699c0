import Dispatch
import Locking

/// The typed end of a request: turns an accepted response into the caller's value, and
/// hands the caller the value or the error.
protocol ResultHandoff: Sendable {
    /// Extracts the value from `response` and returns the call that delivers it.
    func extract(_ response: TransportResponse) throws(FetchError) -> @Sendable () -> Void
    /// Whether the extraction also takes a final response of an unacceptable status.
    var acceptsEveryStatus: Bool { get }
    /// Delivers `error` to the caller.
    func fail(_ error: FetchError)
    /// Delivers a value another caller's request produced (a shared request); `false` when it
    /// is not of this caller's type.
    func succeed(with value: any Sendable) -> Bool
}

/// A ``ResultHandoff`` for a fetch with a completion: keeps the result for its ``FetchTask``'s
/// waiters and calls the caller's completion (already on the queue the request's delivery chose).
final class TaskHandoff<Value: Sendable>: ResultHandoff {
    private struct State {
        var result: Result<Value, FetchError>?
        var waiters: [CheckedContinuation<Result<Value, FetchError>, Never>] = []
    }

    private let extraction: Extraction<Value>
    private let completion: (@Sendable (Result<Value, FetchError>) -> Void)?
    private let state = Locked(State())
    /// The request's progress, for the task's progress sequences; ended with the request.
    let progressChannel = ProgressChannel()

    init(_ extraction: Extraction<Value>, completion: (@Sendable (Result<Value, FetchError>) -> Void)?) {
        self.extraction = extraction
        self.completion = completion
    }

    var acceptsEveryStatus: Bool { extraction.acceptsEveryStatus }

    func extract(_ response: TransportResponse) throws(FetchError) -> @Sendable () -> Void {
        let value = try extraction.extractResponse(response)
        return { [self] in deliver(.success(value)) }
    }

    func fail(_ error: FetchError) {
        deliver(.failure(error))
    }

    func succeed(with value: any Sendable) -> Bool {
        guard let value = value as? Value else { return false }
        deliver(.success(value))
        return true
    }

    /// Keeps the result (the first one wins), resumes every waiter, then calls the completion.
    private func deliver(_ result: Result<Value, FetchError>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Result<Value, FetchError>, Never>]? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return }
        // A sequence still waiting (no finished report came: a caller that joined a shared
        // request) ends with the request.
        progressChannel.end()
        for waiter in waiters { waiter.resume(returning: result) }
        completion?(result)
    }

    /// The result, once the request has ended.
    var result: Result<Value, FetchError> {
        get async {
            if let result = state.withLock({ $0.result }) { return result }
            return await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Result<Value, FetchError>? in
                    if let result = state.result { return result }
                    state.waiters.append(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}

/// A ``ResultHandoff`` that resumes an async fetch's continuation with the value or the error.
final class ContinuationHandoff<Value: Sendable>: ResultHandoff {
    private let extraction: Extraction<Value>
    private let continuation: UnsafeContinuation<Value, any Error>

    init(_ extraction: Extraction<Value>, continuation: UnsafeContinuation<Value, any Error>) {
        self.extraction = extraction
        self.continuation = continuation
    }

    var acceptsEveryStatus: Bool { extraction.acceptsEveryStatus }

    func extract(_ response: TransportResponse) throws(FetchError) -> @Sendable () -> Void {
        let value = try extraction.extractResponse(response)
        let continuation = continuation
        return { continuation.resume(returning: value) }
    }

    func fail(_ error: FetchError) {
        continuation.resume(throwing: error)
    }

    func succeed(with value: any Sendable) -> Bool {
        guard let value = value as? Value else { return false }
        continuation.resume(returning: value)
        return true
    }
}

/// How a ``RequestExecution`` ended, without its value's type.
enum Outcome: Sendable {
    /// The value was extracted; calling this hands it to the caller.
    case success(@Sendable () -> Void)
    /// The request failed.
    case failure(FetchError)
}

/// Where a completion runs.
enum Delivery: Sendable {
    /// Asynchronously on this queue.
    case queue(DispatchQueue)
    /// Synchronously on the thread that finishes the request (for the async API, which resumes a continuation).
    case immediate

    /// Runs `deliver` where this delivery says.
    func run(_ deliver: @escaping @Sendable () -> Void) {
        switch self {
        case .queue(let queue): queue.async(execute: deliver)
        case .immediate: deliver()
        }
    }
}
