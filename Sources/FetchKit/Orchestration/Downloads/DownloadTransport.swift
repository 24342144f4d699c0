public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Moves the bytes of one download into a file: the seam under ``DownloadCoordinator``.
///
/// ``URLSessionDownloadTransport`` is the default. Adopt it to download through another
/// stack; the coordinator takes care of joining, moving into place and cleaning up.
public protocol DownloadTransport: Sendable {
    /// Downloads `request` into a new file at `file`.
    ///
    /// Write the whole body to `file` (which does not exist yet) and return, or throw.
    /// Stop when the task is cancelled. The coordinator removes `file` if this throws.
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - file: where to put the body.
    ///   - key: the download's key, for error messages.
    /// - Throws: ``DownloadError`` (or any error; the coordinator passes it on).
    func download(_ request: URLRequest, into file: URL, key: String) async throws
}
