import FetchKitTesting
import Foundation
import Locking
import TestSupport
import Testing

@testable import FetchKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads (`.file(to:)`) and requests shared by a key, through the real URLSession against
/// the loopback stub server.
@Suite struct SharedDownloadTests {
    let server = StubServer()
    let directory: TemporaryDirectory

    init() throws {
        try server.start()
        directory = try TemporaryDirectory(prefix: "SharedDownloadTests")
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
        let client = FetchClient { $0.timeout = Patience.beyondTheTest }
        let url = server.url("/photos/recent")
        let destination = directory.url
        let first = Task {
            try await client.fetch(
                .url(url), extracting: .file(to: destination.appendingPathComponent("a.json")), sharing: "recent")
        }
        let second = Task {
            try await client.fetch(
                .url(url), extracting: .file(to: destination.appendingPathComponent("b.json")), sharing: "recent")
        }
        #expect(await server.waitForRequestsInFlight(count: 1))
        try await waitUntil("both callers to wait") { client.shared.waiterCount(forKey: "recent") == 2 }
        release.signal()
        let firstURL = try await first.value
        let secondURL = try await second.value
        #expect(firstURL == secondURL)
        #expect([directory.file("a.json"), directory.file("b.json")].contains(firstURL))
        #expect(try String(contentsOf: firstURL, encoding: .utf8) == "photos!")
        #expect(server.requests(to: "/photos/recent").count == 1)
        #expect(client.shared.waiterCount(forKey: "recent") == 0)
        #expect(try leftoverStagingFiles().isEmpty)
        // The flight has ended: the same key starts a new request.
        release.signal()
        _ = try await client.fetch(.url(url), extracting: .file(to: directory.file("c.json")), sharing: "recent")
        #expect(server.requests(to: "/photos/recent").count == 2)
    }

    @Test func callersOfDifferentKindsShareOneRequestEachInTheirOwnWay() async throws {
        let release = heldRoute("/shared", answering: "shared text")
        let callbacks = DispatchQueue(label: "SharedDownloadTests.callbacks")
        let client = FetchClient {
            $0.timeout = Patience.beyondTheTest
            $0.callbackQueue = callbacks
        }
        let url = server.url("/shared")
        let fromCallback = Arrival<String>()
        let task = client.fetch(.url(url), extracting: .string, sharing: "text") { result in
            dispatchPrecondition(condition: .onQueue(callbacks))
            fromCallback.fulfill((try? result.get()) ?? "failed")
        }
        let awaited = Task { try await client.fetch(.url(url), extracting: .string, sharing: "text") }
        try await waitUntil("both callers to wait") { client.shared.waiterCount(forKey: "text") == 2 }
        release.signal()
        #expect(try await awaited.value == "shared text")
        #expect(try await fromCallback.value(within: Patience.hang, "the callback") == "shared text")
        #expect(try await task.value == "shared text")
        #expect(server.requests(to: "/shared").count == 1)
    }

    @Test func aCallerWhoseExtractionDiffersGetsATypedErrorNamingTheKey() async throws {
        let release = heldRoute("/typed", answering: "text")
        let client = FetchClient { $0.timeout = Patience.beyondTheTest }
        let url = server.url("/typed")
        let text = Task { try await client.fetch(.url(url), extracting: .string, sharing: "typed") }
        try await waitUntil("the first caller to wait") { client.shared.waiterCount(forKey: "typed") == 1 }
        let data = Task { try await client.fetch(.url(url), extracting: .data, sharing: "typed") }
        try await waitUntil("both callers to wait") { client.shared.waiterCount(forKey: "typed") == 2 }
        release.signal()
        #expect(try await text.value == "text")
        do {
            _ = try await data.value
            Issue.record("a caller extracting another type got a value")
        } catch let error as FetchError {
            #expect(error.code == .invalidRequest)
            #expect(error.description.contains("different keys"))
        }
    }

    @Test func theFinishedFileReplacesTheDestinationAndNoTemporaryFileRemains() async throws {
        server.route("GET", "/new", respond: .text("new contents"))
        let destination = directory.file("photo.json")
        try Data("old contents".utf8).write(to: destination)
        let url = try await FetchClient().fetch(.url(server.url("/new")), extracting: .file(to: destination))
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
        let client = FetchClient { $0.retryPolicy = .none }

        do {
            _ = try await client.fetch(.url(server.url("/missing")), extracting: .file(to: destination))
            Issue.record("a 404 must fail")
        } catch {
            #expect(error.code == .unacceptableStatus)
            #expect(error.statusCode == 404)
        }
        do {
            _ = try await client.fetch(.url(server.url("/dropped")), extracting: .file(to: destination))
            Issue.record("a dropped connection must fail")
        } catch {
            #expect(error.code == .connectionLost)
        }
        #expect(try String(contentsOf: destination, encoding: .utf8) == "keep me")
        #expect(try leftoverStagingFiles().isEmpty)
    }

    @Test func aDownloadGoesThroughTheFailureDetectorAndTheRedactor() async throws {
        // A 200 that is an error (Flickr's "stat": "fail"), carrying the key back in its message.
        server.route(
            "GET", "/rest",
            respond: .json(#"{"stat": "fail", "code": 100, "message": "Invalid API Key (SECRET123)"}"#))
        let destination = directory.file("recent.json")
        let client = FetchClient {
            $0.adapters = [APIKeyAdapter(.query(name: "api_key"), value: "SECRET123")]
            $0.apiFailureDetector = APIFailure.jsonField("stat", equals: "fail", code: "code", message: "message")
        }
        do {
            _ = try await client.fetch(.url(server.url("/rest")), extracting: .file(to: destination))
            Issue.record("a stat=fail download must fail")
        } catch {
            #expect(error.code == .apiFailure)
            #expect(error.reportedFailure?.code == "100")
            #expect(!error.description.contains("SECRET123"))
            #expect(error.description.contains("Invalid API Key"))
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(try leftoverStagingFiles().isEmpty)
    }

    @Test func aCachedDownloadIsWrittenFromTheCache() async throws {
        server.route(
            "GET", "/cached", respond: StubResponse.text("cached body").header("Cache-Control", "max-age=86400"))
        let cache = HTTPCache()
        let client = FetchClient { $0.cache = cache }
        let first = try await client.fetch(.url(server.url("/cached")), extracting: .file(to: directory.file("1.txt")))
        let second = try await client.fetch(.url(server.url("/cached")), extracting: .file(to: directory.file("2.txt")))
        #expect(try String(contentsOf: first, encoding: .utf8) == "cached body")
        #expect(try String(contentsOf: second, encoding: .utf8) == "cached body")
        #expect(server.requests(to: "/cached").count == 1)
        #expect(try leftoverStagingFiles().isEmpty)
    }

    @Test func cancellingTheOnlyCallerCancelsTheDownloadAndCleansUp() async throws {
        server.route("GET", "/slow", respond: StubResponse.text("late").delayed(by: Patience.beyondTheTest))
        let client = FetchClient { $0.timeout = Patience.beyondTheTest }
        let url = server.url("/slow")
        let destination = directory.file("slow")
        let task = Task { try await client.fetch(.url(url), extracting: .file(to: destination), sharing: "slow") }
        #expect(await server.waitForRequestsInFlight(count: 1))
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("a cancelled download returned a file")
        } catch let error as FetchError {
            #expect(error.code == .cancelled)
        }
        try await waitUntil("the download to end") { client.runningCount == 0 }
        #expect(client.shared.waiterCount(forKey: "slow") == 0)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(try leftoverStagingFiles().isEmpty)
    }

    @Test func oneCallerLeavingDoesNotCancelTheOthersAndTheLastOneCancelsTheRequest() async throws {
        let release = heldRoute("/slow", answering: "late")
        let client = FetchClient { $0.timeout = Patience.beyondTheTest }
        let results = Locked<[Int: Result<String, FetchError>]>([:])
        var tasks: [FetchTask<String>] = []
        for index in 0..<3 {
            tasks.append(
                client.fetch(.url(server.url("/slow")), extracting: .string, sharing: "slow") { result in
                    results.withLock { $0[index] = result }
                })
        }
        #expect(await server.waitForRequestsInFlight(count: 1))
        try await waitUntil("three callers to wait") { client.shared.waiterCount(forKey: "slow") == 3 }
        tasks[0].cancel()
        try await waitUntil("the first caller to end") { results.withLock { $0[0] != nil } }
        #expect(client.runningCount == 1)  // the request goes on for the other two
        tasks[1].cancel()
        tasks[2].cancel()
        try await waitUntil("every caller to end") { results.withLock { $0.count } == 3 }
        try await waitUntil("the request to be cancelled") { client.runningCount == 0 }
        for index in 0..<3 {
            let result = results.withLock { $0[index] }
            if case .failure(let error) = result {
                #expect(error.code == .cancelled)
            } else {
                Issue.record("caller \(index) ended with \(String(describing: result))")
            }
        }
        #expect(server.requests(to: "/slow").count == 1)
        release.signal()
    }

    @Test func cancelAllFailsEveryCallerOfASharedRequestWithCancelled() async throws {
        server.route("GET", "/slow", respond: StubResponse.text("late").delayed(by: Patience.beyondTheTest))
        let client = FetchClient { $0.timeout = Patience.beyondTheTest }
        let errors = Arrival<Bool>()
        for _ in 0..<3 {
            client.fetch(.url(server.url("/slow")), extracting: .file(to: directory.file("slow")), sharing: "slow") {
                result in
                if case .failure(let error) = result, error.code == .cancelled {
                    errors.fulfill(true)
                } else {
                    errors.fulfill(false)
                }
            }
        }
        #expect(await server.waitForRequestsInFlight(count: 1))
        try await waitUntil("three callers to wait") { client.shared.waiterCount(forKey: "slow") == 3 }
        client.cancelAll()
        try await waitUntil("three cancelled callers") { errors.count == 3 }
        #expect(errors.all == [true, true, true])
        #expect(server.requests(to: "/slow").count == 1)
        #expect(try leftoverStagingFiles().isEmpty)
    }
}
