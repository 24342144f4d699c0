import FetchKitTesting
import Foundation
import Locking
import TestSupport
import Testing

@testable import FetchKit

/// Many fan-outs at once against a server that fails in every way: each reports exactly once.
@Suite struct FanOutExactlyOnceTests {
    struct StubEndpoint: Endpoint {
        let baseURL: URL
        let path: String
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func everyFanOutReportsExactlyOnceWhateverTheServerDoes(seed: UInt64) async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("GET", "/ok/*") { request in
            let delay = Int(request.path.split(separator: "/").last ?? "") ?? 0
            return StubResponse.json(#"{"value":\#(delay)}"#).delayed(by: .milliseconds(delay))
        }
        server.route("GET", "/fail", respond: .json(#"{"error":true}"#, status: 500))
        server.route(
            "GET", "/drop",
            respond: StubResponse.text(String(repeating: "x", count: 2_000)).droppingConnection(afterBodyBytes: 10))
        server.route("GET", "/close", respond: .closeWithoutAnswer)
        server.route("GET", "/slow", respond: StubResponse.json("{}").delayed(by: Patience.beyondTheTest))
        let client = FetchClient { configuration in
            configuration.retryPolicy = .none
            configuration.timeout = .seconds(20)
        }

        var random = SeededGenerator(seed: seed)
        let fanOutCount = 12
        let itemsPerFanOut = 25
        let completions = (0..<fanOutCount).map { _ in Arrival<FanOutReport<String>>() }
        let progressCounts = (0..<fanOutCount).map { _ in Locked(0) }
        let callbacks = DispatchQueue(label: "FanOutExactlyOnceTests.callbacks")
        var handles: [RunHandle] = []
        var willCancel: [Bool] = []
        for index in 0..<fanOutCount {
            let cancels = index.isMultiple(of: 3)
            willCancel.append(cancels)
            let paths = (0..<itemsPerFanOut).map { _ -> String in
                switch Int.random(in: 0..<10, using: &random) {
                case 0: return "/fail"
                case 1: return "/drop"
                case 2: return "/close"
                case 3 where cancels: return "/slow"
                default: return "/ok/\(Int.random(in: 0..<15, using: &random))"
                }
            }
            let baseURL = server.baseURL
            let progress = progressCounts[index]
            let completion = completions[index]
            handles.append(
                FanOut(maximumConcurrency: 3, callbackQueue: callbacks).run(
                    paths, changed: { path, _ in path == "/ok/7" },
                    progress: { _ in progress.withLock { $0 += 1 } },
                    transform: { path in
                        try await client.fetch(StubEndpoint(baseURL: baseURL, path: path), extracting: .string)
                    },
                    completion: { completion.fulfill($0) }))
        }
        for (handle, cancels) in zip(handles, willCancel) where cancels { handle.cancel() }

        for (index, completion) in completions.enumerated() {
            let report = try await completion.value("fan-out \(index)")
            #expect(report.results.count == itemsPerFanOut)
            #expect(report.itemOutcomes.count == itemsPerFanOut)
            if !willCancel[index] {
                #expect(!report.wasCancelled)
                #expect(progressCounts[index].withLock { $0 } == itemsPerFanOut)
            }
        }
        // Every run has ended and queued its last callback; once the queue drains, every
        // callback there will be has come.
        for handle in handles { await handle.finished() }
        await callbacks.drained()
        #expect(completions.allSatisfy { $0.count == 1 })
    }
}
