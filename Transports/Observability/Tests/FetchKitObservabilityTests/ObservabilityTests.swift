import FetchKit
import FetchKitObservability
import FetchKitTesting
import Foundation
import InMemoryLogging
import Logging
import MetricsTestKit
import Persistence
import Sync
import Testing

@testable import CoreMetrics

/// `LoggingObserver` and `MetricsObserver` with swift-log's and swift-metrics' own test backends,
/// over real requests to the loopback stub server.
@Suite struct ObservabilityTests {
    static let key = "key-3e8b1f0d77"

    /// A session: a token refresh for twenty rejected calls, a retried 503, a cached 304, a 404.
    static func session(observers: [any FetchObserver]) async throws {
        let server = StubServer()
        server.route("GET", "/me") { request in
            request.header("Authorization") == "Bearer fresh-token-0001" ? .json("{}") : .status(401)
        }
        server.route("GET", "/flaky", respondInTurn: [.status(503), .json("{}")])
        server.route("GET", "/cached") { request in
            if request.header("If-None-Match") == "\"v1\"" { return .status(304, headers: ["ETag": "\"v1\""]) }
            var response = StubResponse.json(#"{"v":1}"#)
            response.headers["ETag"] = "\"v1\""
            response.headers["Cache-Control"] = "no-cache"
            return response
        }
        try server.start()
        defer { server.stop() }
        let client = FetchClient {
            $0.authenticator = TokenAuthenticator(token: "stale-token-0001") { "fresh-token-0001" }
            $0.observers = observers
            $0.cache = HTTPCache()
            $0.retryPolicy = RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(1))
            $0.adapters.append(
                TraceContextAdapter { TraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01") })
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask { _ = try await client.fetch(.url(server.url("/me?api_key=\(key)")), extracting: .data) }
            }
            try await group.waitForAll()
        }
        _ = try await client.fetch(.url(server.url("/flaky")), extracting: .data)
        _ = try await client.fetch(.url(server.url("/cached")), extracting: .data)
        _ = try await client.fetch(.url(server.url("/cached")), extracting: .data)
        _ = try? await client.fetch(.url(server.url("/missing")), extracting: .data)
    }

    @Test func aLoggerGetsTheLifecycleAtTheGuidelinesLevelsWithNoSecret() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "fetchkit.tests") { _ in handler }
        logger.logLevel = .trace
        try await Self.session(observers: [LoggingObserver(logger)])

        let entries = handler.entries
        let messages = entries.map { "\($0.message)" }
        #expect(messages.filter { $0 == "token refreshed" }.count == 1)
        #expect(entries.filter { "\($0.message)" == "request will be retried" }.map(\.level).allSatisfy { $0 == .info })
        #expect(messages.contains("request will be retried"))
        #expect(entries.filter { "\($0.message)" == "request started" }.allSatisfy { $0.level == .trace })
        #expect(entries.filter { "\($0.message)" == "request finished" }.allSatisfy { $0.level == .debug })
        let failed = try #require(entries.first { "\($0.message)" == "request failed" })
        #expect(failed.level == .debug)
        #expect(failed.metadata["http.response.status_code"] == "404")
        #expect(failed.metadata["error.type"] == "unacceptableStatus")
        #expect(failed.metadata["error.message"] == nil, "a refused status's body is not logged")
        #expect(!entries.contains { $0.level > .info }, "a library logs at info or below")
        let cached = entries.filter {
            "\($0.message)" == "request finished" && $0.metadata["fetch.cache"] == "notModified"
        }
        #expect(cached.count == 1)
        #expect(
            entries.allSatisfy {
                $0.metadata["trace_id"] == nil || $0.metadata["trace_id"] == "4bf92f3577b34da6a3ce929d0e0e4736"
            })
        #expect(entries.contains { $0.metadata["trace_id"] != nil })

        let everything = entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        for secret in [Self.key, "fresh-token-0001", "stale-token-0001"] {
            #expect(!everything.contains(secret), "the log holds \(secret)")
        }
    }

    @Test func metricsCountRequestsRetriesCacheUsesAndRefreshesWithDimensions() async throws {
        let metrics = TestMetrics()
        try await Self.session(observers: [MetricsObserver(factory: metrics)])

        #expect(metrics.counterTotal(label: "fetchkit_token_refreshes_total") == 1)
        #expect(try metrics.expectCounter("fetchkit_token_refreshes_total", [("outcome", "success")]).totalValue == 1)
        #expect(metrics.counterTotal(label: "fetchkit_requests_total") == 24)
        let host = try #require(
            metrics.counters(label: "fetchkit_requests_total").first?.dimensions.first { $0.0 == "host" }?.1)
        #expect(host.hasPrefix("127.0.0.1:"))
        #expect(
            try metrics.expectCounter(
                "fetchkit_requests_total",
                [("method", "GET"), ("host", host), ("status", "404"), ("outcome", "unacceptableStatus")]
            ).totalValue == 1)
        #expect(
            try metrics.expectCounter(
                "fetchkit_retries_total", [("method", "GET"), ("host", host), ("reason", "unacceptableStatus")]
            )
            .totalValue == 1)
        #expect(
            try metrics.expectCounter("fetchkit_cache_uses_total", [("host", host), ("use", "notModified")]).totalValue
                == 1)
        let durations = metrics.timers(label: "fetchkit_request_duration_seconds").flatMap(\.values)
        #expect(durations.count == 24)
        #expect(metrics.timers(label: "fetchkit_token_refresh_duration_seconds").flatMap(\.values).count == 1)
    }

    nonisolated struct Note: StoredEntity {
        var id: String
        var title: String
        var updated: String?
    }

    @Test func syncRunsAreCountedAndTimedFromAMirrorsStatus() async throws {
        let server = StubServer()
        server.route(
            "GET", "/api/collections/notes/records",
            respond: .json(#"{"page":1,"perPage":500,"totalItems":0,"totalPages":0,"items":[]}"#))
        try server.start()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "observability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try ObjectStore(
            at: directory.appendingPathComponent("notes.sqlite"), entities: [Note.self] + SyncSchema.entities)
        let client = FetchClient { $0.retryPolicy = .none }
        let mirror = try SyncedCollection(
            RemoteCollection<Note>.pocketBase("notes", at: server.baseURL, version: \.updated), store: store,
            client: client)

        let metrics = TestMetrics()
        let observer = MetricsObserver(factory: metrics)
        let updates = mirror.statusUpdates
        let following = Task { await observer.follow(updates) }
        defer { following.cancel() }
        _ = try await mirror.sync()
        server.route("GET", "/api/collections/notes/records", respond: .status(500))
        await #expect(throws: SyncError.self) { _ = try await mirror.sync() }

        for _ in 0..<2_000 where metrics.counterTotal(label: "fetchkit_sync_runs_total") < 2 {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(
            try metrics.expectCounter("fetchkit_sync_runs_total", [("collection", "notes"), ("outcome", "success")])
                .totalValue == 1)
        #expect(metrics.counterTotal(label: "fetchkit_sync_runs_total") == 2)
        #expect(
            metrics.counters(label: "fetchkit_sync_runs_total").contains { counter in
                counter.dimensions.contains { $0 == ("outcome", "requestFailed") }
            })
        #expect(
            try metrics.expectTimer("fetchkit_sync_run_duration_seconds", [("collection", "notes")]).values.count == 2)
        #expect(try metrics.expectGauge("fetchkit_sync_pending_writes", [("collection", "notes")]).lastValue == 0)
    }

    @Test func runsThatEndedBetweenTwoUpdatesAreCountedAsUnobserved() async {
        let metrics = TestMetrics()
        var syncing = SyncStatus(collection: "notes")
        syncing.isSyncing = true
        var ended = SyncStatus(collection: "notes")
        ended.runsFinished = 3
        ended.pendingCount = 2
        let updates = AsyncStream<SyncStatus> { continuation in
            continuation.yield(syncing)
            continuation.yield(ended)
            continuation.finish()
        }
        await MetricsObserver(factory: metrics).follow(updates)
        #expect(metrics.counterTotal(label: "fetchkit_sync_runs_total") == 3)
        #expect(
            (try? metrics.expectCounter(
                "fetchkit_sync_runs_total", [("collection", "notes"), ("outcome", "unobserved")]))?
                .totalValue == 2)
        #expect(
            (try? metrics.expectCounter("fetchkit_sync_runs_total", [("collection", "notes"), ("outcome", "success")]))?
                .totalValue == 1)
        #expect((try? metrics.expectGauge("fetchkit_sync_pending_writes", [("collection", "notes")]))?.lastValue == 2)
    }

    @Test func anObserverMadeBeforeTheBootstrapUsesTheFactoryOfItsFirstMetric() {
        // The factory is read when a metric is first used, not when the observer is made.
        let metrics = TestMetrics()
        let observer = MetricsObserver(factory: nil)
        MetricsSystem.bootstrapInternal(metrics)
        observer.tokenRefreshDidFinish(after: .milliseconds(3), error: nil)
        #expect(metrics.counterTotal(label: "fetchkit_token_refreshes_total") == 1)
    }
}
