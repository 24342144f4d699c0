public import FetchKit
public import Dispatch
public import Foundation

extension OperationQueue {
    /// Adds `operations` and a completion operation that reports their aggregate outcome.
    ///
    /// The completion operation depends on every operation in `operations` and reports once
    /// all of them have finished, however they finished.
    ///
    /// - Parameters:
    ///   - operations: the item operations, usually ``FetchOperation``s.
    ///   - failureRule: how failed items combine into the outcome.
    ///   - queue: where `handler` runs; when `nil`, inside the completion operation itself, so
    ///     the operation finishes only after `handler` has returned.
    ///   - handler: receives the outcome, exactly once.
    /// - Returns: the completion operation, already added to the queue.
    @discardableResult
    public func addRefresh(
        _ operations: [Operation], failureRule: FailureRule = .strict, queue: DispatchQueue? = nil,
        handler: @escaping @Sendable (RefreshOutcome) -> Void
    ) -> RefreshCompletionOperation {
        let completion = RefreshCompletionOperation(failureRule: failureRule, queue: queue, handler: handler)
        for operation in operations { completion.addDependency(operation) }
        addOperations(operations, waitUntilFinished: false)
        addOperation(completion)
        return completion
    }
}
