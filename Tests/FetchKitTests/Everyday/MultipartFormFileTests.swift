import FetchKit
import FetchKitTesting
import Foundation
import TestSupport
import Testing

/// The temporary file a multipart form with files is written to: it lives in the client's
/// ``FetchClient/Configuration-swift.struct/temporaryDirectory`` while its request runs, and is
/// gone once the request has ended, however it ended.
@Suite("Temporary form files")
struct MultipartFormFileTests {
    let server = StubServer()
    let files: TemporaryDirectory
    let forms: TemporaryDirectory
    let photo: URL

    init() throws {
        try server.start()
        files = try TemporaryDirectory(prefix: "MultipartFormFileTests-files")
        forms = try TemporaryDirectory(prefix: "MultipartFormFileTests-forms")
        photo = files.file("photo.jpg")
        try UploadCancellationTests.bytes(count: 300_000).write(to: photo)
    }

    func tearDown() {
        server.stop()
        files.remove()
        forms.remove()
    }

    var client: FetchClient {
        let forms = forms.url
        return FetchClient {
            $0.retryPolicy = .none
            $0.timeout = Patience.beyondTheTest
            $0.temporaryDirectory = forms
        }
    }

    func form(contentType: String = "image/jpeg", file: URL? = nil) -> MultipartFormData {
        var form = MultipartFormData()
        form.append("Sunset", name: "title")
        form.append(file: file ?? photo, name: "photo", contentType: contentType)
        return form
    }

    func endpoint(_ path: String, _ form: MultipartFormData, base: URL? = nil) -> TestEndpoint {
        TestEndpoint(baseURL: base ?? server.baseURL, path: path, method: .post, body: .multipart(form))
    }

    func formFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: forms.url.path)
    }

    @Test func theFormFileIsInTheConfiguredFolderWhileItsRequestRunsAndGoneAfter() async throws {
        defer { tearDown() }
        server.route("POST", "/photos", respond: .json(#"{"id":1}"#).delayed(by: Patience.beyondTheTest))
        let arrival = Arrival<Result<Data, FetchError>>()
        let task = client.fetch(endpoint("/photos", form()), extracting: .data) { arrival.fulfill($0) }
        #expect(await server.waitForRequestsInFlight(count: 1))
        let during = try formFiles()
        #expect(during.count == 1)
        #expect(during.allSatisfy { $0.hasPrefix("FetchKit-upload-") && $0.hasSuffix(".multipart") })
        task.cancel()
        _ = try await arrival.value()
        #expect(try formFiles().isEmpty)
    }

    @Test func theFormFileIsGoneAfterASuccess() async throws {
        defer { tearDown() }
        server.route("POST", "/photos", respond: .json(#"{"id":1}"#))
        _ = try await client.fetch(endpoint("/photos", form()), extracting: .data)
        #expect(try formFiles().isEmpty)
        #expect(server.requests(to: "/photos").count == 1)
    }

    @Test func theFormFileIsGoneAfterAFailure() async throws {
        defer { tearDown() }
        server.route("POST", "/photos", respond: .text("full", status: 507))
        await expectFetchError(.unacceptableStatus) {
            try await client.fetch(endpoint("/photos", form()), extracting: .data)
        }
        #expect(try formFiles().isEmpty)
        // Nothing listens on port 1: the connection is refused.
        await expectFetchError(.transportFailed) {
            try await client.fetch(
                endpoint("/photos", form(), base: URL(string: "http://127.0.0.1:1")), extracting: .data)
        }
        #expect(try formFiles().isEmpty)
    }

    @Test func noFormFileIsLeftWhenTheFormCannotBeWritten() async throws {
        defer { tearDown() }
        // The content type is refused only once the form's first part is in the file.
        await expectFetchError(.invalidRequest) {
            try await client.fetch(endpoint("/photos", form(contentType: "image/jpeg\r\nX-Evil: 1")), extracting: .data)
        }
        #expect(try formFiles().isEmpty)
        await expectFetchError(.fileUnavailable) {
            try await client.fetch(endpoint("/photos", form(file: files.file("missing.jpg"))), extracting: .data)
        }
        #expect(try formFiles().isEmpty)
        #expect(server.requests(to: "/photos").isEmpty)
    }

    @Test func aFolderThatCannotBeWrittenFailsTheFetchNamingIt() async throws {
        defer { tearDown() }
        let missing = forms.url.appendingPathComponent("no-such-folder")
        let client = FetchClient { $0.temporaryDirectory = missing }
        let error = await expectFetchError(.invalidRequest) {
            try await client.fetch(endpoint("/photos", form()), extracting: .data)
        }
        #expect(error?.description.contains(missing.path) == true)
        #expect(server.requests(to: "/photos").isEmpty)
    }
}
