import FetchKit
import Foundation
import OpenAPIRuntime

/// A request's `HTTPBody` as a FetchKit `RequestBody`: in memory up to
/// ``FetchClientTransport/bufferedRequestBodyLimit`` bytes, beyond that copied chunk by chunk to a
/// temporary file that the request streams from (and that a retry reads again).
struct SpooledBody {
    /// The body to send.
    let body: RequestBody
    /// The temporary file the body was copied to, removed by ``remove()``.
    let file: URL?

    /// Reads `body` (nothing for `nil`), keeping it in memory or spooling it to a file.
    ///
    /// - Throws: ``RequestBodySpoolingError`` when the file cannot be written; the body's own
    ///   error when reading it fails; `CancellationError` when the call is cancelled meanwhile.
    init?(_ body: HTTPBody?, contentType: String?, client: FetchClient) async throws {
        guard let body else { return nil }
        let type = contentType ?? "application/octet-stream"
        let limit = FetchClientTransport.bufferedRequestBodyLimit
        if case .known(let length) = body.length, length <= Int64(limit) {
            self.body = RequestBody(data: try await Data(collecting: body, upTo: limit), contentType: type)
            self.file = nil
            return
        }
        var buffered = Data()
        var iterator = body.makeAsyncIterator()
        while buffered.count <= limit, let chunk = try await iterator.next() {
            buffered.append(contentsOf: chunk)
        }
        try Task.checkCancellation()
        guard buffered.count > limit else {
            self.body = RequestBody(data: buffered, contentType: type)
            self.file = nil
            return
        }
        let folder = client.configuration.temporaryDirectory ?? FileManager.default.temporaryDirectory
        let file = folder.appendingPathComponent("FetchKit-openapi-\(UUID().uuidString).body")
        // Readable by this user only: a request body may hold what others on the machine must not see.
        guard
            FileManager.default.createFile(
                atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else {
            throw RequestBodySpoolingError(folder: folder, reason: "a file cannot be created there")
        }
        guard let handle = try? FileHandle(forWritingTo: file) else {
            try? FileManager.default.removeItem(at: file)
            throw RequestBodySpoolingError(folder: folder, reason: "the file created there cannot be opened")
        }
        func write(_ bytes: some DataProtocol) throws(RequestBodySpoolingError) {
            do {
                try handle.write(contentsOf: bytes)
            } catch {
                throw RequestBodySpoolingError(folder: folder, reason: "\(error)")
            }
        }
        do {
            defer { try? handle.close() }
            try write(buffered)
            buffered = Data()
            while let chunk = try await iterator.next() {
                try write(chunk)
            }
            // A body cut short by the call's cancellation is not sent as if it were whole.
            try Task.checkCancellation()
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
        self.body = .file(file, contentType: type)
        self.file = file
    }

    /// Removes the temporary file, if the body was spooled to one.
    func remove() {
        if let file { try? FileManager.default.removeItem(at: file) }
    }
}
