/// What a `FetchTask` needs from the request it controls.
protocol CancellableExecution: AnyObject, Sendable {
    var id: Int { get }
    var isFinished: Bool { get }
    func cancel()
    /// Marks the request cancelled and returns the rest of the work of cancelling it
    /// (`nil` when it had already finished).
    func markCancelled() -> (() -> Void)?
    /// Lets the attempt in progress finish and starts no other attempt.
    func stopRetrying()
}
