import FetchKitTesting
import Foundation
import Locking
import TestSupport
import Testing

@testable import FetchKit

@Suite("Cancellation")
struct CancellationTests {
    let server = StubServer()
    let client = FetchClient {
        $0.retryPolicy = .none
        $0.timeout = Patience.beyondTheTest
    }

    init() throws {
        server.route("GET", "/hang", respond: .text("late").delayed(by: Patience.beyondTheTest))
        server.route("GET", "/ok", respond: .text("ok"))
        try server.start()
    }

    @Test func cancellingBeforeTheResponseCompletesOnceWithCancelled() async throws {
        defer { server.stop() }
        let calls = Locked(0)
        let result = await completion { done in
            let task = client.fetch(.url(server.url("/hang")), extracting: .data) { result in
                calls.withLock { $0 += 1 }
                done(result)
            }
            task.cancel()
            task.cancel()
        }
        guard case .failure(let error) = result else { throw Failure("expected a failure") }
        #expect(error.code == .cancelled)
        #expect(error.description.contains("was cancelled"))
        // A request leaves the running set, then queues its completion: once none runs and
        // the client's callback queue has drained, every completion there will be has come.
        try await waitUntil("the request to end") { client.runningCount == 0 }
        await client.callbackQueue.drained()
        #expect(calls.current == 1)
    }

    @Test func cancellingDuringTheRequestClosesTheConnection() async throws {
        defer { server.stop() }
        let result = await completion { done in
            let task = client.fetch(.url(server.url("/hang")), extracting: .data, completion: done)
            Task {
                _ = await server.waitForRequestsInFlight(count: 1)
                task.cancel()
            }
        }
        guard case .failure(let error) = result else { throw Failure("expected a failure") }
        #expect(error.code == .cancelled)
        // The URLSession task was cancelled: the server sees the client go away.
        try await waitUntil("server.requestsInFlight == 0") { server.requestsInFlight == 0 }
    }

    @Test func cancellingAFinishedTaskDoesNothing() async throws {
        defer { server.stop() }
        let box = Locked<FetchTask<String>?>(nil)
        let result = await completion { done in
            box.withLock { $0 = client.fetch(.url(server.url("/ok")), extracting: .string, completion: done) }
        }
        #expect(try result?.get() == "ok")
        let task = try #require(box.current)
        #expect(task.isFinished)
        task.cancel()
    }

    @Test func aGroupCancelsItsFetchesAndLaterFetchesStillWork() async throws {
        defer { server.stop() }
        let group = CancellationGroup()
        let results = Locked<[Result<Data, FetchError>]>([])
        for _ in 0..<5 {
            client.fetch(.url(server.url("/hang")), extracting: .data, group: group) { result in
                results.withLock { $0.append(result) }
            }
        }
        let outsider = Locked<Result<Data, FetchError>?>(nil)
        client.fetch(.url(server.url("/hang")), extracting: .data) { result in outsider.withLock { $0 = result } }
        #expect(await server.waitForRequestsInFlight(count: 6))
        #expect(group.count == 5)
        group.cancelAll()
        try await waitUntil("results.current.count == 5") { results.current.count == 5 }
        #expect(results.current.allSatisfy { (try? $0.get()) == nil })
        #expect(group.count == 0)
        #expect(outsider.current == nil)

        // The group, the client and the session keep working for the next search.
        let next = try await client.fetch(.url(server.url("/ok")), extracting: .string, group: group)
        #expect(next == "ok")
        client.cancelAll()
        try await waitUntil("outsider.current != nil") { outsider.current != nil }
    }

    @Test func cancelAllCancelsEveryRunningRequestOfTheClient() async throws {
        defer { server.stop() }
        let finished = Locked(0)
        for _ in 0..<20 {
            client.fetch(.url(server.url("/hang")), extracting: .data) { result in
                if case .failure(let error) = result, error.code == .cancelled { finished.withLock { $0 += 1 } }
            }
        }
        try await waitUntil("client.runningCount == 20") { client.runningCount == 20 }
        client.cancelAll()
        try await waitUntil("finished.current == 20") { finished.current == 20 }
        #expect(client.runningCount == 0)
        #expect(try await client.fetch(.url(server.url("/ok")), extracting: .string) == "ok")
    }

    @Test func swiftTaskCancellationReachesTheURLSessionTask() async throws {
        defer { server.stop() }
        let task = Task { try await client.fetch(.url(server.url("/hang")), extracting: .data) }
        #expect(await server.waitForRequestsInFlight(count: 1))
        task.cancel()
        let result = await task.result
        guard case .failure(let error as FetchError) = result else { throw Failure("expected a FetchError") }
        #expect(error.code == .cancelled)
        try await waitUntil("server.requestsInFlight == 0") { server.requestsInFlight == 0 }
    }

    @Test func anAlreadyCancelledSwiftTaskFailsAtOnce() async throws {
        defer { server.stop() }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.fetch(.url(server.url("/hang")), extracting: .data)
        }
        let result = await task.result
        guard case .failure(let error as FetchError) = result else { throw Failure("expected a FetchError") }
        #expect(error.code == .cancelled)
    }

    @Test func cancellingHundredsOfInFlightRequestsDoesNotCrash() async throws {
        defer { server.stop() }
        let wide = FetchClient {
            $0.retryPolicy = .none
            $0.maximumConnectionsPerHost = 64
            $0.timeout = Patience.beyondTheTest  // Held requests are cancelled, never timed out.
        }
        let count = 300
        let outcomes = Locked<[Int: FetchError.Code]>([:])
        let tasks = (0..<count).map { index in
            wide.fetch(.url(server.url("/hang?i=\(index)")), extracting: .data) { result in
                outcomes.withLock { outcomes in
                    outcomes[index] = (try? result.get()) == nil ? (result.failure?.code ?? .cancelled) : nil
                }
            }
        }
        #expect(await server.waitForRequestsInFlight(count: 64))
        for task in tasks { task.cancel() }
        try await waitUntil("outcomes.current.count == count") { outcomes.current.count == count }
        #expect(outcomes.current.values.allSatisfy { $0 == .cancelled })
        #expect(try await wide.fetch(.url(server.url("/ok")), extracting: .string) == "ok")
    }

    @Test func cancellingHundredsOfAsyncFetchesThroughTheirTasksDoesNotCrash() async throws {
        defer { server.stop() }
        let wide = FetchClient {
            $0.retryPolicy = .none
            $0.maximumConnectionsPerHost = 32
            $0.timeout = Patience.beyondTheTest  // Held requests are cancelled, never timed out.
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    do throws(FetchError) {
                        _ = try await wide.fetch(.url(server.url("/hang?i=\(index)")), extracting: .data)
                        Issue.record("a hanging request succeeded")
                    } catch {
                        #expect(error.code == .cancelled)
                    }
                }
            }
            #expect(await server.waitForRequestsInFlight(count: 32))
            group.cancelAll()
            try await group.waitForAll()
        }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
