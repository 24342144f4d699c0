import FetchKit
import FetchKitTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Uploads of files that change while they are sent, through the real URLSession and the
/// stub server: each ends promptly in `fileUnavailable` naming the file, never in success with
/// other bytes than the file's, and never only when the timeout runs out.
@Suite("Upload files that change")
struct UploadFileChangeTests {
    /// What happens to the file while it is sent.
    enum Change: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case truncated, appendedTo, unlinked, replaced, rewrittenInPlace

        var testDescription: String { rawValue }

        func apply(to file: URL, in directory: TemporaryDirectory) throws {
            switch self {
            case .truncated:
                try FileHandle(forWritingTo: file).truncate(atOffset: 4 << 20)
            case .appendedTo:
                let handle = try FileHandle(forWritingTo: file)
                try handle.seekToEnd()
                try handle.write(contentsOf: Data(repeating: 0x41, count: 1 << 20))
                try handle.close()
            case .unlinked:
                try FileManager.default.removeItem(at: file)
            case .replaced:
                // Another file of the same size takes the name, as an editor's save does.
                let other = directory.file("other.bin")
                try Data(repeating: 0x42, count: UploadFileChangeTests.size).write(to: other)
                guard rename(other.path, file.path) == 0 else { throw Failed("rename failed: errno \(errno)") }
            case .rewrittenInPlace:
                // Same size, same file, other bytes: only the modification time tells.
                let handle = try FileHandle(forWritingTo: file)
                try handle.seek(toOffset: UInt64(UploadFileChangeTests.size - 4096))
                try handle.write(contentsOf: Data(repeating: 0x43, count: 4096))
                try handle.close()
            }
        }
    }

    struct Failed: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// 16 MiB: more than the socket buffers take in, so the upload is still reading the file
    /// when the server stalls.
    static let size = 16 << 20

    let server = StubServer()
    let directory: TemporaryDirectory
    let file: URL

    init() throws {
        server.maximumRecordedBodySize = 4096
        try server.start()
        directory = try TemporaryDirectory(prefix: "UploadFileChangeTests")
        file = directory.file("upload.bin")
        try UploadCancellationTests.bytes(count: Self.size).write(to: file)
        // The modification time must differ from the original even on a coarse clock.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: file.path)
    }

    func tearDown() {
        server.stop()
        directory.remove()
    }

    /// A client that waits for an answer far longer than any test: only a prompt failure ends these uploads.
    func client(transport: (any HTTPTransport)? = nil, connections: Int = 6) -> FetchClient {
        FetchClient {
            $0.retryPolicy = .none
            $0.timeout = Patience.beyondTheTest
            $0.maximumConnectionsPerHost = connections
            $0.transport = transport
        }
    }

    func upload() -> TestEndpoint {
        TestEndpoint(baseURL: server.baseURL, path: "/up", method: .put, body: .file(file))
    }

    func expectFileUnavailable(
        _ result: Result<Data, FetchError>?, _ change: Change, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try #require(result, "the upload never ended", sourceLocation: sourceLocation)
        switch result {
        case .success:
            Issue.record("the upload of a file \(change) succeeded", sourceLocation: sourceLocation)
        case .failure(let error):
            #expect(error.code == .fileUnavailable, "\(error)", sourceLocation: sourceLocation)
            #expect(error.description.contains(file.path), "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test(.timeLimit(.minutes(30)), arguments: Change.allCases)
    func aFileThatChangesWhileItIsSentEndsPromptlyInFileUnavailable(_ change: Change) async throws {
        defer { tearDown() }
        server.route("PUT", "/up", respond: .json("{}"))
        server.stallRequestBodies(afterBytes: 64 * 1024)
        let original = try Data(contentsOf: file)
        let client = client()
        let arrival = Arrival<Result<Data, FetchError>>()
        client.fetch(upload(), extracting: .data) { arrival.fulfill($0) }
        try await waitUntil("the body to stall") { server.stalledRequestBodies == 1 }
        try change.apply(to: file, in: directory)
        server.resumeRequestBodies()
        try expectFileUnavailable(try await arrival.value(), change)
        // The server never answered a request whose body was not the file's.
        for request in server.requests(to: "/up") {
            #expect(request.bodyLength == Self.size)
            #expect(request.bodyFingerprint == RecordedRequest.fingerprint(of: original))
        }
    }
}

extension UploadFileChangeTests {
    /// Which transport sends the upload.
    enum Sender: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// `URLSessionTransport`, which streams the file.
        case urlSession
        /// A transport that implements only `send`, so `HTTPTransport`'s default `upload` reads the file.
        case defaultUpload

        var testDescription: String { rawValue }

        var transport: (any HTTPTransport)? {
            switch self {
            case .urlSession: nil
            case .defaultUpload: SendOnlyTransport()
            }
        }
    }

    @Test(.timeLimit(.minutes(30)), arguments: Change.allCases, Sender.allCases)
    func aFileThatChangesWhileItsRequestWaitsForAConnectionIsNeverSent(
        _ change: Change, _ sender: Sender
    )
        async throws
    {
        defer { tearDown() }
        server.route("GET", "/hold", respond: .text("late").delayed(by: Patience.beyondTheTest))
        server.route("PUT", "/up", respond: .json("{}"))
        let client = client(transport: sender.transport, connections: 1)
        // The held request takes the only connection: the upload is built and waits for it.
        let hold = client.fetch(.url(server.url("/hold")), extracting: .data) { _ in }
        #expect(await server.waitForRequestsInFlight(count: 1))
        let arrival = Arrival<Result<Data, FetchError>>()
        client.fetch(upload(), extracting: .data) { arrival.fulfill($0) }
        try change.apply(to: file, in: directory)
        hold.cancel()
        try expectFileUnavailable(try await arrival.value(), change)
        #expect(server.requests(to: "/up").isEmpty)
    }

    @Test func theDefaultUploadSendsNothingWhenTheFileIsNotTheLengthItsRequestAnnounces() async throws {
        defer { tearDown() }
        server.route("PUT", "/up", respond: .json("{}"))
        for announced in [Self.size - 1, Self.size + 1] {
            var request = URLRequest(url: server.url("/up"))
            request.httpMethod = "PUT"
            request.setValue(String(announced), forHTTPHeaderField: "Content-Length")
            let arrival = Arrival<Result<TransportResponse, any Error>>()
            _ = SendOnlyTransport().upload(request, fromFile: file) { arrival.fulfill($0) }
            guard case .failure(let error as FetchError) = try await arrival.value() else {
                Issue.record("the upload announcing \(announced) bytes of \(Self.size) did not fail with a FetchError")
                continue
            }
            #expect(error.code == .fileUnavailable, "\(error)")
            #expect(error.description.contains(file.path), "\(error)")
        }
        #expect(server.requests(to: "/up").isEmpty)
    }
}

/// A transport that implements only `send` (through a `URLSessionTransport`), so the
/// protocol's default `upload` and `download` run.
struct SendOnlyTransport: HTTPTransport {
    let base = URLSessionTransport()

    func send(
        _ request: URLRequest, completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        base.send(request, completion: completion)
    }
}
