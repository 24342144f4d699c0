/// How far a fan-out has come: items done out of the total, by outcome.
///
/// Delivered after each item finishes, in order, so `completed` only grows.
public struct FanOutProgress: Sendable, Hashable {
    /// Items finished so far, whatever their outcome.
    public var completed: Int
    /// Items in the fan-out.
    public var total: Int
    /// Finished items whose result changed something.
    public var changed: Int
    /// Finished items whose result changed nothing.
    public var unchanged: Int
    /// Finished items that failed.
    public var failed: Int

    /// The finished share of the work, from 0 to 1 (1 for an empty fan-out).
    public var fractionCompleted: Double {
        total == 0 ? 1 : Double(completed) / Double(total)
    }

    /// Creates a progress value.
    ///
    /// - Parameters:
    ///   - completed: items finished so far.
    ///   - total: items in the fan-out.
    ///   - changed: finished items that changed something.
    ///   - unchanged: finished items that changed nothing.
    ///   - failed: finished items that failed.
    public init(completed: Int, total: Int, changed: Int = 0, unchanged: Int = 0, failed: Int = 0) {
        self.completed = completed
        self.total = total
        self.changed = changed
        self.unchanged = unchanged
        self.failed = failed
    }
}
