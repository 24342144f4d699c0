import FetchKitTesting
import Foundation
import TestSupport
import Testing

@testable import FetchKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads through the real URLSession against the loopback stub server.
@Suite struct DownloadCoordinatorTests {
    let server = StubServer()
    let directory: TemporaryDirectory

    init() throws {
        try server.start()
        directory = try TemporaryDirectory(prefix: "DownloadCoordinatorTests")
    }

    /// Routes `GET path` to answer `text` only once the returned semaphore is signalled (once per request).
    func heldRoute(_ path: String, answering text: String) -> DispatchSemaphore {
        let release = DispatchSemaphore(value: 0)
        server.route("GET", path) { _ in
            _ = release.wait(timeout: Patience.hangDeadline)
            return .text(text)
        }
        return release
    }

    func leftoverStagingFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasSuffix(".download") }
    }

    @Test func twoCallersForOneKeyShareOneRequestAndOneFile() async throws {
        // The server holds its answer until both callers wait for the download.
        let release = heldRoute("/photos/recent", answering: "photos!")
        let downloads = DownloadCoordinator(client: FetchClient { $0.timeout = Patience.beyondTheTest })
        let request = URLRequest(url: server.url("/photos/recent"))
        let destination = directory.url
        let first = Task {
            try await downloads.download(request, key: "recent", to: destination.appendingPathComponent("a.json"))
        }
        let second = Task {
            try await downloads.download(request, key: "recent", to: destination.appendingPathComponent("b.json"))
        }
        #expect(await server.waitForRequestsInFlight(count: 1))
        try await waitUntil("both callers to wait") { downloads.waiterCount(forKey: "recent") == 2 }
        #expect(downloads.isDownloading("recent"))
        release.signal()
        let firstURL = try await first.value
        let secondURL = try await second.value
        #expect(firstURL == secondURL)
        #expect([directory.file("a.json"), directory.file("b.json")].contains(firstURL))
        #expect(try String(contentsOf: firstURL, encoding: .utf8) == "photos!")
        #expect(server.requests(to: "/photos/recent").count == 1)
        #expect(downloads.activeKeys.isEmpty)
        #expect(try leftoverStagingFiles().isEmpty)
    }

    @Test func completionsGivenNoQueueRunOneAtATimeOnTheCoordinatorsQueue() async throws {
        // Both transfers are held until both are in flight, then end together: the completions
        // would overlap if each ran on its own download task.
        let release = heldRoute("/held", answering: "held")
        let downloads = DownloadCoordinator(client: FetchClient { $0.timeout = Patience.beyondTheTest })
        let counter = InFlightCounter()
        let secondStarted = DispatchSemaphore(value: 0)
        let finished = Collector<String>()
        for name in ["one", "two"] {
            downloads.download(
                URLRequest(url: server.url("/held")), key: name, to: directory.file("\(name).txt")
            ) { _ in
                counter.enter()
                if counter.startedCount == 1 {
                    // The window in which an overlapping second completion would show up.
                    _ = secondStarted.wait(timeout: .now() + .milliseconds(300))
                } else {
                    secondStarted.signal()
                }
                counter.leave()
                finished.append(name)
            }
        }
        #expect(await server.waitForRequestsInFlight(count: 2))
        release.signal()
        release.signal()
        try await waitUntil("both completions") { finished.count == 2 }
        #expect(counter.maximum == 1)
    }

    @Test func theFinishedFileReplacesTheDestinationAndNoTemporaryFileRemains() async throws {
        server.route("GET", "/new", respond: .text("new contents"))
        let destination = directory.file("photo.json")
        try Data("old contents".utf8).write(to: destination)
        let url = try await DownloadCoordinator().download(
            URLRequest(url: server.url("/new")), key: "photo", to: destination)
        #expect(try String(contentsOf: url, encoding: .utf8) == "new contents")
        #expect(try leftoverStagingFiles().isEmpty)
    }

    @Test func aFailedDownloadLeavesTheOldFileAndNoTemporaryFile() async throws {
        server.route("GET", "/missing", respond: .status(404))
        server.route(
            "GET", "/dropped",
            respond: StubResponse.text(String(repeating: "x", count: 4_000)).droppingConnection(afterBodyBytes: 100))
        let destination = directory.file("keep.json")
        try Data("keep me".utf8).write(to: destination)
        let downloads = DownloadCoordinator()

        await #expect(throws: DownloadError.self) {
            _ = try await downloads.download(
                URLRequest(url: server.url("/missing?api_key=SECRET")), key: "missing", to: destination)
        }
        do {
            _ = try await downloads.download(
                URLRequest(url: server.url("/missing?api_key=SECRET")), key: "missing", to: destination)
            Issue.record("a 404 must fail")
        } catch DownloadError.Code.unacceptableStatus {
            // Expected.
        }
        do {
            _ = try await downloads.download(URLRequest(url: server.url("/dropped")), key: "dropped", to: destination)
            Issue.record("a dropped connection must fail")
        } catch let error as DownloadError {
            #expect(error.code == .transport)
            #expect(error.key == "dropped")
        }
        #expect(try String(contentsOf: destination, encoding: .utf8) == "keep me")
        #expect(try leftoverStagingFiles().isEmpty)
    }

    @Test func errorsNameTheStatusButNeverTheQuery() async throws {
        server.route("GET", "/missing", respond: .status(404))
        do {
            _ = try await DownloadCoordinator().download(
                URLRequest(url: server.url("/missing?api_key=SECRET123")), key: "k", to: directory.file("k"))
            Issue.record("a 404 must fail")
        } catch let error as DownloadError {
            #expect(error.statusCode == 404)
            #expect(error.description.contains("404"))
            #expect(error.description.contains("/missing"))
            #expect(!error.description.contains("SECRET123"))
        }
    }

    @Test func allFinishedRunsOnceWhenTheLastOfAMixedBatchEnds() async throws {
        server.route("GET", "/ok/*", respond: StubResponse.text("fine").delayed(by: .milliseconds(100)))
        server.route("GET", "/missing", respond: StubResponse.status(404).delayed(by: .milliseconds(50)))
        server.route(
            "GET", "/dropped",
            respond: StubResponse.text(String(repeating: "x", count: 4_000)).droppingConnection(afterBodyBytes: 10))
        let downloads = DownloadCoordinator()
        let finished = Arrival<DownloadBatchSummary>()
        let results = Arrival<Bool>()
        for (key, path) in [("one", "/ok/1"), ("two", "/ok/2"), ("missing", "/missing"), ("dropped", "/dropped")] {
            downloads.download(URLRequest(url: server.url(path)), key: key, to: directory.file(key)) { result in
                results.fulfill((try? result.get()) != nil)
            }
        }
        downloads.allFinished { finished.fulfill($0) }
        let summary = try await finished.value("the batch to finish")
        #expect(Set(summary.succeeded) == ["one", "two"])
        #expect(Set(summary.failed.keys) == ["missing", "dropped"])
        #expect(summary.count == 4)
        #expect(results.count == 4)  // Every caller heard first.
        #expect(results.all.filter { $0 }.count == 2)
        #expect(finished.count == 1)

        // Idle: a new handler hears about the last batch at once, and the first never again.
        let idle = Arrival<DownloadBatchSummary>()
        downloads.allFinished { idle.fulfill($0) }
        #expect(try await idle.value().count == 4)
        #expect(finished.count == 1)
        #expect(try leftoverStagingFiles().isEmpty)
    }

    @Test func cancellingTheOnlyCallerCancelsTheDownloadAndCleansUp() async throws {
        server.route("GET", "/slow", respond: StubResponse.text("late").delayed(by: Patience.beyondTheTest))
        let downloads = DownloadCoordinator(client: FetchClient { $0.timeout = Patience.beyondTheTest })
        let task = Task {
            try await downloads.download(URLRequest(url: server.url("/slow")), key: "slow", to: directory.file("slow"))
        }
        #expect(await server.waitForRequestsInFlight(count: 1))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        _ = try await withThrowingTaskGroup(of: DownloadBatchSummary.self) { group in
            group.addTask { await downloads.allFinished() }
            group.addTask {
                try await Task.sleep(for: Patience.hang)
                throw TimedOut(what: "the cancelled download to end")
            }
            defer { group.cancelAll() }
            return try await group.next()
        }
        #expect(!downloads.isDownloading("slow"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("slow").path))
        #expect(try leftoverStagingFiles().isEmpty)
    }

    @Test func cancellingAKeyFailsEveryWaiterWithCancelled() async throws {
        server.route("GET", "/slow", respond: StubResponse.text("late").delayed(by: Patience.beyondTheTest))
        let downloads = DownloadCoordinator(client: FetchClient { $0.timeout = Patience.beyondTheTest })
        let errors = Arrival<Bool>()
        for _ in 0..<3 {
            downloads.download(URLRequest(url: server.url("/slow")), key: "slow", to: directory.file("slow")) {
                result in
                if case .failure(DownloadError.Code.cancelled) = result {
                    errors.fulfill(true)
                } else {
                    errors.fulfill(false)
                }
            }
        }
        #expect(await server.waitForRequestsInFlight(count: 1))
        downloads.cancel(key: "slow")
        try await waitUntil("three cancelled waiters") { errors.count == 3 }
        #expect(errors.all == [true, true, true])
        #expect(server.requests(to: "/slow").count == 1)
    }
}
