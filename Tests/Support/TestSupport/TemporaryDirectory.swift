public import Foundation

/// A fresh, empty directory under the system's temporary directory, for one test.
///
/// Each instance creates its own directory and removes it, with everything in it, when the
/// last reference goes (a suite's property when the test's suite instance goes, a local when
/// its scope ends); ``remove()`` removes it earlier. `swift test` leaves nothing in `TMPDIR`.
/// Keep the instance, not only its ``url``, for as long as the files are used.
public final class TemporaryDirectory: Sendable {
    /// The directory's URL.
    public let url: URL

    /// Creates a new empty directory whose name starts with `prefix`.
    ///
    /// - Parameter prefix: a readable prefix for the directory name.
    /// - Throws: the file system's error when the directory cannot be created.
    public init(prefix: String = "FetchKitTests") throws {
        let name = "\(prefix)-\(UUID().uuidString)"
        url = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The URL of a file named `name` inside the directory.
    ///
    /// - Parameter name: a file name.
    /// - Returns: the file's URL.
    public func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    deinit {
        remove()
    }
}
