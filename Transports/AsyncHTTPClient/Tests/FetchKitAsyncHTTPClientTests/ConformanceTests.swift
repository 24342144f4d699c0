import AsyncHTTPClient
import FetchKit
import FetchKitAsyncHTTPClient
import FetchKitTesting
import Foundation
import Synchronization
import Testing

/// The AsyncHTTPClient transport against FetchKit's transport conformance suite, and its lifecycle.
@Suite struct AsyncHTTPClientTransportTests {
    /// Transports made for the checks, shut down after each check.
    final class Made: Sendable {
        let transports = Mutex<[AsyncHTTPClientTransport]>([])
        func make(_ connections: Int) -> AsyncHTTPClientTransport {
            let transport = AsyncHTTPClientTransport(maximumConnectionsPerHost: connections)
            transports.withLock { $0.append(transport) }
            return transport
        }
        func shutdown() async throws {
            for transport in transports.withLock({ $0 }) { try await transport.shutdown() }
        }
    }

    @Test(arguments: TransportConformance.Check.allCases)
    func conforms(_ check: TransportConformance.Check) async throws {
        let made = Made()
        do {
            try await TransportConformance { made.make($0) }.run(check)
        } catch {
            try await made.shutdown()
            throw error
        }
        try await made.shutdown()
    }

    @Test func shuttingDownFailsRequestsInFlightWithCancelled() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("GET", "/slow", respond: StubResponse.json("{}").delayed(by: .seconds(20)))
        let transport = AsyncHTTPClientTransport()
        let client = FetchClient { $0.transport = transport }
        let fetch = Task { () -> FetchError? in
            do throws(FetchError) {
                _ = try await client.fetch(.url(server.url("/slow")), extracting: .data)
                return nil
            } catch {
                return error
            }
        }
        #expect(await server.waitForRequests(count: 1, timeout: .seconds(20)))
        try await transport.shutdown()
        let error = await fetch.value
        #expect(error?.code == .cancelled, "\(String(describing: error))")
        try await transport.shutdown()  // a second time does nothing
    }

    @Test func aBorrowedClientIsLeftToItsOwner() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("GET", "/ok", respond: .json(#"{"ok":true}"#))
        let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        let transport = AsyncHTTPClientTransport(client: http, maximumConnectionsPerHost: 8)
        #expect(transport.connectionLimitPerHost == 8)
        let client = FetchClient { $0.transport = transport }
        #expect(try await client.fetch(.url(server.url("/ok")), extracting: .string) == #"{"ok":true}"#)
        try await transport.shutdown()  // does not shut the borrowed client down
        #expect(try await client.fetch(.url(server.url("/ok")), extracting: .string) == #"{"ok":true}"#)
        try await http.shutdown()
    }
}
