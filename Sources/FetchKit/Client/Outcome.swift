/// How a ``RequestExecution`` ended, without its value's type.
enum Outcome: Sendable {
    /// The value was extracted; calling this hands it to the caller.
    case success(@Sendable () -> Void)
    /// The request failed.
    case failure(FetchError)
}
