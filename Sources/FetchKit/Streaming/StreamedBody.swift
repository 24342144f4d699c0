public import Foundation
import Locking

/// The body of a streamed response as it arrives: what an ``HTTPTransport`` writes into for
/// ``HTTPTransport/stream(_:into:completion:)``, and what a ``ResponseStream`` reads from.
///
/// A transport hands over each chunk with ``append(_:)`` (from a callback that cannot wait) or
/// ``write(_:)`` (from a loop that can, which then waits while the reader is more than
/// ``highWaterMark`` bytes behind), and ends the body once with ``finish(throwing:)``.
/// When the reader goes away, stops, times out or is cancelled, the body cancels the transport's
/// task and drops what it holds: chunks handed over after that are ignored.
public final class StreamedBody: Sendable {
    /// How many unread bytes ``write(_:)`` lets pile up before it waits for the reader.
    public static let highWaterMark = 256 * 1024

    private struct State {
        var chunks: [Data] = []
        /// The index of the first unread chunk in `chunks` (compacted as the reader goes).
        var head = 0
        var buffered = 0
        /// The most unread bytes held at once.
        var peak = 0
        /// Set once: how the body ended (`nil` while it goes on).
        var end: Result<Void, FetchError>?
        var waiter: UnsafeContinuation<Data?, any Error>?
        /// A transport waiting in `write(_:)` for the reader to catch up.
        var writers: [UnsafeContinuation<Void, Never>] = []
        var task: (any TransportTask)?
        var idleTimer: ScheduledAction?
        var stopped = false
    }

    private let state = Locked(State())
    /// Turns a transport's error into the ``FetchError`` the reader sees (scrubbed of secrets).
    private let describe: @Sendable (any Error) -> FetchError
    /// The longest wait for the next chunk before the stream ends with a timeout; `nil` for none.
    private let idleTimeout: Duration?
    private let clock: any Clock<Duration>

    /// Creates an empty body.
    ///
    /// - Parameters:
    ///   - idleTimeout: how long the reader waits for the next chunk before the stream fails
    ///     with ``FetchError/Code-swift.struct/timedOut``; `nil` to wait for ever.
    ///   - clock: the clock that times `idleTimeout`.
    ///   - describe: turns a transport's error into the error the reader sees.
    init(
        idleTimeout: Duration?, clock: any Clock<Duration> = ContinuousClock(),
        describe: @escaping @Sendable (any Error) -> FetchError
    ) {
        self.idleTimeout = idleTimeout
        self.clock = clock
        self.describe = describe
    }

    /// Creates an empty body for a transport that wraps another: hand it to the inner
    /// transport's ``HTTPTransport/stream(_:into:completion:)``, read it with ``next()``, and pass
    /// each chunk on to the body the wrapper was given (with ``write(_:)``, so the inner transport
    /// reads no faster than the reader). It has no idle timeout (the client times the outer body),
    /// and an error the inner transport ends it with is classified as the client classifies a
    /// transport's errors (a lost connection stays ``FetchError/Code-swift.struct/connectionLost``).
    public convenience init() {
        self.init(idleTimeout: nil) { error in
            if let error = error as? FetchError { return error }
            let failure = TransportFailure.classify(error)
            return FetchError(code: failure.code, detail: failure.detail, urlErrorCode: failure.urlErrorCode)
        }
    }

    /// A body that holds `data` and has ended: a response that did not stream.
    convenience init(complete data: Data) {
        self.init()
        if !data.isEmpty { append(data) }
        finish()
    }

    // MARK: The transport's side

    /// Whether the reader has stopped (cancelled, timed out or gone): a transport that reads in
    /// a loop stops then.
    public var isCancelled: Bool { state.withLock { $0.stopped } }

    /// Hands over the next chunk without waiting: for a transport whose bytes arrive in callbacks.
    /// The chunk is kept until the reader takes it, however far behind the reader is.
    ///
    /// - Parameter chunk: the bytes, in order after the ones before.
    public func append(_ chunk: Data) {
        guard !chunk.isEmpty else { return }
        let (waiter, timer) = state.withLock { state -> (UnsafeContinuation<Data?, any Error>?, ScheduledAction?) in
            guard !state.stopped, state.end == nil else { return (nil, nil) }
            if let waiter = state.waiter {
                state.waiter = nil
                defer { state.idleTimer = nil }
                return (waiter, state.idleTimer)
            }
            state.chunks.append(chunk)
            state.buffered += chunk.count
            state.peak = max(state.peak, state.buffered)
            return (nil, nil)
        }
        timer?.cancel()
        waiter?.resume(returning: chunk)
    }

    /// Hands over the next chunk, waiting first while the reader is more than ``highWaterMark``
    /// bytes behind: for a transport that reads its connection in a loop, which then reads no
    /// faster than the reader (the memory a stream holds stays flat). Returns at once when the
    /// reader has stopped.
    ///
    /// - Parameter chunk: the bytes, in order after the ones before.
    public func write(_ chunk: Data) async {
        append(chunk)
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let waits = state.withLock { state -> Bool in
                guard !state.stopped, state.end == nil, state.buffered > Self.highWaterMark else { return false }
                state.writers.append(continuation)
                return true
            }
            if !waits { continuation.resume() }
        }
    }

    /// Ends the body: normally with `nil`, or with the error that ended the transfer. Only
    /// the first call counts.
    ///
    /// - Parameter error: the transport's error, or `nil` when the body is complete.
    public func finish(throwing error: (any Error)? = nil) {
        let end: Result<Void, FetchError>
        if let error {
            // A FetchError that names no request (one relayed from an inner body) is described too.
            if let failure = error as? FetchError, failure.request != nil {
                end = .failure(failure)
            } else {
                end = .failure(describe(error))
            }
        } else {
            end = .success(())
        }
        typealias Taken = (UnsafeContinuation<Data?, any Error>?, [UnsafeContinuation<Void, Never>], ScheduledAction?)
        let (waiter, writers, timer) = state.withLock { state -> Taken in
            guard state.end == nil else { return (nil, [], nil) }
            state.end = end
            let waiter = state.waiter
            state.waiter = nil
            defer {
                state.writers = []
                state.idleTimer = nil
            }
            return (waiter, state.writers, state.idleTimer)
        }
        timer?.cancel()
        for writer in writers { writer.resume() }
        guard let waiter else { return }
        switch end {
        case .success: waiter.resume(returning: nil)
        case .failure(let failure): waiter.resume(throwing: failure)
        }
    }

    /// The most unread bytes the body held at once (for tests of its memory).
    package var peakBufferedBytes: Int { state.withLock { $0.peak } }

    /// Remembers the transport's task, to cancel it when the reader stops (at once when it has).
    func attach(_ task: any TransportTask) {
        let stopped = state.withLock { state -> Bool in
            state.task = task
            return state.stopped
        }
        if stopped { task.cancel() }
    }

    // MARK: The reader's side

    /// The next chunk, waiting for it; `nil` at the end of the body.
    ///
    /// ``ResponseStream`` reads a response's body with it; a transport that wraps another reads
    /// the body it created with ``init()``. One reader at a time: a second one that waits while
    /// the first does fails with ``FetchError/Code-swift.struct/invalidRequest``. Cancelling the
    /// reading task stops the body.
    ///
    /// - Returns: the next chunk, or `nil` when the body has ended.
    /// - Throws: the ``FetchError`` that ended the body.
    public func next() async throws(FetchError) -> Data? {
        do {
            return try await withTaskCancellationHandler {
                try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Data?, any Error>) in
                    take(continuation)
                }
            } onCancel: {
                stop(FetchError(code: .cancelled))
            }
        } catch let error as FetchError {
            throw error
        } catch {
            throw FetchError(code: .transportFailed, detail: "\(error)")
        }
    }

    private func take(_ continuation: UnsafeContinuation<Data?, any Error>) {
        enum Answer {
            case chunk(Data, [UnsafeContinuation<Void, Never>])
            case end(Result<Void, FetchError>)
            case busy
            case wait(ScheduledAction?)
        }
        let answer = state.withLock { state -> Answer in
            if state.head < state.chunks.count {
                let chunk = state.chunks[state.head]
                state.chunks[state.head] = Data()
                state.head += 1
                state.buffered -= chunk.count
                if state.head == state.chunks.count {
                    state.chunks.removeAll(keepingCapacity: true)
                    state.head = 0
                } else if state.head >= 64, state.head * 2 >= state.chunks.count {
                    state.chunks.removeFirst(state.head)
                    state.head = 0
                }
                var writers: [UnsafeContinuation<Void, Never>] = []
                if state.buffered <= Self.highWaterMark {
                    writers = state.writers
                    state.writers = []
                }
                return .chunk(chunk, writers)
            }
            if let end = state.end { return .end(end) }
            if state.waiter != nil { return .busy }
            state.waiter = continuation
            guard idleTimeout != nil, !state.stopped else { return .wait(nil) }
            let timer = ScheduledAction()
            state.idleTimer = timer
            return .wait(timer)
        }
        switch answer {
        case .chunk(let chunk, let writers):
            for writer in writers { writer.resume() }
            continuation.resume(returning: chunk)
        case .end(.success):
            continuation.resume(returning: nil)
        case .end(.failure(let failure)):
            continuation.resume(throwing: failure)
        case .busy:
            continuation.resume(
                throwing: FetchError(
                    code: .invalidRequest,
                    detail: "a streamed response was read by two loops at once; read it from one loop"))
        case .wait(let timer):
            if let timer, let idleTimeout {
                timer.start(after: idleTimeout, on: clock) { [self] in
                    stop(FetchError(code: .timedOut, timeout: idleTimeout))
                }
            }
        }
    }

    /// Stops the stream: cancels the transport's task, drops what is buffered and ends the
    /// reader's wait with `failure`. The body then ends with `failure` (unless it had ended).
    func stop(_ failure: FetchError) {
        typealias Taken = (
            UnsafeContinuation<Data?, any Error>?, [UnsafeContinuation<Void, Never>], (any TransportTask)?,
            ScheduledAction?
        )
        let (waiter, writers, task, timer) = state.withLock { state -> Taken in
            if state.stopped { return (nil, [], nil, nil) }
            state.stopped = true
            state.chunks = []
            state.head = 0
            state.buffered = 0
            if state.end == nil { state.end = .failure(failure) }
            let waiter = state.waiter
            state.waiter = nil
            defer {
                state.writers = []
                state.idleTimer = nil
            }
            return (waiter, state.writers, state.task, state.idleTimer)
        }
        timer?.cancel()
        task?.cancel()
        for writer in writers { writer.resume() }
        waiter?.resume(throwing: failure)
    }

    /// Reads what is left of the body into memory, up to `limit` bytes, then stops the
    /// stream: the body of a response that is not accepted, for its error's excerpt.
    func collect(upTo limit: Int) async -> Data {
        var data = Data()
        while data.count < limit {
            guard let chunk = try? await next() else { break }
            data.append(chunk.prefix(limit - data.count))
        }
        stop(FetchError(code: .cancelled))
        return data
    }
}
