import FetchKitTesting
import Foundation
import TestSupport
import Testing

@testable import FetchKit

/// Handles of every kind cancel through one protocol, `CancellableFetch`, and a request shared
/// by a key is cancelled for every caller by its key: in callback and in `async` code, against
/// the loopback stub server.
@Suite struct CancellationHandleTests {
    let server = StubServer()

    init() throws {
        try server.start()
    }

    /// Routes `GET path` to answer only once the returned semaphore is signalled.
    func heldRoute(_ path: String) -> DispatchSemaphore {
        let release = DispatchSemaphore(value: 0)
        server.route("GET", path) { _ in
            _ = release.wait(timeout: Patience.hangDeadline)
            return .text("late")
        }
        return release
    }

    @Test func handlesOfDifferentValueTypesAndRunsAreCancelledFromOneList() async throws {
        let release = heldRoute("/held")
        defer { for _ in 0..<4 { release.signal() } }
        let client = FetchClient { $0.timeout = Patience.beyondTheTest }
        let url = server.url("/held")
        let text = Arrival<FetchError.Code?>()
        let data = Arrival<FetchError.Code?>()
        let fanOut = Arrival<Bool>()
        var loads: [any CancellableFetch] = []
        loads.append(client.fetch(.url(url), extracting: .string) { text.fulfill($0.failure?.code) })
        loads.append(client.fetch(.url(url), extracting: .data) { data.fulfill($0.failure?.code) })
        loads.append(
            FanOut(maximumConcurrency: 1).run([1], changed: { _, _ in true }) { _ in
                try await client.fetch(.url(url), extracting: .data)
            } completion: { report in
                // The item's fetch was running: it ends cancelled (one not started yet would
                // hold a CancellationError).
                let error = report.results.first?.failure
                fanOut.fulfill(error is CancellationError || (error as? FetchError)?.code == .cancelled)
            })
        // The awaited handle of `async` code goes in the same list.
        let awaited = client.fetch(.url(url), extracting: .string, completion: nil)
        loads.append(awaited)
        #expect(await server.waitForRequestsInFlight(count: 4))
        for load in loads { load.cancel() }
        #expect(try await text.value() == .cancelled)
        #expect(try await data.value() == .cancelled)
        #expect(try await fanOut.value() == true)
        #expect(await awaited.result.failure?.code == .cancelled)
    }

    @Test func aSharedRequestIsCancelledForEveryCallerByItsKey() async throws {
        let release = heldRoute("/shared")
        defer { for _ in 0..<2 { release.signal() } }
        let client = FetchClient { $0.timeout = Patience.beyondTheTest }
        let url = server.url("/shared")
        let fromCallback = Arrival<FetchError.Code?>()
        client.fetch(.url(url), extracting: .string, sharing: "cover") { fromCallback.fulfill($0.failure?.code) }
        let fromAsync = Task { try await client.fetch(.url(url), extracting: .string, sharing: "cover") }
        try await waitUntil("both callers to wait") { client.shared.waiterCount(forKey: "cover") == 2 }
        #expect(await server.waitForRequestsInFlight(count: 1))
        client.cancelAll(sharing: "other")  // another key: nothing happens
        #expect(client.shared.waiterCount(forKey: "cover") == 2)
        client.cancelAll(sharing: "cover")
        #expect(try await fromCallback.value() == .cancelled)
        #expect((await fromAsync.result.failure as? FetchError)?.code == .cancelled)
        #expect(client.shared.waiterCount(forKey: "cover") == 0)
        try await waitUntil("the request to stop") { client.runningCount == 0 }
        // The key starts a new request afterwards.
        server.route("GET", "/fresh") { _ in .text("fresh") }
        #expect(try await client.fetch(.url(server.url("/fresh")), extracting: .string, sharing: "cover") == "fresh")
    }
}
