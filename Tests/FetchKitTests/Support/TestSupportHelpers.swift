import FetchKit
import Foundation
import Locking
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An endpoint whose parts a test sets directly.
struct TestEndpoint: Endpoint {
    var baseURL: URL
    var path: String
    var method: HTTPMethod = .get
    var queryItems: [URLQueryItem] = []
    var headers: [String: String] = [:]
    var body: RequestBody?
    var timeout: Duration?
    var cachePolicy: CachePolicy = .useProtocol
}

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

/// An observer that records what it is told.
final class RecordingObserver: FetchObserver {
    struct Retry: Sendable {
        var attempt: Int
        var delay: Duration
        var error: FetchError
    }

    let started = Locked<[RequestSummary]>([])
    let retries = Locked<[Retry]>([])
    let finished = Locked<[(RequestSummary, FetchMetrics)]>([])

    func requestWillStart(_ request: RequestSummary) {
        started.withLock { $0.append(request) }
    }

    func requestWillRetry(_ request: RequestSummary, after delay: Duration, because error: FetchError) {
        retries.withLock { $0.append(Retry(attempt: request.attempt, delay: delay, error: error)) }
    }

    func requestDidFinish(_ request: RequestSummary, metrics: FetchMetrics) {
        finished.withLock { $0.append((request, metrics)) }
    }
}

struct Movie: Codable, Equatable, Sendable {
    var id: Int
    var title: String
    var popularity: Double
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
