import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a download's body is written while it arrives: one hidden staging file per exchange,
/// next to the destination, renamed over it only when the download succeeds.
///
/// A data request has no destination: every staging file is then `nil` and every step does nothing.
struct DownloadStaging: Sendable {
    /// Where the download's body goes once it is complete; `nil` for a data request, whose body
    /// stays in memory.
    let destination: URL?
    /// Names this download's staging files (empty for a data request).
    private let tag: String

    init(destination: URL?) {
        self.destination = destination
        self.tag = destination == nil ? "" : UUID().uuidString
    }

    /// Whether the request is a download.
    var isDownload: Bool { destination != nil }

    /// The file exchange number `exchange` of a download writes its body into: hidden, next to
    /// the destination (so renaming it there is atomic), and its own (a late write of a cancelled
    /// exchange cannot reach another's). `nil` for a data request.
    func file(_ exchange: Int?) -> URL? {
        guard let destination, let exchange else { return nil }
        return destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(tag)-\(exchange).download")
    }

    /// Removes exchange `exchange`'s staging file, if there is one.
    func remove(_ exchange: Int) {
        if let staging = file(exchange) { try? FileManager.default.removeItem(at: staging) }
    }

    /// Renames the body of exchange `exchange` over the destination, in one atomic step that
    /// replaces any file there; returns the error when it cannot.
    func moveIntoPlace(_ exchange: Int?) -> FetchError? {
        guard let destination, let staging = file(exchange) else {
            return FetchError(code: .badResponse, detail: "the download's body was not written")
        }
        if !FileManager.default.fileExists(atPath: staging.path) {
            // A transport that writes nothing for an empty body: the file is empty.
            _ = FileManager.default.createFile(atPath: staging.path, contents: nil)
        }
        guard rename(staging.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            return FetchError(
                code: .fileUnavailable,
                detail: "the downloaded file could not be moved into place at \(destination.path) (\(reason)). "
                    + "Check that its folder exists and is writable")
        }
        return nil
    }

    /// `response`, marked for a download as a body in memory that its extraction writes to the
    /// destination (a stored response: nothing streamed to disk).
    func inMemory(_ response: TransportResponse) -> TransportResponse {
        guard destination != nil else { return response }
        var response = response
        response.bodyInMemory = response.data
        return response
    }

    /// The body an API-failure detector or the cache reads: in memory, or the file of exchange
    /// `downloaded` read mapped (`nil` when that file cannot be read).
    func body(of response: TransportResponse, downloaded: Int?) -> Data? {
        guard response.bodyInMemory == nil, let staging = file(downloaded) else { return response.data }
        return try? Data(contentsOf: staging, options: .alwaysMapped)
    }

    /// The start of exchange `downloaded`'s body for an error's excerpt, its file then removed;
    /// `nil` when no file holds the body.
    func takeStart(of downloaded: Int?) -> Data? {
        guard let staging = file(downloaded) else { return nil }
        let start = Self.start(of: staging)
        try? FileManager.default.removeItem(at: staging)
        return start
    }

    /// The size of the destination once the download is in place.
    var destinationSize: Int64? {
        guard let destination,
            let size = try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber
        else { return nil }
        return size.int64Value
    }

    /// The first 600 bytes of a file, or none when it cannot be read.
    private static func start(of file: URL) -> Data {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return Data() }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 600)) ?? Data()
    }
}
