import FetchKit
import FetchKitTesting
import Foundation
import Locking
import TestSupport
import Testing

/// Upload and download progress: throttled reports, one final report, exactly once.
@Suite struct ProgressTests {
    /// A fetch followed through its handle: its progress reports as a stream that ends with the
    /// request, and the handle to await.
    static func followed<Value>(
        _ client: FetchClient, _ endpoint: some Endpoint, extracting extraction: Extraction<Value>
    ) -> (progress: AsyncStream<TransferProgress>, task: FetchTask<Value>) {
        let (stream, continuation) = AsyncStream.makeStream(of: TransferProgress.self)
        let task = client.fetch(endpoint, extracting: extraction, completion: { _ in continuation.finish() }) {
            report in continuation.yield(report)
        }
        return (stream, task)
    }

    @Test func aSlowDownloadReportsGrowingProgressAndEndsOnceWithTheTotal() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let body = Data(repeating: 42, count: 400_000)
        server.route("GET", "/video", respond: .data(body).sentSlowly(chunkSize: 40_000, interval: .milliseconds(30)))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let client = FetchClient { $0.progressInterval = .milliseconds(20) }
        let transfer = Self.followed(
            client, TestEndpoint(baseURL: server.baseURL, path: "/video"),
            extracting: .file(to: folder.appendingPathComponent("v.bin")))
        var reports: [TransferProgress] = []
        for await report in transfer.progress { reports.append(report) }
        let file = try await transfer.task.value

        #expect(try Data(contentsOf: file) == body)
        #expect(reports.count >= 3, "\(reports)")
        #expect(reports.filter(\.isFinished).count == 1)
        #expect(reports.last?.isFinished == true)
        #expect(reports.last?.bytesReceived == 400_000)
        #expect(reports.last?.fractionCompleted == 1)
        let received = reports.map(\.bytesReceived)
        #expect(received == received.sorted(), "progress never goes back")
        #expect(reports.dropLast().contains { $0.bytesReceived > 0 && $0.bytesReceived < 400_000 }, "\(reports)")
    }

    @Test func anUploadReportsBytesSentAndTheFinalReportComesBeforeTheCompletion() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.maximumRecordedBodySize = 1 << 16
        server.route("POST", "/upload", respond: .json(#"{"ok":true}"#))
        let file = try UploadTests.temporaryFile(size: 6 << 20)
        defer { try? FileManager.default.removeItem(at: file) }

        // The server holds the body after 1 MiB until a partial report has come, so the upload
        // is partway however fast the machine sends it.
        server.stallRequestBodies(afterBytes: 1 << 20)
        let client = FetchClient {
            $0.progressInterval = .milliseconds(5)
            $0.timeout = Patience.beyondTheTest  // the held body must not time out on a loaded machine
        }
        let reports = Locked<[TransferProgress]>([])
        let completedAfter = Locked<Int?>(nil)
        let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/upload", method: .post, body: .file(file))
        let result: Result<String, FetchError>? = await completion { done in
            client.fetch(endpoint, extracting: .string) { result in
                completedAfter.withLock { $0 = reports.current.count }
                done(result)
            } progress: { report in
                reports.withLock { $0.append(report) }
            }
            Task {
                // Resumed either way: a missing partial report fails the last expectation below.
                try? await waitUntil("a partial upload report") {
                    reports.current.contains { $0.bytesSent > 0 && $0.bytesSent < 6 << 20 }
                }
                server.resumeRequestBodies()
            }
        }
        #expect(try result?.get() == #"{"ok":true}"#)
        let all = reports.current
        #expect(completedAfter.current == all.count, "no report after the completion")
        #expect(all.filter(\.isFinished).count == 1)
        let last = try #require(all.last)
        #expect(last.isFinished)
        #expect(last.bytesSent == 6 << 20)
        #expect(last.totalBytesToSend == 6 << 20)
        #expect(all.allSatisfy { $0.totalBytesToSend == 6 << 20 })
        #expect(all.contains { $0.bytesSent > 0 && $0.bytesSent < 6 << 20 }, "\(all)")
        let sent = all.map(\.bytesSent)
        #expect(sent == sent.sorted())
    }

    @Test func aFailedRequestStillEndsItsProgressExactlyOnce() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("GET", "/missing", respond: .status(404))
        let client = FetchClient()
        let transfer = Self.followed(client, TestEndpoint(baseURL: server.baseURL, path: "/missing"), extracting: .data)
        var reports: [TransferProgress] = []
        for await report in transfer.progress { reports.append(report) }
        #expect(reports.filter(\.isFinished).count == 1)
        #expect(reports.last?.isFinished == true)
        await expectFetchError(.unacceptableStatus) { try await transfer.task.value }
    }

    @Test func cancellingATransferEndsItsProgressAndItsValueThrowsCancelled() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("GET", "/slow", respond: .json("{}").delayed(by: Patience.beyondTheTest))
        let client = FetchClient { $0.timeout = Patience.beyondTheTest }  // Cancelled, never timed out.
        let transfer = Self.followed(client, TestEndpoint(baseURL: server.baseURL, path: "/slow"), extracting: .data)
        // Cancelled in flight (or, on a starved machine, before it is sent: the same outcome).
        _ = await server.waitForRequests(count: 1)
        transfer.task.cancel()
        var reports: [TransferProgress] = []
        for await report in transfer.progress { reports.append(report) }
        #expect(reports.last?.isFinished == true)
        await expectFetchError(.cancelled) { try await transfer.task.value }
    }

    @Test func aTypedEndpointsHandleInfersItsValue() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("GET", "/movie", respond: .json(#"{"id":1,"title":"Heat","popularity":9.5}"#))
        let client = FetchClient()
        let task = client.fetch(TypedRequest<Movie>(TestEndpoint(baseURL: server.baseURL, path: "/movie")), completion: nil)
        let movie = try await task.value
        #expect(movie == Movie(id: 1, title: "Heat", popularity: 9.5))
    }
}

extension ProgressTests {
    @Test func aSlowDataFetchReportsGrowingProgress() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let body = Data(repeating: 42, count: 400_000)
        server.route("GET", "/blob", respond: .data(body).sentSlowly(chunkSize: 40_000, interval: .milliseconds(30)))
        let client = FetchClient { $0.progressInterval = .milliseconds(20) }
        let transfer = Self.followed(client, TestEndpoint(baseURL: server.baseURL, path: "/blob"), extracting: .data)
        var reports: [TransferProgress] = []
        for await report in transfer.progress { reports.append(report) }
        #expect(try await transfer.task.value == body)
        #expect(reports.dropLast().contains { $0.bytesReceived > 0 && $0.bytesReceived < 400_000 }, "\(reports)")
        #expect(reports.last?.bytesReceived == 400_000)
    }
}

extension ProgressTests {
    /// Cancelling from inside a progress handler ends the download; nothing waits for itself.
    @Test func cancellingFromInsideTheProgressHandlerEndsTheDownload() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route(
            "GET", "/huge",
            respond: .data(Data(count: 2_000_000)).sentSlowly(chunkSize: 50_000, interval: .milliseconds(20)))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cancel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = FetchClient { $0.progressInterval = .milliseconds(10) }
        let holder = Locked<FetchTask<URL>?>(nil)
        let task = client.fetch(
            TestEndpoint(baseURL: server.baseURL, path: "/huge"), extracting: .file(to: folder.appendingPathComponent("h.bin")),
            completion: nil
        ) { progress in
            if progress.bytesReceived > 100_000 { holder.current?.cancel() }
        }
        holder.withLock { $0 = task }
        let outcome = await task.result
        #expect(throws: FetchError.self) { try outcome.get() }
        #expect((try? outcome.get()) == nil)
    }
}
