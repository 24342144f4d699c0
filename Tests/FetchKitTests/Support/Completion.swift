import FetchKit
import Foundation
import Locking
import TestSupport
import Testing

/// Waits for one callback-style completion, bounded by `timeout`; `nil` means it never came.
func completion<Value: Sendable>(
    timeout: Duration = Patience.hang,
    _ start: (@escaping @Sendable (Result<Value, FetchError>) -> Void) -> Void
) async -> Result<Value, FetchError>? {
    let once = Locked<CheckedContinuation<Result<Value, FetchError>?, Never>?>(nil)
    return await withCheckedContinuation { continuation in
        once.withLock { $0 = continuation }
        let resume: @Sendable (Result<Value, FetchError>?) -> Void = { result in
            once.withLock { stored in
                stored?.resume(returning: result)
                stored = nil
            }
        }
        DispatchQueue.global().asyncAfter(deadline: timeout.fromNow) { resume(nil) }
        start { resume($0) }
    }
}

/// Runs `body` and expects it to throw a ``FetchError`` with `code`; returns the error.
@discardableResult
func expectFetchError<R>(
    _ code: FetchError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> R
) async -> FetchError? {
    do {
        _ = try await body()
        Issue.record("expected a FetchError \(code), but the call succeeded", sourceLocation: sourceLocation)
        return nil
    } catch let error as FetchError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected a FetchError \(code), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
