import FetchKitTesting
import Foundation
import Locking
import TestSupport
import Testing

@testable import FetchKit

@Suite("Retries")
struct RetryTests {
    let server = StubServer()
    let observer = RecordingObserver()

    init() throws {
        try server.start()
    }

    private func client(
        _ policy: RetryPolicy, timeout: Duration = .seconds(120), clock: (any Clock<Duration>)? = nil
    ) -> FetchClient {
        let observer = self.observer
        return FetchClient {
            $0.retryPolicy = policy
            $0.timeout = timeout
            $0.observers = [observer]
            if let clock { $0.clock = clock }
        }
    }

    /// Waits (in short real-time steps, each well under 100 ms) until `count` retries have
    /// been announced and the wait before the last one sleeps on `clock`.
    private func retryScheduled(_ count: Int, on clock: TestClock) async throws -> Bool {
        let observer = observer
        try await waitUntil("\(count) retries to be announced") { observer.retries.current.count >= count }
        return await clock.sleepers(count: 1)
    }

    @Test func failsTwiceThenSucceeds() async throws {
        defer { server.stop() }
        server.route("GET", "/flaky", respondInTurn: [.status(503), .status(500), .text("ok")])
        let text = try await client(RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(5))).fetch(
            .url(server.url("/flaky")), extracting: .string)
        #expect(text == "ok")
        #expect(server.requests(to: "/flaky").count == 3)
        #expect(observer.retries.current.map(\.attempt) == [1, 2])
        #expect(observer.finished.current.first?.1.attempts == 3)
    }

    @Test func stopsAtTheLimitAndReportsTheLastError() async throws {
        defer { server.stop() }
        server.route("GET", "/down", respond: .status(502))
        let error = await #expect(throws: FetchError.self) {
            try await client(RetryPolicy(maximumRetries: 3, baseDelay: .milliseconds(1))).fetch(
                .url(server.url("/down")), extracting: .data)
        }
        #expect(error?.statusCode == 502)
        #expect(server.requests(to: "/down").count == 4)
    }

    @Test func stopRetryingEndsARequestWaitingToRetryAtOnceWithItsLastError() async throws {
        defer { server.stop() }
        server.route("GET", "/down", respond: .status(503, headers: ["Retry-After": "30"]))
        let clock = TestClock()
        let client = client(RetryPolicy(maximumRetries: 3, baseDelay: .milliseconds(1)), clock: clock)
        let fetch = Task { try await client.fetch(.url(server.url("/down")), extracting: .data) }
        defer { fetch.cancel() }
        try #require(try await retryScheduled(1, on: clock))
        // The clock never moves: only stopRetrying can end the wait.
        client.stopRetrying()
        let error = await #expect(throws: FetchError.self) { try await fetch.value }
        #expect(error?.code == .unacceptableStatus)
        #expect(error?.statusCode == 503)
        #expect(server.requests(to: "/down").count == 1)
    }

    @Test func stopRetryingLetsTheAttemptInFlightFinishAndStartsNoOther() async throws {
        defer { server.stop() }
        let gate = DispatchSemaphore(value: 0)
        let arrived = DispatchSemaphore(value: 0)
        server.route(
            "GET", "/slow",
            handler: { _ in
                arrived.signal()
                _ = gate.wait(timeout: Patience.hangDeadline)
                return .status(503)
            })
        let client = client(RetryPolicy(maximumRetries: 3, baseDelay: .milliseconds(1)))
        let fetch = Task { try await client.fetch(.url(server.url("/slow")), extracting: .data) }
        #expect(await Blocking.run { arrived.wait(timeout: Patience.hangDeadline) } == .success)
        client.stopRetrying()
        gate.signal()
        let error = await #expect(throws: FetchError.self) { try await fetch.value }
        #expect(error?.statusCode == 503)
        #expect(server.requests(to: "/slow").count == 1)
        #expect(observer.retries.current.isEmpty)

        // Until resumeRetrying, a new request makes one attempt; after it, requests retry again.
        server.route("GET", "/down", respond: .status(502))
        await #expect(throws: FetchError.self) { try await client.fetch(.url(server.url("/down")), extracting: .data) }
        #expect(server.requests(to: "/down").count == 1)
        client.resumeRetrying()
        await #expect(throws: FetchError.self) { try await client.fetch(.url(server.url("/down")), extracting: .data) }
        #expect(server.requests(to: "/down").count == 1 + 4)
    }

    @Test func stopRetryingEndsARequestWaitingForATokenRefreshWithTheRejection() async throws {
        defer { server.stop() }
        server.route("GET", "/me", respond: .text("expired", status: 401))
        let refreshing = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let authenticator = TokenAuthenticator(token: "old") {
            refreshing.signal()
            await Blocking.run { _ = release.wait(timeout: Patience.hangDeadline) }
            return "new"
        }
        let client = FetchClient { $0.authenticator = authenticator }
        let fetch = Task { try await client.fetch(.url(server.url("/me")), extracting: .data) }
        #expect(await Blocking.run { refreshing.wait(timeout: Patience.hangDeadline) } == .success)
        client.stopRetrying()
        let error = await #expect(throws: FetchError.self) { try await fetch.value }
        #expect(error?.statusCode == 401)
        #expect(server.requests(to: "/me").count == 1)
    }

    @Test func honoursRetryAfterInSeconds() async throws {
        defer { server.stop() }
        server.route("GET", "/limited", respondInTurn: [.status(429, headers: ["Retry-After": "120"]), .text("ok")])
        let clock = TestClock()
        let client = client(RetryPolicy(baseDelay: .milliseconds(1), maximumRetryAfter: .seconds(300)), clock: clock)
        let fetch = Task { try await client.fetch(.url(server.url("/limited")), extracting: .string) }
        // A retry that is never scheduled fails the test instead of leaving it waiting on the test clock.
        defer { fetch.cancel() }
        try #require(try await retryScheduled(1, on: clock))
        #expect(observer.retries.current.map(\.delay) == [.seconds(120)])
        // Two minutes pass in no real time; the retry goes out when they have.
        await clock.advance(by: .seconds(119))
        #expect(clock.sleeperCount == 1)
        await clock.advance(by: .seconds(1))
        #expect(try await fetch.value == "ok")
        #expect(server.requests(to: "/limited").count == 2)
    }

    @Test func honoursRetryAfterAsAnHTTPDate() async throws {
        defer { server.stop() }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        server.route("GET", "/busy") { request in
            request.sequenceNumber == 0
                ? .status(503, headers: ["Retry-After": formatter.string(from: Date().addingTimeInterval(30))])
                : .text("ok")
        }
        let clock = TestClock()
        let client = client(RetryPolicy(baseDelay: .milliseconds(1)), clock: clock)
        let fetch = Task { try await client.fetch(.url(server.url("/busy")), extracting: .string) }
        // A retry that is never scheduled fails the test instead of leaving it waiting on the test clock.
        defer { fetch.cancel() }
        try #require(try await retryScheduled(1, on: clock))
        let delay = try #require(observer.retries.current.first?.delay)
        // A whole-second date thirty seconds ahead: between 29 and 30 seconds after the server
        // wrote it, less however long the client took to read it (bounded loosely below: a
        // busy machine can hold the response for seconds; the 1 ms base delay is far below).
        #expect(delay > .seconds(5) && delay <= .seconds(30))
        await clock.advance(by: delay)
        #expect(try await fetch.value == "ok")
    }

    @Test func aRetryAfterLongerThanTheMaximumEndsTheRetries() async throws {
        defer { server.stop() }
        server.route("GET", "/later", respond: .status(503, headers: ["Retry-After": "3600"]))
        let error = await #expect(throws: FetchError.self) {
            try await client(RetryPolicy(baseDelay: .milliseconds(1))).fetch(.url(server.url("/later")), extracting: .data)
        }
        #expect(error?.statusCode == 503)
        #expect(server.requests(to: "/later").count == 1)
    }

    @Test func retryAfterIsIgnoredOutside429And503() async throws {
        defer { server.stop() }
        server.route("GET", "/error", respondInTurn: [.status(500, headers: ["Retry-After": "120"]), .text("ok")])
        _ = try await client(RetryPolicy(baseDelay: .milliseconds(2), jitter: 0)).fetch(
            .url(server.url("/error")), extracting: .string)
        #expect(observer.retries.current.map(\.delay) == [.milliseconds(2)])
    }

    @Test func backoffGrowsExponentiallyUpToTheCap() {
        let policy = RetryPolicy(
            baseDelay: .milliseconds(100), multiplier: 2, maximumDelay: .milliseconds(500), jitter: 0)
        var generator = SeededGenerator(seed: 1)
        let delays = (1...5).map { policy.backoff(beforeRetry: $0, using: &generator) }
        #expect(
            delays == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(500), .milliseconds(500),
            ])
    }

    @Test func jitterShortensEachWaitByAtMostItsFraction() {
        let policy = RetryPolicy(baseDelay: .milliseconds(1000), multiplier: 2, jitter: 0.5)
        var generator = SeededGenerator(seed: 7)
        var seen = Set<Duration>()
        for retry in 1...3 {
            let full = Duration.milliseconds(1000) * (1 << (retry - 1))
            for _ in 0..<50 {
                let delay = policy.backoff(beforeRetry: retry, using: &generator)
                #expect(delay <= full && delay >= full / 2)
                seen.insert(delay)
            }
        }
        #expect(seen.count > 10)
    }

    @Test func observedWaitsGrowBetweenAttempts() async throws {
        defer { server.stop() }
        server.route("GET", "/always", respond: .status(503))
        _ = await completion { done in
            client(RetryPolicy(maximumRetries: 3, baseDelay: .milliseconds(5), multiplier: 3, jitter: 0)).fetch(
                .url(server.url("/always")), extracting: .data, completion: done)
        }
        #expect(observer.retries.current.map(\.delay) == [.milliseconds(5), .milliseconds(15), .milliseconds(45)])
    }

    @Test func nonIdempotentMethodsAreNotRetriedByDefault() async throws {
        defer { server.stop() }
        server.route("POST", "/order", respond: .status(503))
        let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/order", method: .post, body: .text("1 book"))
        _ = await #expect(throws: FetchError.self) {
            try await client(RetryPolicy(baseDelay: .milliseconds(1))).fetch(endpoint, extracting: .data)
        }
        #expect(server.requests(to: "/order").count == 1)
        _ = await #expect(throws: FetchError.self) {
            try await client(
                RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(1), retriesNonIdempotentMethods: true)
            )
            .fetch(endpoint, extracting: .data)
        }
        #expect(server.requests(to: "/order").count == 4)
    }

    @Test func timeoutsAndDroppedConnectionsAreRetried() async throws {
        defer { server.stop() }
        server.route(
            "GET", "/hiccup",
            respondInTurn: [.text("x").delayed(by: Patience.beyondTheTest), .closeWithoutAnswer, .text("ok")])
        let clock = TestClock()
        let client = client(
            // An hour on the test clock: URLSession's own backstop (the timeout plus a margin, in
            // real time) must not end the held attempt while a busy machine holds this test up.
            RetryPolicy(maximumRetries: 2, baseDelay: .seconds(1), jitter: 0), timeout: .seconds(3600), clock: clock)
        let fetch = Task { try await client.fetch(.url(server.url("/hiccup")), extracting: .string) }
        // A retry that is never scheduled fails the test instead of leaving it waiting on the test clock.
        defer { fetch.cancel() }
        // The first answer is held by the server: its hour-long timeout is the only sleeper.
        #expect(await server.waitForRequests(count: 1))
        #expect(await clock.sleepers(count: 1))
        await clock.advance(by: .seconds(3600))
        try #require(try await retryScheduled(1, on: clock))
        await clock.advance(by: .seconds(1))
        // The second attempt's connection closes without an answer: retried after 2 s.
        try #require(try await retryScheduled(2, on: clock))
        await clock.advance(by: .seconds(2))
        #expect(try await fetch.value == "ok")
        #expect(observer.retries.current.map(\.error.code) == [.timedOut, .connectionLost])
        #expect(observer.retries.current.map(\.delay) == [.seconds(1), .seconds(2)])
    }

    @Test func aLostConnectionIsRetriedForGetButNotForPost() async throws {
        defer { server.stop() }
        server.route(
            "GET", "/flaky",
            respondInTurn: [
                .text(String(repeating: "x", count: 500)).droppingConnection(afterBodyBytes: 20), .text("ok"),
            ])
        let text = try await client(RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(1)))
            .fetch(.url(server.url("/flaky")), extracting: .string)
        #expect(text == "ok")
        #expect(server.requests(to: "/flaky").count == 2)

        server.route(
            "POST", "/pay",
            respond: StubResponse.text(String(repeating: "x", count: 500)).droppingConnection(afterBodyBytes: 20))
        let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/pay", method: .post)
        let error = await #expect(throws: FetchError.self) {
            try await client(RetryPolicy(maximumRetries: 2, baseDelay: .milliseconds(1))).fetch(
                endpoint, extracting: .data)
        }
        #expect(error?.code == .connectionLost)
        #expect(server.requests(to: "/pay").count == 1)
    }

    @Test func clientErrorsAreNotRetried() async throws {
        defer { server.stop() }
        server.route("GET", "/nope", respond: .status(404))
        _ = await #expect(throws: FetchError.self) {
            try await client(RetryPolicy(baseDelay: .milliseconds(1))).fetch(.url(server.url("/nope")), extracting: .data)
        }
        #expect(server.requests(to: "/nope").count == 1)
    }

    @Test func cancellingDuringTheWaitEndsTheRequestWithoutAnotherAttempt() async throws {
        defer { server.stop() }
        server.route("GET", "/wait", respond: .status(503, headers: ["Retry-After": "1"]))
        /// Cancels the request the moment its retry is scheduled, so the cancellation
        /// certainly lands during the wait.
        final class CancelOnRetry: FetchObserver {
            let task = Locked<FetchTask<Data>?>(nil)
            let retries = Locked(0)
            func requestWillRetry(_ request: RequestSummary, after delay: Duration, because error: FetchError) {
                retries.withLock { $0 += 1 }
                task.current?.cancel()
            }
        }
        let observer = CancelOnRetry()
        let clock = TestClock()
        let client = FetchClient {
            $0.retryPolicy = RetryPolicy(baseDelay: .milliseconds(1))
            $0.observers = [observer]
            $0.clock = clock
        }
        let result = await completion { done in
            observer.task.withLock { $0 = client.fetch(.url(server.url("/wait")), extracting: .data, completion: done) }
        }
        guard case .failure(let error) = result else { throw Failure("expected a failure") }
        #expect(error.code == .cancelled)
        #expect(observer.retries.current == 1)
        // Move past the Retry-After: nothing is left to wake, and no retry goes out.
        await clock.advance(by: .seconds(2))
        #expect(clock.sleeperCount == 0)
        #expect(server.requests(to: "/wait").count == 1)
    }

    @Test func aCancelledRequestIsNeverRetried() async throws {
        defer { server.stop() }
        server.route("GET", "/hang", respond: .text("x").delayed(by: .seconds(86_400)))
        let clock = TestClock()
        let client = client(RetryPolicy(maximumRetries: 5, baseDelay: .milliseconds(1)), clock: clock)
        let result = await completion { done in
            let task = client.fetch(.url(server.url("/hang")), extracting: .data, completion: done)
            Task {
                _ = await server.waitForRequests(count: 1)
                task.cancel()
            }
        }
        guard case .failure(let error) = result else { throw Failure("expected a failure") }
        #expect(error.code == .cancelled)
        #expect(observer.retries.current.isEmpty)
        // Whatever time passes, nothing is scheduled to send it again.
        await clock.advance(by: .seconds(600))
        #expect(clock.sleeperCount == 0)
        #expect(server.requests(to: "/hang").count == 1)
    }
}
