/// The typed end of a request: turns an accepted response into the caller's value, and
/// hands the caller the value or the error.
protocol ResultHandoff: Sendable {
    /// Extracts the value from `response` and returns the call that delivers it.
    func extract(_ response: TransportResponse) throws(FetchError) -> @Sendable () -> Void
    /// Delivers `error` to the caller.
    func fail(_ error: FetchError)
}
