import FetchKit
import FetchKitTesting
import Foundation
import TestSupport
import Testing

/// A prepared request's `description` is a `curl` command that reproduces it, secrets redacted.
@Suite struct CurlDescriptionTests {
    static let base = URL(string: "https://api.example.com/3")!

    @Test func aGetWithAnAPIKeyNamesTheURLWithTheKeyRedacted() throws {
        let client = FetchClient { $0.adapters = [APIKeyAdapter(.query(name: "api_key"), value: "k-123456")] }
        let prepared = try client.prepare(
            TestEndpoint(
                baseURL: Self.base, path: "/search/movie",
                queryItems: [URLQueryItem(name: "query", value: "Fast & Furious")]))
        #expect(
            prepared.description
                == "curl 'https://api.example.com/3/search/movie?query=Fast%20%26%20Furious&api_key=REDACTED'")
        #expect(
            prepared.urlRequest.url?.absoluteString.contains("k-123456") == true, "the request itself keeps the key")
        var dumped = ""
        dump(prepared, to: &dumped)
        #expect(!dumped.contains("k-123456"))
        #expect(!String(reflecting: prepared).contains("k-123456"))
    }

    @Test func aPostShowsItsMethodHeadersAndBodyWithSecretsRedactedAndQuotesEscaped() throws {
        struct Login: Encodable {
            var user = "O'Brien"
            var password = "hunter2-secret"
        }
        let authenticator = TokenAuthenticator(token: "tok-abcdef") { "unused" }
        let client = FetchClient {
            $0.authenticator = authenticator
            $0.baseURL = URL(string: "https://staging.example.com")
        }
        let endpoint = TestEndpoint(
            baseURL: Self.base, path: "/session", method: .post, headers: ["X-Trace": "t1"], body: .json(Login()))
        let command = try client.prepare(endpoint).description
        #expect(command.hasPrefix("curl -X POST 'https://staging.example.com/session'"))
        #expect(command.contains("-H 'Authorization: REDACTED'"))
        #expect(command.contains("-H 'Content-Type: application/json'"))
        #expect(command.contains("-H 'X-Trace: t1'"))
        #expect(
            command.contains(#"--data-binary '{"password":"REDACTED","user":"O'\''Brien"}'"#)
                || command.contains(#"--data-binary '{"user":"O'\''Brien","password":"REDACTED"}'"#), "\(command)")
        #expect(!command.contains("hunter2-secret"))
        #expect(!command.contains("tok-abcdef"))
    }

    @Test func aFormBodyHasItsSecretFieldsRedacted() throws {
        let client = FetchClient()
        let endpoint = TestEndpoint(
            baseURL: Self.base, path: "/token", method: .post,
            body: .form([
                URLQueryItem(name: "grant_type", value: "password"),
                URLQueryItem(name: "client_secret", value: "cs-999"),
            ]))
        let command = try client.prepare(endpoint).description
        #expect(command.hasSuffix("--data-binary 'grant_type=password&client_secret=REDACTED'"))
    }

    @Test func uploadsNameTheirFileAndMultipartFormsTheirParts() throws {
        let client = FetchClient()
        let file = URL(fileURLWithPath: "/tmp/does-not-matter-\(UUID().uuidString).bin")
        try Data("abc".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let upload = try client.prepare(
            TestEndpoint(baseURL: Self.base, path: "/files", method: .put, body: .file(file, contentType: "video/mp4")))
        #expect(upload.description.contains("--data-binary '@\(file.path)'"))
        #expect(upload.bodyFile == file)

        var form = MultipartFormData()
        form.append("Lisbon", name: "title")
        form.append("pw-777", name: "password")
        form.append(file: file, name: "photo", contentType: "image/jpeg")
        let multipart = try client.prepare(
            TestEndpoint(baseURL: Self.base, path: "/photos", method: .post, body: .multipart(form))
        ).description
        #expect(multipart.contains("-F 'title=Lisbon'"))
        #expect(multipart.contains("-F 'password=REDACTED'"))
        #expect(multipart.contains("-F 'photo=@\(file.path);filename=\(file.lastPathComponent);type=image/jpeg'"))
        #expect(!multipart.contains("Content-Type: multipart"), "curl writes its own boundary")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
    func theCommandReproducesTheRequestWhenRunByCurl() async throws {
        let server = StubServer()
        try server.start()
        defer { server.stop() }
        server.route("POST", "/notes", respond: .json("{}"))
        let client = FetchClient()
        let endpoint = TestEndpoint(
            baseURL: server.baseURL, path: "/notes", method: .post,
            queryItems: [URLQueryItem(name: "tag", value: "it's & more")], headers: ["X-Client": "it's"],
            body: .text("line one\nit's \"quoted\" $HOME `x`"))
        let command = try client.prepare(endpoint).description

        let run = try await ProgramRun.run(
            executable: URL(fileURLWithPath: "/bin/sh"), ["-c", command + " --silent --output /dev/null"])
        #expect(run.status == 0, "\(run)")
        let request = try #require(server.requests(to: "/notes").first)
        #expect(request.queryValue("tag") == "it's & more")
        #expect(request.header("X-Client") == "it's")
        #expect(request.bodyText == "line one\nit's \"quoted\" $HOME `x`")
        #expect(request.header("Content-Type") == "text/plain; charset=utf-8")
    }
}
