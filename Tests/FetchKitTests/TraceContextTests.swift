import FetchKit
import FetchKitTesting
import Foundation
import Testing

/// The W3C `traceparent` hook (`TraceContextAdapter`, `TraceParent`) and the token-refresh event
/// observers receive.
@Suite struct TraceContextTests {
    enum Tracing {
        @TaskLocal static var span: TraceParent?
    }

    /// A trace id made in the test (a 32-digit literal reads as a key in source).
    static let traceID = String(repeating: "4bf92f35", count: 4)

    @Test func eachRequestCarriesTheCallersSpanToTheChosenHostsOnly() async throws {
        let server = StubServer()
        server.route("GET", "/books", respond: .json("[]"))
        try server.start()
        defer { server.stop() }
        let observer = RecordingObserver()
        let client = FetchClient {
            $0.adapters.append(TraceContextAdapter(hosts: ["127.0.0.1"]) { Tracing.span })
            $0.observers = [observer]
        }
        let span = try #require(TraceParent(traceID: Self.traceID.uppercased(), parentID: "00f067aa0ba902b7"))
        try await Tracing.$span.withValue(span) {
            _ = try await client.fetch(.url(server.url("/books")), extracting: .data)
            _ = try await client.fetch(.url(server.url("/books")), extracting: .data)
        }
        _ = try await client.fetch(.url(server.url("/books")), extracting: .data)

        let sent = server.requests(to: "/books").map { $0.header("traceparent") }
        #expect(sent.count == 3)
        #expect(sent[0] == "00-\(Self.traceID)-00f067aa0ba902b7-01")
        #expect(sent[1] == sent[0])
        #expect(sent[2] == nil, "outside the span, no header")
        #expect(span.description == sent[0])

        // Another host does not learn the trace.
        let elsewhere = FetchClient { $0.adapters.append(TraceContextAdapter(hosts: ["api.example.com"]) { span }) }
        _ = try await elsewhere.fetch(.url(server.url("/books")), extracting: .data)
        #expect(server.requests(to: "/books").last?.header("traceparent") == nil)
        let observed = observer.started.withLock {
            $0.first?.headers.first { $0.key.lowercased() == "traceparent" }?.value
        }
        #expect(observed == sent[0])
    }

    @Test func headersAreReadAsTheRecommendationSays() throws {
        let valid = TraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        #expect(valid?.description == "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        #expect(TraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")?.sampled == false)
        // A later version may add fields; version 00 may not.
        #expect(TraceParent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra") != nil)
        for invalid in [
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0A",
            "FF-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "",
        ] {
            #expect(TraceParent(invalid) == nil, "\(invalid)")
        }
        let random = TraceParent.random(sampled: false)
        #expect(TraceParent(random.description) == random)
        #expect(random.child().traceID == random.traceID)
    }

    @Test func aRefreshIsReportedOnceToTheClientWhoseRequestStartedIt() async throws {
        let server = StubServer()
        server.route("GET", "/me") { request in
            request.header("Authorization") == "Bearer new-token" ? .json("{}") : .status(401)
        }
        try server.start()
        defer { server.stop() }
        let authenticator = TokenAuthenticator(token: "old-token") { "new-token" }
        let observer = RecordingObserver()
        let client = FetchClient {
            $0.authenticator = authenticator
            $0.observers = [observer]
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask { _ = try await client.fetch(.url(server.url("/me")), extracting: .data) }
            }
            try await group.waitForAll()
        }
        #expect(authenticator.refreshCount == 1)
        #expect(observer.refreshes.withLock { $0.count } == 1)
        #expect(observer.refreshes.withLock { $0.first ?? nil } == nil)

        let failing = TokenAuthenticator { throw URLError(.notConnectedToInternet) }
        let failures = RecordingObserver()
        let second = FetchClient {
            $0.authenticator = failing
            $0.observers = [failures]
        }
        await #expect(throws: FetchError.self) {
            _ = try await second.fetch(.url(server.url("/me")), extracting: .data)
        }
        #expect(failures.refreshes.withLock { $0.first??.code } == .authenticationFailed)
    }
}
