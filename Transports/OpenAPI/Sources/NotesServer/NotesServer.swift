package import Foundation
import Hummingbird
import Logging
import NIOCore
import NotesAPI
import OpenAPIHummingbird

/// The notes API served by Hummingbird through swift-openapi-hummingbird, on a loopback port of
/// its own, for the tests and the benchmark.
package final class NotesServer: Sendable {
    /// The server URL to give a generated client: `http://127.0.0.1:<port>/v1`.
    package let serverURL: URL
    /// What the server holds and counts; tests script faults and read counts through it.
    package let state: NotesState
    private let running: Task<Void, any Error>

    private init(serverURL: URL, state: NotesState, running: Task<Void, any Error>) {
        self.serverURL = serverURL
        self.state = state
        self.running = running
    }

    /// Starts a server on a free loopback port.
    ///
    /// - Parameter token: the bearer token `createNote` accepts at first.
    /// - Returns: the running server.
    package static func start(token: String = "first-token") async throws -> NotesServer {
        let state = NotesState(token: token)
        let router = Router()
        try NotesService(state: state).registerHandlers(
            on: router, serverURL: URL(string: "/v1")!,
            middlewares: [FaultMiddleware(state: state), BearerMiddleware(state: state)])
        var logger = Logger(label: "NotesServer")
        logger.logLevel = .critical
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            }, logger: logger)
        let running = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0, let url = URL(string: "http://127.0.0.1:\(port)/v1") else {
            running.cancel()
            throw CancellationError()
        }
        return NotesServer(serverURL: url, state: state, running: running)
    }

    /// Stops the server and waits until it has.
    package func stop() async {
        running.cancel()
        _ = try? await running.value
    }
}
