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
