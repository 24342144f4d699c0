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
    ///   error when reading it fails.
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
        guard buffered.count > limit else {
            self.body = RequestBody(data: buffered, contentType: type)
            self.file = nil
            return
        }
        let folder = client.configuration.temporaryDirectory ?? FileManager.default.temporaryDirectory
        let file = folder.appendingPathComponent("FetchKit-openapi-\(UUID().uuidString).body")
        guard FileManager.default.createFile(atPath: file.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: file)
        else {
            throw RequestBodySpoolingError(folder: folder, reason: "a file cannot be created there")
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
