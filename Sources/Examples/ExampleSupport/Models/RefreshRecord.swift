public import Foundation
public import Persistence

/// One `mustc refresh` that reached TMDB and saved its outcome: when it ran, so `mustc list`
/// can tell which movies changed in the latest refresh (their trend arrow) and which did not.
public struct RefreshRecord: StoredEntity {
    /// The record's identity.
    public var id: UUID
    /// When the refresh's values were saved.
    public var finishedAt: Date
    /// How many movies it changed.
    public var changed: Int

    /// The time column.
    public static let finishedAt = Field<RefreshRecord, Date>("finishedAt")
    /// The latest refresh is looked up by time.
    public static let indexes = [EntityIndex(finishedAt)]

    /// How many records are kept; older ones are pruned.
    public static let maximumKept = 200

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - finishedAt: when the refresh saved its values.
    ///   - changed: how many movies it changed.
    public init(finishedAt: Date, changed: Int) {
        id = UUID()
        self.finishedAt = finishedAt
        self.changed = changed
    }
}
