import FetchKit
import Foundation
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Keeps what an extraction saw of the response.
final class ResponseProbe: Sendable {
    private let seen = Locked<(status: Int?, header: String?)>((nil, nil))

    var status: Int? { seen.withLock { $0.status } }
    var header: String? { seen.withLock { $0.header } }

    var extraction: Extraction<String> {
        .custom { [self] data, response in
            let header = response.value(forHTTPHeaderField: "X-Rating")
            seen.withLock { $0 = (response.statusCode, header) }
            return String(decoding: data, as: UTF8.self)
        }
    }
}

/// Counts the completions of each request.
final class CallCounter: Sendable {
    private let counts: Locked<[Int]>

    init(_ count: Int) { counts = Locked(Array(repeating: 0, count: count)) }

    func hit(_ index: Int) { counts.withLock { $0[index] += 1 } }

    var repeated: [Int] {
        counts.withLock { counts in counts.indices.filter { counts[$0] > 1 } }
    }
}

/// Collects completions until `count` arrived or the check gives up.
final class Collected: Sendable {
    private struct State {
        var results: [Result<Data, FetchError>] = []
        var onFull: (@Sendable () -> Void)?
        var fired = false
    }

    private let count: Int
    private let state = Locked(State())

    init(_ count: Int) { self.count = count }

    var results: [Result<Data, FetchError>] { state.withLock { $0.results } }

    func onFull(_ action: @escaping @Sendable () -> Void) {
        let fire = state.withLock { state -> Bool in
            state.onFull = action
            return state.results.count >= count
        }
        if fire { fireOnce() }
    }

    func add(_ result: Result<Data, FetchError>) {
        let full = state.withLock { state -> Bool in
            state.results.append(result)
            return state.results.count >= count
        }
        if full { fireOnce() }
    }

    func giveUp() { fireOnce() }

    private func fireOnce() {
        let action = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.fired, let action = state.onFull else { return nil }
            state.fired = true
            return action
        }
        action?()
    }
}

/// An observer that keeps the texts it is given and the metrics of finished requests.
final class SummaryRecorder: FetchObserver {
    private let state = Locked<(texts: [String], metrics: [FetchMetrics])>(([], []))

    var texts: [String] { state.withLock { $0.texts } }
    var metrics: [FetchMetrics] { state.withLock { $0.metrics } }

    func requestWillStart(_ request: RequestSummary) {
        state.withLock { $0.texts.append("\(request) \(request.headers)") }
    }

    func requestWillRetry(_ request: RequestSummary, after delay: Duration, because error: FetchError) {
        state.withLock { $0.texts.append("\(request) \(error)") }
    }

    func requestDidFinish(_ request: RequestSummary, metrics: FetchMetrics) {
        state.withLock { state in
            state.texts.append("\(request) \(request.headers) \(metrics)")
            state.metrics.append(metrics)
        }
    }
}
