import FetchKit
import FetchKitTesting
import Foundation
import TestSupport
import Testing

/// A task's progress as an `AsyncSequence` (`FetchTask.progress`): the reports of the `progress`
/// closure, for `async` code, ending with the finished report or with the request.
@Suite struct ProgressSequenceTests {
    let server = StubServer()
    let folder: TemporaryDirectory

    init() throws {
        try server.start()
        folder = try TemporaryDirectory(prefix: "ProgressSequenceTests")
    }

    @Test func aTasksProgressFollowsADownloadToItsFinishedReport() async throws {
        let body = Data(repeating: 42, count: 400_000)
        server.route("GET", "/video", respond: .data(body).sentSlowly(chunkSize: 40_000, interval: .milliseconds(30)))
        let client = FetchClient { $0.progressInterval = .milliseconds(20) }
        let download = client.fetch(
            TestEndpoint(baseURL: server.baseURL, path: "/video"), extracting: .file(to: folder.file("v.bin")),
            completion: nil)
        var reports: [TransferProgress] = []
        for await report in download.progress { reports.append(report) }
        let file = try await download.value

        #expect(try Data(contentsOf: file) == body)
        #expect(reports.filter(\.isFinished).count == 1)
        #expect(reports.last?.isFinished == true)
        #expect(reports.last?.bytesReceived == 400_000)
        let received = reports.map(\.bytesReceived)
        #expect(received == received.sorted(), "progress never goes back")
    }

    @Test func aSequenceMadeAfterTheEndGivesTheFinishedReportAndEnds() async throws {
        server.route("GET", "/small", respond: .text("small"))
        let client = FetchClient()
        // Callback code: the completion runs, then the task's sequence is read.
        let ended = Arrival<String>()
        let task = client.fetch(.url(server.url("/small")), extracting: .string) { result in
            ended.fulfill((try? result.get()) ?? "failed")
        }
        #expect(try await ended.value() == "small")
        var reports: [TransferProgress] = []
        for await report in task.progress { reports.append(report) }
        #expect(reports.count == 1)
        #expect(reports.first?.isFinished == true)
        #expect(reports.first?.bytesReceived == 5)
    }

    @Test func aCallerThatJoinedASharedRequestHasASequenceThatEndsWithIt() async throws {
        let release = DispatchSemaphore(value: 0)
        server.route("GET", "/shared") { _ in
            _ = release.wait(timeout: Patience.hangDeadline)
            return .text("shared")
        }
        let client = FetchClient { $0.timeout = Patience.beyondTheTest }
        let url = server.url("/shared")
        let first = client.fetch(.url(url), extracting: .string, sharing: "s", completion: nil)
        let joined = client.fetch(.url(url), extracting: .string, sharing: "s", completion: nil)
        #expect(await server.waitForRequestsInFlight(count: 1))
        let firstReports = Task {
            var reports: [TransferProgress] = []
            for await report in first.progress { reports.append(report) }
            return reports
        }
        let joinedReports = Task {
            var reports: [TransferProgress] = []
            for await report in joined.progress { reports.append(report) }
            return reports
        }
        release.signal()
        #expect(try await first.value == "shared")
        #expect(try await joined.value == "shared")
        #expect(await firstReports.value.last?.isFinished == true)
        #expect(await joinedReports.value.isEmpty)
    }
}
