import FetchKit
import FetchKitTesting
import Foundation
import TestSupport
import Testing

/// File uploads and multipart forms with files, cancelled hundreds of times at each point of
/// their exchange through the real URLSession: every call ends in `cancelled`, the process
/// survives (FoundationNetworking traps when a paused file upload is cancelled), and no
/// temporary form file is left behind.
@Suite("Cancelling streamed uploads", .serialized)
struct UploadCancellationTests {
    /// How many uploads each test cancels; even ones send a file, odd ones a multipart form with it.
    static let repetitions = 200

    let server = StubServer()
    /// The files to upload.
    let files: TemporaryDirectory
    /// The client's folder for temporary form files: it must be empty whenever no upload runs.
    let forms: TemporaryDirectory
    /// A file of 256 KiB.
    let file: URL
    /// A file of 8 MiB: more than the socket buffers take in, so its upload is still reading it
    /// when the server stalls.
    let largeFile: URL

    init() throws {
        try server.start()
        files = try TemporaryDirectory(prefix: "UploadCancellationTests-files")
        forms = try TemporaryDirectory(prefix: "UploadCancellationTests-forms")
        file = files.file("clip.bin")
        try Self.bytes(count: 256 << 10).write(to: file)
        largeFile = files.file("video.bin")
        try Self.bytes(count: 8 << 20).write(to: largeFile)
    }

    /// `count` bytes of a pattern that repeats every 4099 bytes (so no two 4 KiB blocks match).
    static func bytes(count: Int) -> Data {
        let pattern = Data((0..<4099).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 5) })
        var data = Data(capacity: count + pattern.count)
        while data.count < count { data.append(pattern) }
        return data.prefix(count)
    }

    func client(connections: Int = 6) -> FetchClient {
        let forms = forms.url
        return FetchClient {
            $0.retryPolicy = .none
            $0.timeout = Patience.beyondTheTest  // Uploads end by cancellation only.
            $0.maximumConnectionsPerHost = connections
            $0.temporaryDirectory = forms
        }
    }

    /// Upload number `index`: the file itself, or a multipart form with a field and the file.
    func upload(_ index: Int, to path: String, large: Bool = false) -> TestEndpoint {
        let file = large ? largeFile : file
        let body: RequestBody
        if index.isMultiple(of: 2) {
            body = .file(file, contentType: "video/mp4")
        } else {
            var form = MultipartFormData()
            form.append("take \(index)", name: "title")
            form.append(file: file, name: "video", contentType: "video/mp4")
            body = .multipart(form)
        }
        return TestEndpoint(baseURL: server.baseURL, path: path, method: .post, body: body)
    }

    func formFilesLeft() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: forms.url.path)
    }

    func expectCancelled(
        _ result: Result<Data, FetchError>?, _ index: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try #require(result, "upload \(index) never completed", sourceLocation: sourceLocation)
        switch result {
        case .success:
            Issue.record("upload \(index) succeeded; it was cancelled", sourceLocation: sourceLocation)
        case .failure(let error):
            #expect(error.code == .cancelled, "upload \(index): \(error)", sourceLocation: sourceLocation)
        }
        #expect(try formFilesLeft().isEmpty, "upload \(index) left its form file", sourceLocation: sourceLocation)
    }

    func tearDown() {
        server.stop()
        files.remove()
        forms.remove()
    }

    @Test(.timeLimit(.minutes(30)))
    func uploadsCancelledWhileWaitingForAConnectionEndCancelledUnsent() async throws {
        defer { tearDown() }
        server.route("GET", "/hold", respond: .text("late").delayed(by: Patience.beyondTheTest))
        server.route("POST", "/up", respond: .json("{}"))
        let client = client(connections: 1)
        // The held request takes the only connection, so every upload waits for it, built but unsent.
        let hold = client.fetch(.url(server.url("/hold")), extracting: .data) { _ in }
        defer { hold.cancel() }
        for index in 0..<Self.repetitions {
            let result = await completion { done in
                let task = client.fetch(upload(index, to: "/up"), extracting: .data, completion: done)
                task.cancel()
            }
            try expectCancelled(result, index)
        }
        #expect(server.requests(to: "/up").isEmpty)
    }

    @Test(.timeLimit(.minutes(30)))
    func uploadsCancelledRightAfterTheyStartEndCancelled() async throws {
        defer { tearDown() }
        // The answer never comes: the uploads end only by being cancelled.
        server.route("POST", "/up", respond: .json("{}").delayed(by: Patience.beyondTheTest))
        let client = client()
        var random = SeededGenerator(seed: 25)
        for index in 0..<Self.repetitions {
            // From at once to two milliseconds in: before, while and after the body starts.
            let wait = index < 20 ? 0 : Int.random(in: 0..<2_000, using: &random)
            let result = await completion { done in
                let task = client.fetch(upload(index, to: "/up"), extracting: .data, completion: done)
                if wait == 0 {
                    task.cancel()
                } else {
                    DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(wait)) { task.cancel() }
                }
            }
            try expectCancelled(result, index)
        }
    }

    @Test(.timeLimit(.minutes(30)))
    func uploadsCancelledMidBodyEndCancelled() async throws {
        defer { tearDown() }
        // Bodies are kept in memory, not fingerprinted as they stream past: a stalled body that
        // resumes after its client left is read quickly and dropped.
        server.maximumRecordedBodySize = 16 << 20
        server.route("POST", "/up", respond: .json("{}"))
        let client = client()
        for index in 0..<Self.repetitions {
            server.stallRequestBodies(afterBytes: 64 * 1024)
            let result = await completion { done in
                let task = client.fetch(upload(index, to: "/up", large: true), extracting: .data, completion: done)
                Task {
                    try await waitUntil("upload \(index)'s body to stall") { server.stalledRequestBodies == 1 }
                    task.cancel()
                }
            }
            try expectCancelled(result, index)
            server.resumeRequestBodies()
            try await waitUntil("upload \(index)'s connection to resume") { server.stalledRequestBodies == 0 }
        }
    }

    @Test(.timeLimit(.minutes(30)))
    func uploadsCancelledAfterTheirBodyWasSentEndCancelled() async throws {
        defer { tearDown() }
        // The server has the whole body and holds its answer until the client goes away.
        server.route("POST", "/up", respond: .json("{}").delayed(by: Patience.beyondTheTest))
        let client = client()
        for index in 0..<Self.repetitions {
            let result = await completion { done in
                let task = client.fetch(upload(index, to: "/up"), extracting: .data, completion: done)
                Task {
                    #expect(await server.waitForRequests(count: index + 1))
                    task.cancel()
                }
            }
            try expectCancelled(result, index)
        }
        #expect(server.requests(to: "/up").count == Self.repetitions)
    }
}
