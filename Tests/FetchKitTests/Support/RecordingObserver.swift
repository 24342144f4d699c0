import FetchKit
import Locking

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
    let refreshes = Locked<[FetchError?]>([])

    func requestWillStart(_ request: RequestSummary) {
        started.withLock { $0.append(request) }
    }

    func requestWillRetry(_ request: RequestSummary, after delay: Duration, because error: FetchError) {
        retries.withLock { $0.append(Retry(attempt: request.attempt, delay: delay, error: error)) }
    }

    func requestDidFinish(_ request: RequestSummary, metrics: FetchMetrics) {
        finished.withLock { $0.append((request, metrics)) }
    }

    func tokenRefreshDidFinish(after duration: Duration, error: FetchError?) {
        refreshes.withLock { $0.append(error) }
    }
}
