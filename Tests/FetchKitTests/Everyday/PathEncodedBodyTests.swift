import Decoding
import FetchKit
import FetchKitTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A path-keyed model fetched from an API and sent back in the API's nested shape
/// with `RequestBody.json(_:encoder:)` and a `PathEncoder`.
@Suite struct PathEncodedBodyTests {
    struct Volume: Codable, Equatable, Sendable {
        var id: String
        var title: String
        var authors: [String]
        var isbn: String?

        enum CodingKeys: String, CodingKey {
            case id
            case title = "volumeInfo.title"
            case authors = "volumeInfo.authors"
            case isbn = "volumeInfo.industryIdentifiers[type=ISBN_13].identifier"
        }
    }

    static let served = #"""
        {"id":"zyTCAlFPjgYC","volumeInfo":{"title":"The Google Story","authors":["David A. Vise","Mark Malseed"],\#
        "industryIdentifiers":[{"type":"ISBN_10","identifier":"055380457X"},\#
        {"type":"ISBN_13","identifier":"9780553804577"}]}}
        """#

    @Test func aModelDecodedWithPathKeysIsSentBackNested() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("GET", "/volumes/zyTCAlFPjgYC", respond: .json(Self.served))
        server.route("PUT", "/volumes/zyTCAlFPjgYC", respond: .json("{}"))
        let client = FetchClient()
        var volume = try await client.fetch(
            .url(server.url("/volumes/zyTCAlFPjgYC")), extracting: .decode(Volume.self))
        #expect(volume.isbn == "9780553804577")
        volume.title = "The Google Story (2018 edition)"

        let endpoint = TestEndpoint(
            baseURL: server.baseURL, path: "/volumes/zyTCAlFPjgYC", method: .put,
            body: .json(volume, encoder: PathEncoder { $0.outputFormatting = .sortedKeys }))
        _ = try await client.fetch(endpoint, extracting: .data)

        let request = try #require(server.requests(to: "/volumes/zyTCAlFPjgYC").last)
        #expect(request.header("Content-Type") == "application/json")
        #expect(
            request.bodyText
                == #"{"id":"zyTCAlFPjgYC","volumeInfo":{"authors":["David A. Vise","Mark Malseed"],"#
                + #""industryIdentifiers":[{"identifier":"9780553804577","type":"ISBN_13"}],"#
                + #""title":"The Google Story (2018 edition)"}}"#)
        let sent = try PathDecoder().decode(Volume.self, from: Data((request.bodyText ?? "").utf8))
        #expect(sent == volume)
    }

    @Test func aPathThatCannotBeWrittenBackFailsTheFetchWithInvalidRequest() async throws {
        struct Second: Encodable {
            var name: String
            enum CodingKeys: String, CodingKey { case name = "items[1].name" }
        }
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("POST", "/items", respond: .json("{}"))
        let endpoint = TestEndpoint(
            baseURL: server.baseURL, path: "/items", method: .post,
            body: .json(Second(name: "x"), encoder: PathEncoder()))
        await #expect {
            _ = try await FetchClient().fetch(endpoint, extracting: .data)
        } throws: { error in
            FetchError.Code.invalidRequest ~= error && "\(error)".contains("items[1]")
        }
        #expect(server.requests(to: "/items").isEmpty)
    }
}
