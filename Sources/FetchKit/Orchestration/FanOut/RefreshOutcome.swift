/// The one outcome of a refresh made of many fetches.
///
/// It mirrors the three answers a background refresh gives the system
/// (`UIBackgroundFetchResult` on iOS): something changed, nothing changed, or the refresh
/// could not find out. ``FailureRule`` says how item failures combine into it.
public enum RefreshOutcome: String, Sendable, Hashable, CaseIterable {
    /// At least one item changed something.
    case newData
    /// Every item ran and none changed anything (also the outcome of an empty refresh).
    case noData
    /// The refresh could not run, or failures left it unable to say whether anything changed.
    case failed
}
