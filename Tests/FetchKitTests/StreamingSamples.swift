import Decoding
import FetchKit
import FetchKitTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The samples of the "Streaming responses and server-sent events" article, as printed (the test
// below checks that every block of the article is in this file), run against the loopback server.

enum StreamingArticle {
    struct LogTail: Endpoint {
        var baseURL = URL(string: "https://logs.example.com")!
        var path = "/tail"
        var queryItems = [URLQueryItem(name: "service", value: "api")]
    }

    static func printLog(client: FetchClient) async throws {
        let stream = try await client.fetch(LogTail(), extracting: .stream)
        for try await line in stream.lines {
            print(line)
        }
    }

    struct Completion: Endpoint {
        struct Message: Encodable {
            var role = "user"
            var content: String
        }
        struct Request: Encodable {
            var model = "small"
            var stream = true
            var messages: [Message]
        }
        var prompt: String
        var baseURL = URL(string: "https://llm.example.com/v1")!
        var path = "/chat/completions"
        var method: HTTPMethod { .post }
        var body: RequestBody? { .json(Request(messages: [Message(content: prompt)])) }
    }

    struct Delta: Decodable {
        var content: String?
    }

    static func complete(_ prompt: String, client: FetchClient) async throws -> String {
        var answer = ""
        let stream = try await client.fetch(Completion(prompt: prompt), extracting: .stream)
        for try await event in stream.events where event.data != "[DONE]" {
            let delta = try PathDecoder().decode(Delta.self, from: Data(event.data.utf8), at: "choices.first.delta")
            answer += delta.content ?? ""
        }
        return answer
    }

    struct Prices: Endpoint {
        var baseURL = URL(string: "https://quotes.example.com")!
        var path = "/live"
    }

    static func followPrices(client: FetchClient) async throws {
        for try await event in EventSource(Prices(), client: client) where event.event == "price" {
            print(event.id ?? "-", event.data)
        }
    }
}

@Suite("The streaming article's samples")
struct StreamingArticleTests {
    @Test("Every Swift block of the article is in the samples file, as printed")
    func printedAsCompiled() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/FetchKit/FetchKit.docc/Articles/StreamingAndEvents.md"),
            encoding: .utf8)
        let samples = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        func normalized(_ text: some StringProtocol) -> String {
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                .map { $0.hasPrefix("func ") ? "static " + $0 : $0 }.joined(separator: "\n")
        }
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map {
            $0.components(separatedBy: "```").first ?? ""
        }
        #expect(blocks.count == 3)
        let compiled = normalized(samples)
        for block in blocks {
            #expect(compiled.contains(normalized(block)), "not compiled as printed:\n\(block)")
        }
    }

    @Test("The samples read a log tail, a model's tokens and a price feed")
    func samplesRun() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let sse = ["Content-Type": "text/event-stream"]
        server.route("GET", "/tail", respond: .stream { $0.write("started\nlistening on 8080\n") })
        server.route(
            "POST", "/chat/completions",
            respond: .stream(headers: sse) { writer in
                for word in ["Hel", "lo"] {
                    writer.write(#"data: {"choices":[{"delta":{"content":"\#(word)"}}]}"# + "\n\n")
                }
                writer.write("data: [DONE]\n\n")
            })
        server.route(
            "GET", "/live",
            respondInTurn: [
                .stream(headers: sse) { $0.write("retry: 1\nevent: price\nid: 1\ndata: 12.5\n\n: keep-alive\n\n") },
                .status(204),
            ])
        let client = FetchClient { $0.baseURL = server.baseURL }
        try await StreamingArticle.printLog(client: client)
        #expect(server.requests(to: "/tail").first?.queryItems.first { $0.name == "service" }?.value == "api")
        #expect(try await StreamingArticle.complete("Say hello", client: client) == "Hello")
        try await StreamingArticle.followPrices(client: client)
        #expect(server.requests(to: "/live").map { $0.header("Last-Event-ID") } == [nil, "1"])
    }
}
