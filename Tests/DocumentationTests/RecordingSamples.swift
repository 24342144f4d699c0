import FetchKit
import FetchKitTesting
import Foundation
import TestSupport
import Testing

/// The samples of "Recording and replaying sessions" (FetchKitTesting's catalog) and of the doc
/// comments of `HTTPArchive`, `RecordingTransport`, `ReplayTransport` and `StubServer.replay(_:)`,
/// as printed. The recording samples reach the network, so they are compiled, never run; the
/// loopback replay runs.
enum RecordingSamples {
    // MARK: The article

    static func recordSearch(to file: URL) async throws {
        let recorder = RecordingTransport(wrapping: URLSessionTransport())
        let client = FetchClient { $0.transport = recorder }
        _ = try await client.fetch(
            .url(URL(string: "https://www.googleapis.com/books/v1/volumes?q=tolstoy")), extracting: .data)
        try recorder.archive.write(to: file)
    }

    static func replayedSearch() async throws -> Data {
        let archive = try HTTPArchive(contentsOf: URL(fileURLWithPath: "Fixtures/search.har"))
        let client = FetchClient { $0.transport = ReplayTransport(archive) }
        return try await client.fetch(
            .url(URL(string: "https://www.googleapis.com/books/v1/volumes?q=tolstoy")), extracting: .data)
    }

    static func replayServer(_ file: URL) throws -> StubServer {
        let server = StubServer()
        server.replay(try HTTPArchive(contentsOf: file))
        try server.start()
        return server
    }

    // MARK: The doc comments

    /// `HTTPArchive` and `RecordingTransport`.
    static func recorderComment() throws {
        let recorder = RecordingTransport(wrapping: URLSessionTransport())
        let client = FetchClient { $0.transport = recorder }
        // … run the session …
        try recorder.archive.write(to: URL(fileURLWithPath: "Fixtures/search.har"))
        _ = client
    }

    /// `ReplayTransport`.
    static func replayTransportComment() throws {
        let archive = try HTTPArchive(contentsOf: URL(fileURLWithPath: "Fixtures/search.har"))
        let client = FetchClient { $0.transport = ReplayTransport(archive) }
        _ = client
    }

    /// `StubServer.replay(_:redactor:)`.
    static func stubServerReplayComment() throws {
        let server = StubServer()
        server.replay(try HTTPArchive(contentsOf: URL(fileURLWithPath: "Fixtures/search.har")))
        try server.start()
        let client = FetchClient { $0.baseURL = server.baseURL }
        _ = client
    }
}

@Suite struct RecordingSampleTests {
    @Test func theLoopbackReplaySampleServesTheArchive() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("search.har")
        let archive = HTTPArchive(entries: [
            .init(
                url: "https://www.googleapis.com/books/v1/volumes?q=tolstoy",
                responseHeaders: ["Content-Type": "application/json"], responseBody: Data(#"{"totalItems":7}"#.utf8))
        ])
        try archive.write(to: file)
        let server = try RecordingSamples.replayServer(file)
        defer { server.stop() }
        let body = try await FetchClient().fetch(.url(server.url("/books/v1/volumes?q=tolstoy")), extracting: .string)
        #expect(body == #"{"totalItems":7}"#)
    }
}
