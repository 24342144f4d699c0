import FetchKit
import FetchKitTesting
import Foundation
import Locking
import TestSupport
import Testing

/// The token authenticator through the stub server: single-flight refresh, no loops, redaction.
@Suite struct AuthenticationTests {
    struct RefreshFailed: Error, CustomStringConvertible {
        var description: String { "the identity server said no" }
    }

    /// A server that accepts only `Bearer <accepted>` and answers 401 otherwise.
    static func server(accepting accepted: Locked<String>) throws -> StubServer {
        let server = StubServer()
        try server.start()
        server.route(
            "GET", "/me/*",
            handler: { request in
                request.header("Authorization") == "Bearer \(accepted.current)"
                    ? .json(#"{"ok":true}"#) : .text("token expired", status: 401)
            })
        return server
    }

    @Test func aHundredRequestsRejectedAtOnceCauseOneRefreshAndAllSucceed() async throws {
        let accepted = Locked("fresh-token-2")
        let server = try Self.server(accepting: accepted)
        defer { server.stop() }
        // The refresh ends only once the server has rejected all 100 requests, so every
        // rejection arrives while it runs.
        let authenticator = TokenAuthenticator(token: "stale-token-1") {
            _ = await server.waitForRequests(count: 100)
            return "fresh-token-2"
        }
        let client = FetchClient {
            $0.authenticator = authenticator
            $0.maximumConnectionsPerHost = 100
        }
        let results = await withTaskGroup(of: Bool.self, returning: [Bool].self) { group in
            for index in 0..<100 {
                group.addTask {
                    let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/me/\(index)")
                    return (try? await client.fetch(endpoint, extracting: .string)) == #"{"ok":true}"#
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 100)
        #expect(results.allSatisfy { $0 })
        #expect(authenticator.refreshCount == 1)
        #expect(authenticator.token == "fresh-token-2")
        let sent = server.receivedRequests
        #expect(sent.filter { $0.header("Authorization") == "Bearer fresh-token-2" }.count == 100)
        #expect(sent.count <= 200, "each request is sent at most twice")
    }

    @Test func aFailedRefreshFailsEveryRequestRejectedWithItsTokenAndRefreshesOnce() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        // Half the requests are rejected at once; the other half only once the test has seen the
        // refresh fail, so their rejections certainly come after the failure.
        let gate = DispatchSemaphore(value: 0)
        // Requests that reached the server, so the refreshes fail only once every request of a
        // round was sent with the old token, however slowly the machine runs them: one sent after
        // a failure would rightly start a refresh of its own.
        let arrived = Locked(0)
        server.route(
            "GET", "/me/*",
            handler: { request in
                arrived.withLock { $0 += 1 }
                if let index = Int(request.path.dropFirst(4)), index % 2 == 1 {
                    _ = gate.wait(timeout: Patience.hangDeadline)
                    gate.signal()
                }
                return .text("token expired", status: 401)
            })
        // The refresh is a request of its own that the identity server answers with a 500, once
        // the round's requests have all arrived (100, then 10 more).
        let refreshes = Locked(0)
        server.route(
            "POST", "/token",
            handler: { _ in
                let round = refreshes.withLock { count in
                    count += 1
                    return count
                }
                let expected = round == 1 ? 100 : 110
                let deadline = ContinuousClock.now + Patience.hang
                while arrived.withLock({ $0 }) < expected, ContinuousClock.now < deadline {
                    Thread.sleep(forTimeInterval: 0.005)
                }
                return .text("identity server down", status: 500)
            })
        let identity = FetchClient()
        let authenticator = TokenAuthenticator(token: "old-token-value") {
            _ = try await identity.fetch(
                TestEndpoint(baseURL: server.baseURL, path: "/token", method: .post), extracting: .data)
            return "unreachable"
        }
        let client = FetchClient {
            $0.authenticator = authenticator
            $0.maximumConnectionsPerHost = 100
            // Held requests wait for the refresh's failure, however slowly a loaded machine gets
            // there: a timeout would end them and the retry policy would send them again.
            $0.timeout = Patience.hang
        }
        func fetchAll(_ count: Int) async -> [FetchError?] {
            await withTaskGroup(of: FetchError?.self, returning: [FetchError?].self) { group in
                for index in 0..<count {
                    group.addTask {
                        do throws(FetchError) {
                            _ = try await client.fetch(
                                TestEndpoint(baseURL: server.baseURL, path: "/me/\(index)"), extracting: .data)
                            return nil
                        } catch {
                            return error
                        }
                    }
                }
                var errors: [FetchError?] = []
                for await error in group {
                    if errors.isEmpty { gate.signal() }  // the refresh has failed: release the rest
                    errors.append(error)
                }
                return errors
            }
        }
        let errors = await fetchAll(100)
        #expect(errors.count == 100)
        #expect(errors.allSatisfy { $0?.code == .authenticationFailed })
        // One failed refresh answers every request rejected with the token it was meant to
        // replace, whether the rejection came before the failure or after it.
        #expect(authenticator.refreshCount == 1)
        #expect(server.receivedRequests.filter { $0.path.hasPrefix("/me/") }.count == 100)
        let description = errors.first??.description ?? ""
        #expect(description.contains("500"))
        #expect(!description.contains("old-token-value"))

        // A request sent after the failure and rejected again starts the next refresh, one.
        let later = await fetchAll(10)
        #expect(later.allSatisfy { $0?.code == .authenticationFailed })
        #expect(authenticator.refreshCount == 2)
    }

    /// A server whose `/me/*` answers its first request with 401 at once and every later one
    /// with 401 once `gate` is open, and whose `/token` (the identity server) answers 500 at
    /// once; and an authenticator whose refresh asks `/token`.
    static func failingRefresh(gate: DispatchSemaphore) throws -> (StubServer, TokenAuthenticator) {
        let server = StubServer()
        try server.start()
        let answered = Locked(0)
        server.route(
            "GET", "/me/*",
            handler: { _ in
                if answered.withLock({ count -> Int in count += 1; return count }) > 1 {
                    _ = gate.wait(timeout: Patience.hangDeadline)
                    gate.signal()
                }
                return .text("token expired", status: 401)
            })
        server.route("POST", "/token", respond: .text("identity server down", status: 500))
        let identity = FetchClient {
            $0.retryPolicy = .none
            $0.timeout = Patience.beyondTheTest
        }
        let authenticator = TokenAuthenticator(token: "stale-token-1") {
            _ = try await identity.fetch(
                TestEndpoint(baseURL: server.baseURL, path: "/token", method: .post), extracting: .data)
            return "unreachable"
        }
        return (server, authenticator)
    }

    /// Issues `count` requests one after the other and returns their errors; opens `gate` once
    /// all are issued and the first has failed (so after the refresh it started has failed).
    static func issue(
        _ count: Int, on client: FetchClient, server: StubServer, opening gate: DispatchSemaphore?
    ) async -> [FetchError?] {
        let errors = Locked<[FetchError?]>([])
        let done = DispatchGroup()
        let conditions = Locked(0)  // all issued, first failure seen: the gate opens at 2
        let meet: @Sendable () -> Void = { if conditions.withLock({ count -> Int in count += 1; return count }) == 2 { gate?.signal() } }
        for index in 0..<count {
            done.enter()
            client.fetch(TestEndpoint(baseURL: server.baseURL, path: "/me/\(index)"), extracting: .data) { result in
                let first = errors.withLock { errors -> Bool in
                    errors.append(result.failure)
                    return errors.count == 1
                }
                if first { meet() }
                done.leave()
            }
        }
        meet()
        await withCheckedContinuation { continuation in
            done.notify(queue: .global()) { continuation.resume() }
        }
        return errors.current
    }

    @Test(arguments: [6, 100])
    func aRefreshThatFailsAtOnceIsTheOnlyRefreshOfEveryRequestIssuedBeforeIt(connections: Int) async throws {
        // All 100 requests are issued at once. The server rejects the first to arrive at once;
        // its refresh fails at once; every other rejection is held until the test has seen that
        // failure, so the rejections of the requests already sent and of those still waiting for
        // a connection all come after it. Each shares the one failure: no second refresh.
        let gate = DispatchSemaphore(value: 0)
        let (server, authenticator) = try Self.failingRefresh(gate: gate)
        defer { server.stop() }
        let client = FetchClient {
            $0.authenticator = authenticator
            $0.maximumConnectionsPerHost = connections
            $0.timeout = Patience.beyondTheTest  // held answers must not time out on a loaded machine
        }
        let errors = await Self.issue(100, on: client, server: server, opening: gate)
        #expect(errors.count == 100)
        #expect(errors.allSatisfy { $0?.code == .authenticationFailed })
        #expect(authenticator.refreshCount == 1)
        #expect(server.requests(to: "/token").count == 1)

        // A request issued after the failure starts a new refresh: exactly one.
        let later = await Self.issue(1, on: client, server: server, opening: nil)
        #expect(later.count == 1 && later.first??.code == .authenticationFailed)
        #expect(authenticator.refreshCount == 2)
        #expect(server.requests(to: "/token").count == 2)
    }

    @Test func aRequestIsSentAgainOnlyOnceSoARejectedNewTokenNeverLoops() async throws {
        let accepted = Locked("nothing-is-accepted")
        let server = try Self.server(accepting: accepted)
        defer { server.stop() }
        let refreshes = Locked(0)
        let authenticator = TokenAuthenticator(token: "first") {
            "token-\(refreshes.withLock { count -> Int in count += 1; return count })"
        }
        let client = FetchClient { $0.authenticator = authenticator }
        let error = await expectFetchError(.unacceptableStatus) {
            try await client.fetch(TestEndpoint(baseURL: server.baseURL, path: "/me/x"), extracting: .data)
        }
        #expect(error?.statusCode == 401)
        #expect(server.requests(to: "/me/x").count == 2)
        #expect(authenticator.refreshCount == 1)
    }

    @Test func withoutATokenTheFirstRequestGetsOneBeforeItIsSent() async throws {
        let accepted = Locked("issued")
        let server = try Self.server(accepting: accepted)
        defer { server.stop() }
        let authenticator = TokenAuthenticator { "issued" }
        let client = FetchClient { $0.authenticator = authenticator }
        let text = try await client.fetch(TestEndpoint(baseURL: server.baseURL, path: "/me/a"), extracting: .string)
        #expect(text == #"{"ok":true}"#)
        #expect(server.requests(to: "/me/a").count == 1)
        #expect(authenticator.refreshCount == 1)
    }

    @Test func aTokenInAHeaderOrQueryOfItsOwnIsPlacedAndRedacted() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route(
            "GET", "/echo",
            handler: { request in
                .text(
                    "you sent \(request.header("X-Session") ?? "") and \(request.queryValue("access_token") ?? "")",
                    status: 500)
            })
        let header = TokenAuthenticator(token: "hdr-secret-123", placement: .header(name: "X-Session", prefix: "")) {
            "unused"
        }
        let observer = RecordingObserver()
        let client = FetchClient {
            $0.authenticator = header
            $0.retryPolicy = .none
            $0.observers = [observer]
        }
        let error = await expectFetchError(.unacceptableStatus) {
            try await client.fetch(TestEndpoint(baseURL: server.baseURL, path: "/echo"), extracting: .data)
        }
        #expect(server.requests(to: "/echo").first?.header("X-Session") == "hdr-secret-123")
        #expect(error?.description.contains("hdr-secret-123") == false)
        #expect(observer.started.current.first?.headers["X-Session"] == "REDACTED")
        let command = try client.prepare(TestEndpoint(baseURL: server.baseURL, path: "/echo")).description
        #expect(command.contains("-H 'X-Session: REDACTED'"), "\(command)")

        let query = TokenAuthenticator(token: "qry-secret-456", placement: .query(name: "access_token")) { "unused" }
        let queryClient = FetchClient {
            $0.authenticator = query
            $0.retryPolicy = .none
        }
        let queryError = await expectFetchError(.unacceptableStatus) {
            try await queryClient.fetch(TestEndpoint(baseURL: server.baseURL, path: "/echo"), extracting: .data)
        }
        #expect(server.requests(to: "/echo").last?.queryValue("access_token") == "qry-secret-456")
        #expect(queryError?.description.contains("qry-secret-456") == false)
        #expect(queryError?.request?.contains("access_token=REDACTED") == true)

        var dumped = ""
        dump(query, to: &dumped)
        #expect(!dumped.contains("qry-secret-456"))
        #expect(!String(reflecting: query).contains("qry-secret-456"))
        #expect(!"\(header)".contains("hdr-secret-123"))
    }
}
