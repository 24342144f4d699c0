/// What a fan-out's ``FanOut/results(_:changed:transform:)`` sequence yields: each item as it
/// finishes, then, last, the report of the whole run.
///
/// ```swift
/// for await event in FanOut().results(movies, changed: { $0.popularity != $1 }, transform: refresh) {
///     switch event {
///     case .item(let index, let result, _, let progress):
///         print("\(movies[index].title): \(result) (\(progress.completed) of \(progress.total))")
///     case .finished(let report):
///         completionHandler(report.outcome)
///     }
/// }
/// ```
public enum FanOutEvent<Value: Sendable>: Sendable {
    /// An item finished: its position in the input, its result, what it came to, and the
    /// progress of the whole run with it counted.
    case item(index: Int, result: Result<Value, any Error>, outcome: ItemOutcome, progress: FanOutProgress)
    /// Every item has finished (or the run was cancelled): the report, the sequence's last element.
    case finished(FanOutReport<Value>)
}
