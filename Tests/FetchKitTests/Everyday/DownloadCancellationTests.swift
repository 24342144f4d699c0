import FetchKit
import FetchKitTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `FetchClient.download` cancelled or failing at every point of its exchange, against the
/// stub server: once the call has returned, its destination holds what it held before (nothing,
/// or the caller's own file, untouched), and no temporary file is left in its folder.
@Suite("Cancelling and failing downloads", .serialized)
struct DownloadCancellationTests {
    /// How many downloads each cancellation test cancels.
    static let repetitions = 200
    /// A body that takes the server ten seconds to send: no cancelled download can finish first.
    static let body = UploadCancellationTests.bytes(count: 32 << 20)

    let server = StubServer()
    let directory: TemporaryDirectory

    init() throws {
        try server.start()
        directory = try TemporaryDirectory(prefix: "DownloadCancellationTests")
        server.route(
            "GET", "/slow", respond: .data(Self.body).sentSlowly(chunkSize: 256 * 1024, interval: .milliseconds(80)))
        server.route("GET", "/small", respond: .data(Data("new contents".utf8)))
        server.route("GET", "/missing", respond: .text("no such file", status: 404))
        server.route(
            "GET", "/broken", respond: .data(Self.body.prefix(1 << 20)).droppingConnection(afterBodyBytes: 300_000))
    }

    func tearDown() {
        server.stop()
        directory.remove()
    }

    let client = FetchClient {
        $0.retryPolicy = .none
        $0.timeout = Patience.beyondTheTest  // Downloads end by cancellation or by the server.
    }

    /// The names in the folder, sorted.
    func folder() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
    }

    /// Downloads `path` to `destination` in a task cancelled after `wait` microseconds.
    func cancelledDownload(_ path: String, to destination: URL, after wait: Int) async -> Result<URL, FetchError> {
        let client = client
        let url = server.url(path)
        let task = Task { () async -> Result<URL, FetchError> in
            do throws(FetchError) {
                return .success(try await client.fetch(.url(url), extracting: .file(to: destination)))
            } catch {
                return .failure(error)
            }
        }
        if wait > 0 { try? await Task.sleep(for: .microseconds(wait)) }
        task.cancel()
        return await task.value
    }

    @Test(.timeLimit(.minutes(30)), arguments: [false, true])
    func aCancelledDownloadLeavesItsDestinationAsItWas(destinationExists: Bool) async throws {
        defer { tearDown() }
        let destination = directory.file("photo.jpg")
        let original = Data("the caller's own file".utf8)
        var random = SeededGenerator(seed: destinationExists ? 4 : 25)
        for index in 0..<Self.repetitions {
            if destinationExists { try original.write(to: destination) }
            let before = try folder()
            // From at once to 40 ms in, most within the first 3 ms: before the answer, as its head
            // and first 256 KiB arrive, and partway through its body.
            let longest = index < 20 ? 1 : index.isMultiple(of: 3) ? 40_000 : 3_000
            let wait = Int.random(in: 0..<longest, using: &random)
            let result = await cancelledDownload("/slow", to: destination, after: wait)
            guard case .failure(let error) = result else {
                Issue.record("download \(index), cancelled after \(wait) µs, succeeded")
                continue
            }
            #expect(error.code == .cancelled, "download \(index): \(error)")
            #expect(try folder() == before, "download \(index), cancelled after \(wait) µs, left files behind")
            if destinationExists {
                #expect(try Data(contentsOf: destination) == original, "download \(index) changed the caller's file")
            }
        }
    }

    @Test(arguments: ["/missing", "/broken"])
    func aFailedDownloadLeavesTheCallersFileAsItWas(path: String) async throws {
        defer { tearDown() }
        let destination = directory.file("photo.jpg")
        let original = Data("the caller's own file".utf8)
        try original.write(to: destination)
        let url = server.url(path)
        let error = await expectFetchError(path == "/missing" ? .unacceptableStatus : .connectionLost) {
            try await client.fetch(.url(url), extracting: .file(to: destination))
        }
        #expect(error != nil)
        #expect(try Data(contentsOf: destination) == original)
        #expect(try folder() == ["photo.jpg"])
    }

    @Test func aFailedDownloadLeavesNothingWhereNothingWas() async throws {
        defer { tearDown() }
        for path in ["/missing", "/broken"] {
            let url = server.url(path)
            _ = try? await client.fetch(.url(url), extracting: .file(to: directory.file("photo.jpg")))
            #expect(try folder().isEmpty, "the download of \(path) left files behind")
        }
    }

    @Test func aDownloadReplacesTheCallersFileOnlyOnceItSucceeds() async throws {
        defer { tearDown() }
        let destination = directory.file("photo.jpg")
        try Data("the caller's own file".utf8).write(to: destination)
        let file = try await client.fetch(.url(server.url("/small")), extracting: .file(to: destination))
        #expect(file == destination)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "new contents")
        #expect(try folder() == ["photo.jpg"])
    }
}
