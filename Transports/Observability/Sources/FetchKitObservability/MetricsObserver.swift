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
/// | `fetchkit_request_duration_seconds` | timer | `method`, `host`, `outcome`, `cache` (`none`, `hit`, …) |
/// | `fetchkit_retries_total` | counter | `method`, `host`, `reason` (the failed attempt's error code) |
/// | `fetchkit_cache_uses_total` | counter | `host`, `use` (`hit`, `notModified`, `staleWhileRevalidating`, `staleAfterError`) |
/// | `fetchkit_token_refreshes_total` | counter | `outcome` (`success` or `failure`) |
/// | `fetchkit_token_refresh_duration_seconds` | timer | `outcome` |
/// | `fetchkit_sync_runs_total` | counter | `collection`, `outcome` (`success` or the `SyncError` code) |
/// | `fetchkit_sync_run_duration_seconds` | timer | `collection` |
/// | `fetchkit_sync_pending_writes`, `…_rejected_writes`, `…_conflicted_writes` | gauge | `collection` |
///
/// No dimension holds a URL, a path or an id: `host` is the request's host (and port), bounded
/// when the app talks to a known set of hosts; give `hostName` to fold hosts that vary (tenant
/// subdomains, storage buckets) into one name. Timers prefer seconds. The prefix `fetchkit` can be
/// changed. Each metric's handle is made once and kept, as swift-metrics asks.
public struct MetricsObserver: FetchObserver {
    private let prefix: String
    private let handles: Handles
    private let hostName: @Sendable (String) -> String

    /// Creates an observer.
    ///
    /// - Parameters:
    ///   - prefix: the start of every metric's label; `fetchkit` by default.
    ///   - factory: the metrics backend, or `nil` (the default) for the one `MetricsSystem.bootstrap`
    ///     installed, read when a metric is first used (so an observer made before the bootstrap
    ///     reports to the backend the app installs).
    ///   - hostName: the `host` dimension's value for a request's host; the host itself by default.
    public init(
        prefix: String = "fetchkit", factory: (any MetricsFactory)? = nil,
        hostName: @escaping @Sendable (String) -> String = { $0 }
    ) {
        self.prefix = prefix
        self.handles = Handles(factory: factory)
        self.hostName = hostName
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
            [("method", request.method.rawValue), ("host", host(of: request)), ("reason", "\(error.code)")]
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
        let host = host(of: request)
        let outcome = metrics.error.map { "\($0.code)" } ?? "success"
        let status = metrics.statusCode.map(String.init) ?? "none"
        counter("requests_total", [("method", method), ("host", host), ("status", status), ("outcome", outcome)])
            .increment()
        let cache = CacheName.of(metrics.cacheUse)
        timer("request_duration_seconds", [("method", method), ("host", host), ("outcome", outcome), ("cache", cache)])
            .record(duration: metrics.duration)
        if metrics.cacheUse != .none {
            counter("cache_uses_total", [("host", host), ("use", cache)]).increment()
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
    /// Runs are counted by ``SyncStatus/runsFinished`` (from the mirror's first run, so a run that
    /// ended before the follower's first update still counts), with the outcome `success` or the
    /// code of ``SyncStatus/error`` for the last run an update shows ended. A run the follower did
    /// not see end, because the stream kept only newer updates, is counted with the outcome
    /// `unobserved`. A run's duration is timed from the update that showed it start to the one
    /// that showed it end, when the follower saw both. A collection in a ``SyncGroup`` shows the
    /// group's runs as its own: follow the group or its collections, not both.
    ///
    /// - Parameter updates: the collection's or group's `statusUpdates`.
    public func follow(_ updates: AsyncStream<SyncStatus>) async {
        var counted = 0
        var started: ContinuousClock.Instant?
        for await status in updates {
            let collection = [("collection", status.collection)]
            gauge("sync_pending_writes", collection).record(status.pendingCount)
            gauge("sync_rejected_writes", collection).record(status.rejectedCount)
            gauge("sync_conflicted_writes", collection).record(status.conflictedCount)
            let ended = status.runsFinished - counted
            if ended > 0 {
                counted = status.runsFinished
                // The update shows the last run's end only when no later run has begun.
                let shown = status.isSyncing ? 0 : 1
                if ended > shown {
                    counter("sync_runs_total", collection + [("outcome", "unobserved")]).increment(
                        by: Int64(ended - shown))
                }
                if shown == 1 {
                    let outcome = status.error.map { "\($0.code)" } ?? "success"
                    counter("sync_runs_total", collection + [("outcome", outcome)]).increment()
                    if let start = started {
                        timer("sync_run_duration_seconds", collection).record(duration: ContinuousClock.now - start)
                    }
                }
                started = nil
            }
            if status.isSyncing, started == nil { started = .now }
        }
    }

    // MARK: Metrics

    private func counter(_ name: String, _ dimensions: [(String, String)]) -> Counter {
        handles.counter("\(prefix)_\(name)", dimensions)
    }

    private func timer(_ name: String, _ dimensions: [(String, String)]) -> CoreMetrics.Timer {
        handles.timer("\(prefix)_\(name)", dimensions)
    }

    private func gauge(_ name: String, _ dimensions: [(String, String)]) -> Gauge {
        handles.gauge("\(prefix)_\(name)", dimensions)
    }

    /// The request's `host` dimension: its host (and port) through `hostName`; `unknown` when the URL has none.
    private func host(of request: RequestSummary) -> String {
        guard let components = URLComponents(string: request.url), let host = components.host else { return "unknown" }
        return hostName(components.port.map { "\(host):\($0)" } ?? host)
    }
}

/// The metric handles an observer made, by label and dimensions: each is made once.
// @unchecked Sendable: `lock` guards `counters`, `timers`, `gauges` and `resolved`; the handles
// themselves are thread-safe swift-metrics objects.
private final class Handles: @unchecked Sendable {
    private struct Key: Hashable {
        var label: String
        var dimensions: [String]
        init(_ label: String, _ dimensions: [(String, String)]) {
            self.label = label
            self.dimensions = dimensions.flatMap { [$0.0, $0.1] }
        }
    }

    private let lock = NSLock()
    private let factory: (any MetricsFactory)?
    private var resolved: (any MetricsFactory)?
    private var counters: [Key: Counter] = [:]
    private var timers: [Key: CoreMetrics.Timer] = [:]
    private var gauges: [Key: Gauge] = [:]

    init(factory: (any MetricsFactory)?) {
        self.factory = factory
    }

    /// The backend, read once on first use (under `lock`).
    private var backend: any MetricsFactory {
        if let resolved { return resolved }
        let backend = factory ?? MetricsSystem.factory
        resolved = backend
        return backend
    }

    func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
        handle(\.counters, label, dimensions) { Counter(label: label, dimensions: dimensions, factory: $0) }
    }

    func timer(_ label: String, _ dimensions: [(String, String)]) -> CoreMetrics.Timer {
        handle(\.timers, label, dimensions) {
            CoreMetrics.Timer(label: label, dimensions: dimensions, preferredDisplayUnit: .seconds, factory: $0)
        }
    }

    func gauge(_ label: String, _ dimensions: [(String, String)]) -> Gauge {
        handle(\.gauges, label, dimensions) { Gauge(label: label, dimensions: dimensions, factory: $0) }
    }

    /// The handle kept in `table` for `label` and `dimensions`, made with `make` the first time.
    private func handle<Handle>(
        _ table: ReferenceWritableKeyPath<Handles, [Key: Handle]>, _ label: String, _ dimensions: [(String, String)],
        make: (any MetricsFactory) -> Handle
    ) -> Handle {
        lock.withLock {
            let key = Key(label, dimensions)
            if let handle = self[keyPath: table][key] { return handle }
            let handle = make(backend)
            self[keyPath: table][key] = handle
            return handle
        }
    }
}
