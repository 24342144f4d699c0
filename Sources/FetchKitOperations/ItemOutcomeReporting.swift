public import FetchKit
/// An operation that can say what its item came to, for a ``RefreshCompletionOperation``.
///
/// ``FetchOperation`` adopts it; adopt it in your own operations to take part in a refresh.
public protocol ItemOutcomeReporting: AnyObject {
    /// What the item came to, or `nil` while it has not finished (a finished operation
    /// without an outcome counts as failed).
    var itemOutcome: ItemOutcome? { get }
}
