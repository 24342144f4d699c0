/// How far a pull has come: what a UI shows during a first sync (``SyncStatus/progress``).
///
/// ```swift
/// for await status in mirror.statusUpdates {
///     if let progress = status.progress {
///         label = progress.fractionCompleted.map { "\(Int($0 * 100)) %" } ?? "\(progress.recordsApplied) records"
///     }
/// }
/// ```
public struct SyncProgress: Sendable, Hashable {
    /// Records and deletions applied by this run's pulls so far (each page's whole count, applied
    /// in its transaction).
    public var recordsApplied = 0
    /// Pages applied so far.
    public var pagesApplied = 0
    /// Bytes of pages received so far (their bodies).
    public var bytesReceived = 0
    /// How many records the pulls are expected to apply in all, when the server gives a total
    /// (``ChangePage/remaining``); `nil` when it does not.
    public var expectedRecords: Int?

    /// The part done, from 0 to 1, when the server gives a total.
    public var fractionCompleted: Double? {
        guard let expected = expectedRecords else { return nil }
        guard expected > 0 else { return 1 }
        return min(1, Double(recordsApplied) / Double(expected))
    }

    /// No progress yet.
    public init() {}

    /// Progress added up (a group's collections): the expected total only when each part gives one.
    static func sum(_ parts: some Collection<SyncProgress>) -> SyncProgress {
        var total = SyncProgress()
        for part in parts {
            total.recordsApplied += part.recordsApplied
            total.pagesApplied += part.pagesApplied
            total.bytesReceived += part.bytesReceived
        }
        let expected = parts.map(\.expectedRecords)
        total.expectedRecords = expected.contains { $0 == nil } ? nil : expected.reduce(0) { $0 + ($1 ?? 0) }
        return total
    }
}
