import FetchKit
import FetchKitTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Values the platform cannot count, passed through the client: the request ends in its
/// correct result instead of trapping in the platform's code.
@Suite("Values beyond the platform's limits")
struct PlatformLimitTests {
    /// "Never time out", written the ways people write it. FoundationNetworking turns a request's
    /// timeout into milliseconds in an `Int` and traps when they do not fit.
    static let longTimeouts: [Duration] = [.seconds(Int64.max), .seconds(1e16)]

    @Test(arguments: longTimeouts)
    func aTimeoutLongerThanThePlatformCountsDoesNotTrap(_ timeout: Duration) async throws {
        let server = StubServer()
        server.route("GET", "/ok", respond: .text("ok"))
        server.route("PUT", "/up", respond: .text("stored"))
        try server.start()
        defer { server.stop() }
        let directory = try TemporaryDirectory(prefix: "PlatformLimitTests")
        defer { directory.remove() }
        let file = directory.file("upload.bin")
        try Data(repeating: 7, count: 70_000).write(to: file)
        let client = FetchClient { $0.timeout = timeout }

        #expect(try await client.fetch(.url(server.url("/ok")), extracting: .string) == "ok")
        let upload = TestEndpoint(baseURL: server.baseURL, path: "/up", method: .put, body: .file(file))
        #expect(try await client.fetch(upload, extracting: .string) == "stored")
        let downloaded = try await client.fetch(.url(server.url("/ok")), extracting: .file(to: directory.file("ok.txt")))
        #expect(try String(contentsOf: downloaded, encoding: .utf8) == "ok")
    }
}
