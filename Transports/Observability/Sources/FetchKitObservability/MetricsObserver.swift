public import CoreMetrics
public import FetchKit
import Foundation
import Metrics
public import Sync

/// A `FetchObserver` that counts and times FetchKit's requests, retries, cache uses and token
/// refreshes in swift-metrics, and a synced collection's runs with ``follow(_:)``.
///
/// ```swift
/// let metrics = MetricsObserver()
/// let client = FetchClient { $0.observers = [metrics] }
/// Task { await metrics.follow(mirror.statusUpdates) }
/// ```
///
/// | metric | kind | dimensions |
/// |---|---|---|
/// | `fetchkit_requests_total` | counter | `method`, `host`, `status` (or `none`), `outcome` (`success` or the `FetchError` code) |
/// | `fetchkit_request_duration_seconds` | timer | `method`, `host`, `outcome` |
/// | `fetchkit_retries_total` | counter | `method`, `host`, `reason` (the failed attempt's error code) |
/// | `fetchkit_cache_uses_total` | counter | `host`, `use` (`hit`, `notModified`, `staleWhileRevalidating`, `staleAfterError`) |
/// | `fetchkit_token_refreshes_total` | counter | `outcome` (`success` or `failure`) |
/// | `fetchkit_token_refresh_duration_seconds` | timer | `outcome` |
/// | `fetchkit_sync_runs_total` | counter | `collection`, `outcome` (`success` or the `SyncError` code) |
/// | `fetchkit_sync_run_duration_seconds` | timer | `collection` |
/// | `fetchkit_sync_pending_writes`, `…_rejected_writes`, `…_conflicted_writes` | gauge | `collection` |
///
/// Every dimension has a bounded set of values (a host, never a URL or a path), so a dashboard
/// can group by any of them. The prefix `fetchkit` can be changed.
public struct MetricsObserver: FetchObserver {
    private let prefix: String
    private let factory: any MetricsFactory

    /// Creates an observer.
    ///
    /// - Parameters:
    ///   - prefix: the start of every metric's label; `fetchkit` by default.
    ///   - factory: the metrics backend; the one `MetricsSystem.bootstrap` installed by default.
    public init(prefix: String = "fetchkit", factory: any MetricsFactory = MetricsSystem.factory) {
        self.prefix = prefix
        self.factory = factory
    }

    /// Counts a retry in `fetchkit_retries_total`.
    ///
    /// - Parameters:
    ///   - request: the request, redacted.
    ///   - delay: the wait before the next attempt.
    ///   - error: why the attempt failed.
    public func requestWillRetry(_ request: RequestSummary, after delay: Duration, because error: FetchError) {
        counter(
            "retries_total",
            [("method", request.method.rawValue), ("host", Self.host(of: request)), ("reason", "\(error.code)")]
        )
        .increment()
    }

    /// Counts and times the request, and counts its cache use.
    ///
    /// - Parameters:
    ///   - request: the request, redacted.
    ///   - metrics: its outcome.
    public func requestDidFinish(_ request: RequestSummary, metrics: FetchMetrics) {
        let method = request.method.rawValue
        let host = Self.host(of: request)
        let outcome = metrics.error.map { "\($0.code)" } ?? "success"
        let status = metrics.statusCode.map(String.init) ?? "none"
        counter("requests_total", [("method", method), ("host", host), ("status", status), ("outcome", outcome)])
            .increment()
        timer("request_duration_seconds", [("method", method), ("host", host), ("outcome", outcome)])
            .record(duration: metrics.duration)
        if metrics.cacheUse != .none {
            counter("cache_uses_total", [("host", host), ("use", CacheName.of(metrics.cacheUse))]).increment()
        }
    }

    /// Counts and times a token refresh.
    ///
    /// - Parameters:
    ///   - duration: how long the refresh took.
    ///   - error: why it failed, or `nil`.
    public func tokenRefreshDidFinish(after duration: Duration, error: FetchError?) {
        let outcome = error == nil ? "success" : "failure"
        counter("token_refreshes_total", [("outcome", outcome)]).increment()
        timer("token_refresh_duration_seconds", [("outcome", outcome)]).record(duration: duration)
    }

    /// Counts and times a synced collection's (or group's) runs, and keeps its outbox gauges, from
    /// its status updates, until they end or the calling task is cancelled.
    ///
    /// A run is one change of ``SyncStatus/isSyncing`` from `true` to `false`; its outcome is
    /// `success`, or the code of ``SyncStatus/error``. Follow a stream of its own:
    /// `await metrics.follow(mirror.statusUpdates)` in a task.
    ///
    /// - Parameter updates: the collection's or group's `statusUpdates`.
    public func follow(_ updates: AsyncStream<SyncStatus>) async {
        var started: ContinuousClock.Instant?
        for await status in updates {
            let collection = [("collection", status.collection)]
            gauge("sync_pending_writes", collection).record(status.pendingCount)
            gauge("sync_rejected_writes", collection).record(status.rejectedCount)
            gauge("sync_conflicted_writes", collection).record(status.conflictedCount)
            if status.isSyncing {
                if started == nil { started = .now }
            } else if let start = started {
                started = nil
                let outcome = status.error.map { "\($0.code)" } ?? "success"
                counter("sync_runs_total", collection + [("outcome", outcome)]).increment()
                timer("sync_run_duration_seconds", collection).record(duration: ContinuousClock.now - start)
            }
        }
    }

    // MARK: Metrics

    private func counter(_ name: String, _ dimensions: [(String, String)]) -> Counter {
        Counter(label: "\(prefix)_\(name)", dimensions: dimensions, factory: factory)
    }

    private func timer(_ name: String, _ dimensions: [(String, String)]) -> CoreMetrics.Timer {
        CoreMetrics.Timer(label: "\(prefix)_\(name)", dimensions: dimensions, factory: factory)
    }

    private func gauge(_ name: String, _ dimensions: [(String, String)]) -> Gauge {
        Gauge(label: "\(prefix)_\(name)", dimensions: dimensions, factory: factory)
    }

    /// The request's host (and port), a bounded dimension; `unknown` when the URL has none.
    static func host(of request: RequestSummary) -> String {
        guard let components = URLComponents(string: request.url), let host = components.host else { return "unknown" }
        return components.port.map { "\(host):\($0)" } ?? host
    }
}
