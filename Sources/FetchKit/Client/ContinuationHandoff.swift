/// A ``ResultHandoff`` that resumes an async fetch's continuation with the value or the error.
final class ContinuationHandoff<Value: Sendable>: ResultHandoff {
    private let extraction: Extraction<Value>
    private let continuation: UnsafeContinuation<Value, any Error>

    init(_ extraction: Extraction<Value>, continuation: UnsafeContinuation<Value, any Error>) {
        self.extraction = extraction
        self.continuation = continuation
    }

    func extract(_ response: TransportResponse) throws(FetchError) -> @Sendable () -> Void {
        let value = try extraction.extractResponse(response)
        let continuation = continuation
        return { continuation.resume(returning: value) }
    }

    func fail(_ error: FetchError) {
        continuation.resume(throwing: error)
    }
}
