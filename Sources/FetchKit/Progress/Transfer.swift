/// A request in flight whose progress can be followed as an `AsyncSequence`.
///
/// ```swift
/// let upload = client.transfer(Videos.upload(file: movieURL), extracting: .decode(Receipt.self))
/// for await progress in upload.progress {
///     print(progress.fractionCompleted ?? 0)
/// }
/// let receipt = try await upload.value
/// ```
///
/// The request starts when the transfer is created. ``progress`` yields at most one report
/// per ``FetchClient/Configuration-swift.struct/progressInterval`` (keeping only the newest
/// few when nobody reads), ends with one report whose ``TransferProgress/isFinished`` is
/// set, and then finishes, exactly once, however the request ends. ``progress`` is meant for one reader.
public final class Transfer<Value: Sendable>: Sendable {
    /// The progress reports, ending when the request ends.
    public let progress: AsyncStream<TransferProgress>
    private let task: Task<Result<Value, FetchError>, Never>

    init(
        start:
            @escaping @Sendable (_ progress: @escaping @Sendable (TransferProgress) -> Void) async -> Result<
                Value, FetchError
            >
    ) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: TransferProgress.self, bufferingPolicy: .bufferingNewest(16))
        progress = stream
        task = Task {
            let result = await start { report in
                continuation.yield(report)
                if report.isFinished { continuation.finish() }
            }
            continuation.finish()
            return result
        }
    }

    /// The value, once the request has succeeded.
    ///
    /// - Throws: the request's ``FetchError``.
    public var value: Value {
        get async throws(FetchError) { try await task.value.get() }
    }

    /// The request's result, once it has ended.
    public var result: Result<Value, FetchError> {
        get async { await task.value }
    }

    /// Cancels the request; ``value`` then throws ``FetchError/Code-swift.struct/cancelled``.
    public func cancel() {
        task.cancel()
    }
}
