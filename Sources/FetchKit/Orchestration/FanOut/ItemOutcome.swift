/// What one item of a refresh came to.
public enum ItemOutcome: Sendable, Hashable {
    /// The item ran and its result changed something.
    case changed
    /// The item ran and its result changed nothing.
    case unchanged
    /// The item failed (an error, or it was cancelled before it could finish).
    case failed
}
