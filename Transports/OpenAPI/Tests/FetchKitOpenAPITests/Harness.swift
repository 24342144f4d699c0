import FetchKit
import FetchKitOpenAPI
import Foundation
import NotesAPI
import NotesServer

/// A notes server on loopback and a generated client that reaches it through a `FetchClient`.
struct Harness {
    let server: NotesServer
    let fetch: FetchClient
    let api: Client

    var state: NotesState { server.state }

    /// Runs `body` against a new server, stopping it however `body` ends.
    static func run(
        streamed: Set<String> = [], configure: (inout FetchClient.Configuration) -> Void = { _ in },
        _ body: (Harness) async throws -> Void
    ) async throws {
        let server = try await NotesServer.start()
        let fetch = FetchClient(configure)
        let harness = Harness(
            server: server, fetch: fetch,
            api: Client(
                serverURL: server.serverURL,
                transport: FetchClientTransport(client: fetch, streamedOperations: streamed)))
        do {
            try await body(harness)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Waits until the server has counted `event` (at most 10 seconds, checked every 10 ms).
    func waitForCount(of event: String, toReach count: Int = 1) async throws -> Bool {
        for _ in 0..<1000 {
            if state.count(of: event) >= count { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}

/// A folder of its own under the system's temporary folder, removed by `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("FetchKitOpenAPITests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
