import FetchKit
import FetchKitTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Request bodies from values, files and multipart forms, sent through the stub server.
@Suite struct UploadTests {
    struct Login: Encodable {
        struct Address: Encodable {
            var city: String
            var zip: String?
        }
        var user: String
        var password: String
        var remember: Bool
        var age: Int
        var tags: [String]
        var address: Address
        var nickname: String?
    }

    static func temporaryFile(size: Int, seed: UInt8 = 7) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString).bin")
        var bytes = [UInt8](repeating: 0, count: size)
        var value = seed
        for index in bytes.indices {
            value = value &* 31 &+ 17
            bytes[index] = value
        }
        try Data(bytes).write(to: url)
        return url
    }

    @Test func anEncodableValueIsSentAsAnURLEncodedForm() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("POST", "/login", respond: .json("{}"))
        let client = FetchClient()
        let login = Login(
            user: "ada lovelace", password: "p&ss=1+2", remember: true, age: 36, tags: ["a", "b c"],
            address: Login.Address(city: "Lon/don", zip: nil), nickname: nil)
        let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/login", method: .post, body: .form(login))
        _ = try await client.fetch(endpoint, extracting: .data)
        let request = try #require(server.requests(to: "/login").first)
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(
            request.bodyText
                == "address%5Bcity%5D=Lon%2Fdon&age=36&password=p%26ss%3D1%2B2&remember=true"
                + "&tags%5B%5D=a&tags%5B%5D=b%20c&user=ada%20lovelace")
    }

    @Test func aValueThatIsNotKeyedFailsTheFetchWithInvalidRequest() async throws {
        let client = FetchClient()
        let endpoint = TestEndpoint(
            baseURL: URL(string: "http://127.0.0.1:9")!, path: "/x", method: .post, body: .form(["a", "b"]))
        await expectFetchError(.invalidRequest) { try await client.fetch(endpoint, extracting: .data) }
    }

    @Test func aFileBodyIsStreamedWithItsLength() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.maximumRecordedBodySize = 1 << 20
        server.route("PUT", "/files/big.bin", respond: .json(#"{"stored":true}"#, status: 201))
        let file = try Self.temporaryFile(size: 12 << 20)
        defer { try? FileManager.default.removeItem(at: file) }

        // 12 MiB through a sanitizer on a loaded machine can take longer than the default minute.
        let client = FetchClient { $0.timeout = Patience.hang }
        let endpoint = TestEndpoint(
            baseURL: server.baseURL, path: "/files/big.bin", method: .put,
            body: .file(file, contentType: "application/x-test"))
        let text = try await client.fetch(endpoint, extracting: .string)
        #expect(text == #"{"stored":true}"#)

        let request = try #require(server.requests(to: "/files/big.bin").first)
        #expect(request.header("Content-Length") == String(12 << 20))
        #expect(request.header("Transfer-Encoding") == nil, "the body is sent as it is, not chunked")
        #expect(request.header("Content-Type") == "application/x-test")
        #expect(request.bodyLength == 12 << 20)
        #expect(request.body.count == 1 << 20, "the server keeps only the start of a large body")
        #expect(request.bodyFingerprint == (try RecordedRequest.fingerprint(ofFile: file)))
    }

    @Test func aRedirectedFileUploadEndsWithTheRedirectInsteadOfLosingItsBody() async throws {
        // FoundationNetworking would send the redirected request without its body, but with
        // its Content-Length: the server would wait for the body until the request timed out.
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.maximumRecordedBodySize = 4096
        server.route("PUT", "/old", respond: .status(307, headers: ["Location": "/new"]))
        server.route("PUT", "/new", respond: .json(#"{"stored":true}"#))
        let file = try Self.temporaryFile(size: 3 << 20)
        defer { try? FileManager.default.removeItem(at: file) }
        let client = FetchClient { $0.timeout = Patience.beyondTheTest }
        let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/old", method: .put, body: .file(file))
        let error = await expectFetchError(.unacceptableStatus) { try await client.fetch(endpoint, extracting: .data) }
        #expect(error?.statusCode == 307)
        let request = try #require(server.requests(to: "/old").first)
        #expect(request.bodyFingerprint == (try RecordedRequest.fingerprint(ofFile: file)))
        #expect(server.requests(to: "/new").isEmpty)
    }

    @Test func anUploadSentAgainOnAFreshConnectionSendsTheWholeFile() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.maximumRecordedBodySize = 4096
        // The first upload that arrives on a kept-alive connection (one that already carried an
        // upload) finds it closed without an answer, as an idle connection closed under the client
        // is: libcurl sends the body again on a new connection, from the start. Every other upload
        // is answered. Whether libcurl reuses a connection depends on timing, so uploads go one
        // after the other until one was sent on a reused connection.
        let fault = ReusedConnectionFault(.closeWithoutAnswer)
        server.route("PUT", "/up", handler: fault.handler(answering: .json(#"{"stored":true}"#)))
        let file = try Self.temporaryFile(size: 1 << 20)
        defer { try? FileManager.default.removeItem(at: file) }
        let client = FetchClient { $0.retryPolicy = .none }
        let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/up", method: .put, body: .file(file))
        var attempts = 0
        while fault.connection == nil, attempts < 20 {
            attempts += 1
            #expect(try await client.fetch(endpoint, extracting: .string) == #"{"stored":true}"#)
        }
        let closed = try #require(fault.connection, "no upload was sent on a reused connection")
        let requests = server.requests(to: "/up")
        // The upload sent on the closed connection was sent again, whole, on another one.
        let closedAt = try #require(requests.lastIndex { $0.connectionID == closed })
        #expect(closedAt == requests.count - 2)
        #expect(requests.last?.connectionID != closed)
        let fingerprint = try RecordedRequest.fingerprint(ofFile: file)
        for request in requests {
            #expect(request.bodyLength == 1 << 20)
            #expect(request.bodyFingerprint == fingerprint)
        }
    }

    @Test func aMissingFileFailsWithAnErrorNamingIt() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).mov")
        let client = FetchClient()
        let endpoint = TestEndpoint(
            baseURL: URL(string: "http://127.0.0.1:9")!, path: "/up", method: .post, body: .file(missing))
        let error = await expectFetchError(.fileUnavailable) {
            try await client.fetch(endpoint, extracting: .data)
        }
        #expect(error?.description.contains(missing.path) == true)
    }

    @Test func aFileThatDisappearsBeforeARetryFailsNamingItAndIsNotSentAgain() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        let file = try Self.temporaryFile(size: 64 * 1024)
        server.route(
            "PUT", "/up",
            handler: { _ in
                // The file goes away while the first attempt's answer is on its way.
                try? FileManager.default.removeItem(at: file)
                return .status(503)
            })
        let client = FetchClient {
            $0.retryPolicy = RetryPolicy(maximumRetries: 3, baseDelay: .milliseconds(1), maximumDelay: .milliseconds(1))
        }
        let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/up", method: .put, body: .file(file))
        let error = await expectFetchError(.fileUnavailable) {
            try await client.fetch(endpoint, extracting: .data)
        }
        #expect(error?.description.contains(file.path) == true)
        #expect(server.requests(to: "/up").count == 1)
    }

    @Test func aMultipartFormCarriesFieldsDataAndFilesInOrder() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("POST", "/photos", respond: .json(#"{"id":1}"#))
        let photo = try Self.temporaryFile(size: 300_000, seed: 3)
        defer { try? FileManager.default.removeItem(at: photo) }

        var form = MultipartFormData()
        form.append("Sunset over Lisbon", name: "title")
        form.append(file: photo, name: "photo", contentType: "image/jpeg")
        form.append(Data("thumb".utf8), name: "thumbnail", filename: "thumb.png", contentType: "image/png")
        // A folder of the test's own: the system's is shared with other programs' forms.
        let forms = try TemporaryDirectory(prefix: "UploadTests-forms")
        defer { forms.remove() }
        let client = FetchClient { $0.temporaryDirectory = forms.url }
        let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/photos", method: .post, body: .multipart(form))
        _ = try await client.fetch(endpoint, extracting: .data)

        let request = try #require(server.requests(to: "/photos").first)
        let contentType = try #require(request.header("Content-Type"))
        #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        let parts = try Self.parts(of: request.body, boundary: boundary)
        #expect(parts.count == 3)
        #expect(parts[0].headers == [#"Content-Disposition: form-data; name="title""#])
        #expect(String(decoding: parts[0].body, as: UTF8.self) == "Sunset over Lisbon")
        #expect(
            parts[1].headers == [
                #"Content-Disposition: form-data; name="photo"; filename="\#(photo.lastPathComponent)""#,
                "Content-Type: image/jpeg",
            ])
        #expect(parts[1].body == (try Data(contentsOf: photo)))
        #expect(parts[2].headers.last == "Content-Type: image/png")
        #expect(String(decoding: parts[2].body, as: UTF8.self) == "thumb")
        #expect(request.header("Content-Length") == String(request.bodyLength))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: forms.url.path)
        #expect(leftovers.isEmpty, "the temporary form file is removed when the request ends")
    }

    @Test func quotesAndLineBreaksInPartNamesCannotInjectHeaders() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("POST", "/form", respond: .json("{}"))
        var form = MultipartFormData()
        form.append("x", name: "evil\"\r\nX-Injected: yes")
        form.append(Data("y".utf8), name: "f", filename: "a\"b\nc.txt", contentType: "text/plain")
        let client = FetchClient()
        let endpoint = TestEndpoint(baseURL: server.baseURL, path: "/form", method: .post, body: .multipart(form))
        _ = try await client.fetch(endpoint, extracting: .data)
        let request = try #require(server.requests(to: "/form").first)
        let boundary = String(request.header("Content-Type")!.split(separator: "=").last!)
        let parts = try Self.parts(of: request.body, boundary: boundary)
        #expect(parts[0].headers == [#"Content-Disposition: form-data; name="evil%22%0D%0AX-Injected: yes""#])
        #expect(parts[1].headers.first == #"Content-Disposition: form-data; name="f"; filename="a%22b%0Ac.txt""#)
    }

    @Test func aContentTypeWithALineBreakIsRefusedNamingThePart() async throws {
        var form = MultipartFormData()
        form.append(Data("y".utf8), name: "avatar", filename: "a.png", contentType: "image/png\r\nX-Evil: 1")
        let client = FetchClient()
        let endpoint = TestEndpoint(
            baseURL: URL(string: "http://127.0.0.1:9")!, path: "/form", method: .post, body: .multipart(form))
        let error = await expectFetchError(.invalidRequest) {
            try await client.fetch(endpoint, extracting: .data)
        }
        #expect(error?.description.contains("avatar") == true)
    }

    @Test func aChosenBoundaryThatAPartContainsIsRefused() async throws {
        var form = MultipartFormData(boundary: "simple")
        form.append("text with --simple inside", name: "note")
        let client = FetchClient()
        let endpoint = TestEndpoint(
            baseURL: URL(string: "http://127.0.0.1:9")!, path: "/form", method: .post, body: .multipart(form))
        let error = await expectFetchError(.invalidRequest) {
            try await client.fetch(endpoint, extracting: .data)
        }
        #expect(error?.description.contains("boundary") == true)
    }

    @Test func aRandomBoundaryIsLongAndDiffersEachTime() {
        let first = MultipartFormData().boundary
        let second = MultipartFormData().boundary
        #expect(first != second)
        #expect(first.count >= 24)
    }

    // MARK: Helpers

    struct Part {
        var headers: [String]
        var body: Data
    }

    /// Splits a multipart body on its boundary (RFC 7578), failing on anything malformed.
    static func parts(of body: Data, boundary: String) throws -> [Part] {
        let delimiter = Data("--\(boundary)".utf8)
        var parts: [Part] = []
        var rest = body[...]
        guard rest.starts(with: delimiter) else { throw Malformed() }
        rest = rest.dropFirst(delimiter.count)
        while true {
            if rest.starts(with: Data("--".utf8)) { break }
            guard rest.starts(with: Data("\r\n".utf8)) else { throw Malformed() }
            rest = rest.dropFirst(2)
            guard let headEnd = rest.range(of: Data("\r\n\r\n".utf8)) else { throw Malformed() }
            let headers = String(decoding: rest[..<headEnd.lowerBound], as: UTF8.self)
                .components(separatedBy: "\r\n")
            rest = rest[headEnd.upperBound...]
            guard let next = rest.range(of: Data("\r\n".utf8) + delimiter) else { throw Malformed() }
            parts.append(Part(headers: headers, body: Data(rest[..<next.lowerBound])))
            rest = rest[next.upperBound...]
        }
        return parts
    }

    struct Malformed: Error {}
}
