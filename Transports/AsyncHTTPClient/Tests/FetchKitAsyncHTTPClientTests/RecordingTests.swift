import FetchKit
import FetchKitAsyncHTTPClient
import FetchKitTesting
import Foundation
import Testing

/// A session recorded over AsyncHTTPClient and replayed over it: `RecordingTransport` wraps this
/// transport, and a `StubServer` serves the recording back to it over loopback.
@Suite struct RecordingOverAsyncHTTPClientTests {
    @Test func aSessionRecordedOverAsyncHTTPClientReplaysOverIt() async throws {
        let server = StubServer()
        server.route("GET", "/v1/books", query: ["q": "cats"], respond: .json(#"{"titles":["Cat's Cradle"]}"#))
        server.route(
            "GET", "/v1/events",
            respond: .stream(headers: ["Content-Type": "text/event-stream"]) { writer in
                for number in 1...5 { writer.write("data: \(number)\n\n") }
            })
        try server.start()

        let live = AsyncHTTPClientTransport()
        let recorder = RecordingTransport(wrapping: live)
        let recorded = try await Self.session(FetchClient { $0.transport = recorder }, base: server.baseURL)
        try await live.shutdown()
        server.stop()
        #expect(recorded == [#"{"titles":["Cat's Cradle"]}"#, "1", "2", "3", "4", "5"])
        let archive = recorder.archive
        #expect(archive.entries.count == 2)
        #expect(!String(decoding: archive.data, as: UTF8.self).contains("key-4f1c9e0b"))

        let replaying = StubServer()
        replaying.replay(archive)
        try replaying.start()
        defer { replaying.stop() }
        let transport = AsyncHTTPClientTransport()
        let replayed = try await Self.session(FetchClient { $0.transport = transport }, base: replaying.baseURL)
        try await transport.shutdown()
        #expect(replayed == recorded)
    }

    /// A list and a stream of events, read as text.
    static func session(_ client: FetchClient, base: URL) async throws -> [String] {
        var query = URLComponents(url: base.appendingPathComponent("v1/books"), resolvingAgainstBaseURL: false)
        query?.queryItems = [
            URLQueryItem(name: "q", value: "cats"), URLQueryItem(name: "api_key", value: "key-4f1c9e0b"),
        ]
        var texts = [try await client.fetch(.url(query?.url), extracting: .string)]
        let stream = try await client.fetch(.url(base.appendingPathComponent("v1/events")), extracting: .stream)
        for try await event in stream.events { texts.append(event.data) }
        return texts
    }
}
