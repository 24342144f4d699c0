/// What one batch of downloads came to: the keys that succeeded and those that failed.
///
/// A batch begins when a download starts while none is in flight and ends when the last
/// download in flight ends.
public struct DownloadBatchSummary: Sendable {
    /// The keys of the downloads that succeeded, in the order they finished.
    public var succeeded: [String]
    /// The errors of the downloads that failed, by key.
    public var failed: [String: any Error]

    /// Creates a summary.
    ///
    /// - Parameters:
    ///   - succeeded: the keys that succeeded.
    ///   - failed: the errors of the keys that failed.
    init(succeeded: [String] = [], failed: [String: any Error] = [:]) {
        self.succeeded = succeeded
        self.failed = failed
    }

    /// How many downloads the batch held.
    public var count: Int { succeeded.count + failed.count }
}
