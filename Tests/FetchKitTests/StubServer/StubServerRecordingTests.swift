import Foundation
import Testing

@testable import FetchKitTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Stub server request recording")
struct StubServerRecordingTests {
    @Test func recordsMethodPathQueryHeadersAndBody() async throws {
        let server = StubServer()
        server.route("PUT", "/books/42", respond: .status(204))
        try server.start()
        defer { server.stop() }
        var request = URLRequest(url: server.url("/books/42?q=a%2Bb&flag&empty=&sp=x+y"))
        request.httpMethod = "PUT"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("yes", forHTTPHeaderField: "X-Custom")
        request.httpBody = Data(#"{"title":"War and Peace"}"#.utf8)
        #expect(try await HTTP.send(request).get().status == 204)

        let recorded = try #require(server.receivedRequests.first)
        #expect(recorded.method == "PUT")
        #expect(recorded.path == "/books/42")
        #expect(recorded.rawQuery == "q=a%2Bb&flag&empty=&sp=x+y")
        #expect(recorded.queryValue("q") == "a+b")
        #expect(recorded.queryValue("flag") == "")
        #expect(recorded.queryValue("empty") == "")
        #expect(recorded.queryValue("sp") == "x y")
        #expect(recorded.queryValue("absent") == nil)
        #expect(recorded.header("content-type") == "application/json")
        #expect(recorded.header("X-CUSTOM") == "yes")
        #expect(recorded.bodyText == #"{"title":"War and Peace"}"#)
        #expect(recorded.description == "PUT /books/42?q=a%2Bb&flag&empty=&sp=x+y")
    }

    @Test func recordsALargeBodyThatArrivesInManyReads() async throws {
        let server = StubServer()
        server.route("POST", "/upload") { request in .text("\(request.body.count)") }
        try server.start()
        defer { server.stop() }
        let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) })
        var request = URLRequest(url: server.url("/upload"))
        request.httpMethod = "POST"
        request.httpBody = body
        #expect(try await HTTP.send(request).get().text == "300000")
        #expect(server.receivedRequests.first?.body == body)
    }

    @Test func decodesPercentEncodedPathsAndKeepsTheRawForm() {
        let request = RecordedRequest(method: "GET", target: "/a%20b/%E6%9D%B1?x=1#frag")
        #expect(request.path == "/a b/東")
        #expect(request.rawPath == "/a%20b/%E6%9D%B1")
        #expect(request.rawQuery == "x=1")
        let absolute = RecordedRequest(method: "GET", target: "http://127.0.0.1:80/p?q=1")
        #expect(absolute.path == "/p")
        #expect(absolute.queryValue("q") == "1")
    }
}
