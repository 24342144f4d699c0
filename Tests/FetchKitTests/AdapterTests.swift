import FetchKit
import FetchKitTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Request adapters")
struct AdapterTests {
    let server = StubServer()

    init() throws {
        server.route("GET", "/x", respond: .text("ok"))
        try server.start()
    }

    @Test func addsAnAPIKeyAsAQueryItemKeepingOtherItems() async throws {
        defer { server.stop() }
        let client = FetchClient { $0.adapters = [APIKeyAdapter(.query(name: "api_key"), value: "k+y&=1")] }
        let endpoint = TestEndpoint(
            baseURL: server.baseURL, path: "/x", queryItems: [URLQueryItem(name: "query", value: "Fast & Furious")])
        _ = try await client.fetch(endpoint, extracting: .string)
        let request = try #require(server.receivedRequests.first)
        #expect(request.queryValue("api_key") == "k+y&=1")
        #expect(request.queryValue("query") == "Fast & Furious")
    }

    @Test func addsAnAPIKeyAsAHeader() async throws {
        defer { server.stop() }
        let client = FetchClient { $0.adapters = [APIKeyAdapter(.header(name: "X-Api-Key"), value: "abc")] }
        _ = try await client.fetch(.url(server.url("/x")), extracting: .string)
        #expect(server.receivedRequests.first?.header("x-api-key") == "abc")
    }

    @Test func anEmptyKeyFailsWithoutSendingAnything() async throws {
        defer { server.stop() }
        let client = FetchClient { $0.adapters = [APIKeyAdapter(.query(name: "api_key"), value: "")] }
        let error = await #expect(throws: FetchError.self) {
            try await client.fetch(.url(server.url("/x")), extracting: .string)
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.description.contains("api_key") == true)
        #expect(server.receivedRequests.isEmpty)
    }

    @Test func headerAdapterKeepsExistingFieldsUnlessOverriding() async throws {
        defer { server.stop() }
        let client = FetchClient {
            $0.adapters = [
                HeaderAdapter(["Accept": "application/json", "X-Keep": "adapter"]), HeaderAdapter.bearer(token: "t0k"),
            ]
        }
        let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/x", headers: ["X-Keep": "endpoint"])
        _ = try await client.fetch(endpoint, extracting: .string)
        let request = try #require(server.receivedRequests.first)
        #expect(request.header("Accept") == "application/json")
        #expect(request.header("X-Keep") == "endpoint")
        #expect(request.header("Authorization") == "Bearer t0k")
    }

    @Test func customAdaptersRunInOrder() async throws {
        defer { server.stop() }
        struct Append: RequestAdapter {
            var value: String
            func adapt(_ request: URLRequest) throws(FetchError) -> URLRequest {
                var request = request
                let existing = request.value(forHTTPHeaderField: "X-Order") ?? ""
                request.setValue(existing + value, forHTTPHeaderField: "X-Order")
                return request
            }
        }
        let client = FetchClient { $0.adapters = [Append(value: "a"), Append(value: "b")] }
        _ = try await client.fetch(.url(server.url("/x")), extracting: .string)
        #expect(server.receivedRequests.first?.header("X-Order") == "ab")
    }
}
